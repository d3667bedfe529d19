import { describe, expect, it } from 'vitest';
import { demoHost } from './demo-host.mjs';

describe('the demo', () => {
  it('listens on loopback only, whatever HOST says, unless --public is given', () => {
    expect(demoHost(['node', 'start.mjs', '--demo'])).toBe('127.0.0.1');
    expect(demoHost(['node', 'start.mjs', '--demo', '--public'])).toBe('0.0.0.0');
  });
});
