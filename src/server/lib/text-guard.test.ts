import { describe, expect, it } from 'vitest';
import { badTextPath } from './text-guard';

describe('bad text in a JSON body', () => {
  it('is found with the dotted path to it, in a value or in a key', () => {
    expect(badTextPath({ name: 'fine', lines: [{ note: 'ok' }, { note: 'a\u0000b' }] })).toBe('lines.1.note');
    expect(badTextPath({ outer: { 'k\ud800': 1 } })).toBe('outer.k\ud800');
    expect(badTextPath('\udc00')).toBe('');
    expect(badTextPath({ name: 'emoji 🍎', n: 1, list: [null, true, 2] })).toBeUndefined();
  });

  it('is looked for in a body of 250,000 small values in a few milliseconds, not most of a second', () => {
    const body = {
      email: 'a@example.com',
      junk: Array.from({ length: 250_000 }, (_, i) => (i % 2 ? i : 'ab')),
    };
    badTextPath(body);
    const start = performance.now();
    expect(badTextPath(body)).toBeUndefined();
    expect(performance.now() - start).toBeLessThan(60);
  });
});
