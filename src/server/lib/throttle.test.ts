import { describe, expect, it } from 'vitest';
import { FailureCounter } from './throttle';

describe('FailureCounter', () => {
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('blocks a key once it reaches the limit, for the rest of the window only', () => {
    const time = clock();
    const counter = new FailureCounter(3, 60_000, time.now);
    counter.fail('a');
    counter.fail('a');
    expect(counter.blockedFor('a')).toBe(0);
    counter.fail('a');
    expect(counter.blockedFor('a')).toBe(60_000);
    expect(counter.blockedFor('b')).toBe(0);
    time.advance(59_999);
    expect(counter.blockedFor('a')).toBe(1);
    time.advance(1);
    expect(counter.blockedFor('a')).toBe(0);
    counter.fail('a');
    expect(counter.blockedFor('a')).toBe(0);
  });

  it('starts a fresh window for failures after the old one ended', () => {
    const time = clock();
    const counter = new FailureCounter(2, 1000, time.now);
    counter.fail('a');
    time.advance(1500);
    counter.fail('a');
    expect(counter.blockedFor('a')).toBe(0);
  });

  it('forgets a key on reset', () => {
    const counter = new FailureCounter(1, 1000);
    counter.fail('a');
    expect(counter.blockedFor('a')).toBeGreaterThan(0);
    counter.reset('a');
    expect(counter.blockedFor('a')).toBe(0);
  });
});
