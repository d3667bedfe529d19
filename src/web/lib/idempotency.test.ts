import { describe, expect, it } from 'vitest';
import { ApiRequestError } from './api';
import { idempotencyKeys } from './idempotency';

describe('idempotencyKeys', () => {
  it('reuses the key when the same submit is sent again, and makes a new one for another or after an answer', () => {
    let n = 0;
    const keys = idempotencyKeys(() => `k${++n}`);
    expect(keys.keyFor({ quantity: 2 })).toBe('k1');
    expect(keys.keyFor({ quantity: 2 })).toBe('k1');
    expect(keys.keyFor({ quantity: 3 })).toBe('k2');
    keys.settled();
    expect(keys.keyFor({ quantity: 3 })).toBe('k3');
  });

  it('keeps the key after a call that got no answer, and forgets it after a refusal', () => {
    let n = 0;
    const keys = idempotencyKeys(() => `k${++n}`);
    expect(keys.keyFor({ quantity: 1 })).toBe('k1');
    keys.settled(new ApiRequestError('The server cannot be reached.', 0));
    expect(keys.keyFor({ quantity: 1 })).toBe('k1');
    keys.settled(new ApiRequestError('Not enough stock', 409));
    expect(keys.keyFor({ quantity: 1 })).toBe('k2');
  });

  it('hands out the unanswered submit and takes it back, so a retry after a reload carries the same key', () => {
    let n = 0;
    const keys = idempotencyKeys(() => `k${++n}`);
    expect(keys.unanswered()).toBeNull();
    keys.keyFor({ quantity: 1 });
    keys.settled(new ApiRequestError('The server cannot be reached.', 0));
    const kept = keys.unanswered();
    expect(kept).toEqual({ body: '{"quantity":1}', key: 'k1' });

    const reloaded = idempotencyKeys(() => `r${++n}`);
    reloaded.restore(kept);
    expect(reloaded.keyFor({ quantity: 1 })).toBe('k1');
    expect(reloaded.keyFor({ quantity: 2 })).toBe('r2');
    reloaded.settled();
    expect(reloaded.unanswered()).toBeNull();
  });

  it('makes keys the server accepts', () => {
    expect(idempotencyKeys().keyFor({})).toMatch(/^[\x21-\x7e]{1,200}$/);
  });
});
