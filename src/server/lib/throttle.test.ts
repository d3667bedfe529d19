import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { addressKey } from './client-address';
import { MEMORY_CAPS, MemoryState, RedisState, type SharedState } from './shared-state';
import { LoginThrottle } from './throttle';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const quiet = { warn: () => {}, info: () => {} };
let run = 0;
/** Emails and addresses of their own, so runs sharing one Redis never meet. */
const byte = () => Math.floor(Math.random() * 250);
const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
const fresh = () => {
  const tag = `${Date.now().toString(36)}${run++}`;
  return { email: `owner.${tag}@example.com`, address: `10.${byte()}.${byte()}.${byte()}` };
};
const limits = { perPair: 5, perEmail: 50, perAddress: 100, windowMs: 60_000 };

describe('addressKey', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('counts %s as %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});

const stores: Array<[string, () => Promise<SharedState>]> = [
  ['memory', async () => new MemoryState()],
  ['Redis', () => RedisState.open(REDIS_URL, quiet)],
];

describe.each(stores)('LoginThrottle on %s', (_name, open) => {
  const opened: SharedState[] = [];
  const throttle = async () => {
    const state = await open();
    opened.push(state);
    return new LoginThrottle(state, limits);
  };
  afterAll(async () => {
    for (const state of opened) await state.close();
  });

  it('admits exactly the limit out of a parallel burst: each attempt is counted before it is checked', async () => {
    const t = await throttle();
    const { email, address } = fresh();
    const burst = await Promise.all(Array.from({ length: 20 }, () => t.admit({ email, address })));
    expect(burst.filter((a) => a.admitted)).toHaveLength(5);
    const refused = burst.filter((a) => !a.admitted);
    expect(refused).toHaveLength(15);
    for (const a of refused) if (!a.admitted) expect(a.waitMs).toBeGreaterThan(50_000);
  });

  it('takes an attempt refused unchecked back: hammering a block does not deepen it', async () => {
    const t = await throttle();
    const { email, address } = fresh();
    const burst = await Promise.all(Array.from({ length: 20 }, () => t.admit({ email, address })));
    const admitted = burst.filter((a) => a.admitted);
    expect(admitted).toHaveLength(5);
    // One of the five was the right password: four failures remain, so one more try is checked.
    await t.succeeded(admitted[0] as (typeof admitted)[number]);
    expect((await t.admit({ email, address })).admitted).toBe(true);
    expect((await t.admit({ email, address })).admitted).toBe(false);
  });

  it('takes a success back: it was not a failure', async () => {
    const t = await throttle();
    const { email, address } = fresh();
    for (let typo = 0; typo < 4; typo++) expect((await t.admit({ email, address })).admitted).toBe(true);
    const good = await t.admit({ email, address });
    expect(good.admitted).toBe(true);
    await t.succeeded(good);
    // Four failures so far: one more is checked, the sixth attempt is not.
    expect((await t.admit({ email, address })).admitted).toBe(true);
    expect(await t.admit({ email, address })).toMatchObject({ admitted: false, reason: 'pair' });
  });

  it('past 50 failures for an email every address is refused, a fresh one too, and each refusing counter is logged once per window', async () => {
    const t = await throttle();
    const { email } = fresh();
    const net = `172.${byte()}.${byte()}`;
    const stranger = (i: number) => `${net}.${i}`;
    // 25 addresses fail twice each: 50 failures for the email, none of them over the pair limit.
    for (let i = 0; i < 25; i++) {
      expect((await t.admit({ email, address: stranger(i) })).admitted).toBe(true);
      expect((await t.admit({ email, address: stranger(i) })).admitted).toBe(true);
    }
    const first = await t.admit({ email, address: stranger(99) });
    expect(first).toMatchObject({ admitted: false, reason: 'email', firstInWindow: true });
    expect(await t.admit({ email, address: `192.0.${byte()}.${byte()}` })).toMatchObject({
      admitted: false,
      reason: 'email',
      firstInWindow: false,
    });
    expect(await t.admit({ email, address: stranger(0) })).toMatchObject({
      admitted: false,
      reason: 'email',
    });
  });

  it('a known device of the account has its own limit of 5, which strangers past the email cap do not spend', async () => {
    const t = await throttle();
    const { email } = fresh();
    const device = `device-${Math.random()}`;
    for (let i = 0; i < 50; i++)
      expect((await t.admit({ email, address: `10.${byte()}.${byte()}.${i}` })).admitted).toBe(true);
    expect((await t.admit({ email, address: '198.51.100.7' })).admitted).toBe(false);
    for (let typo = 0; typo < 5; typo++)
      expect((await t.admit({ email, address: '198.51.100.7', device })).admitted).toBe(true);
    expect(await t.admit({ email, address: '198.51.100.7', device })).toMatchObject({
      admitted: false,
      reason: 'device',
    });
    // Another of the owner's devices still has its allowance.
    expect((await t.admit({ email, address: '198.51.100.8', device: `${device}-2` })).admitted).toBe(true);
  });

  it('refuses an address past 100 failures over any emails, and counts an IPv6 /64 as one address', async () => {
    const t = await throttle();
    const net = `2001:db8:${hex()}:${hex()}`;
    for (let i = 0; i < 100; i++) {
      const a = await t.admit({
        email: `victim${i}.${run}@example.com`,
        address: `${net}:${i.toString(16)}::1`,
      });
      expect(a.admitted).toBe(true);
    }
    expect(await t.admit({ email: `another.${run}@example.com`, address: `${net}:ffff::2` })).toMatchObject({
      admitted: false,
      reason: 'address',
    });
    expect(
      (await t.admit({ email: `another.${run}@example.com`, address: `2001:db8:${hex()}:1::2` })).admitted,
    ).toBe(true);
  });
});

describe('RedisState', () => {
  it('shares counts and revocations between two connections (two instances)', async () => {
    const a = await RedisState.open(REDIS_URL, quiet);
    const b = await RedisState.open(REDIS_URL, quiet);
    try {
      const key = `test:shared:${Date.now()}:${Math.random()}`;
      expect((await a.hit([key], 60_000))[0]?.count).toBe(1);
      expect((await b.hit([key], 60_000))[0]?.count).toBe(2);
      const id = `token-${key}`;
      expect(await b.isRevoked(id)).toBe(false);
      await a.revoke(id, Date.now() + 60_000);
      expect(await b.isRevoked(id)).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keeps working on this process’s memory when Redis is unreachable, and says so once', async () => {
    const warnings: string[] = [];
    // Nothing listens on port 1.
    const state = await RedisState.open('redis://127.0.0.1:1', {
      warn: (m) => warnings.push(m),
      info: () => {},
    });
    try {
      expect((await state.hit(['k'], 60_000))[0]?.count).toBe(1);
      expect((await state.hit(['k'], 60_000))[0]?.count).toBe(2);
      await state.revoke('t', Date.now() + 60_000);
      expect(await state.isRevoked('t')).toBe(true);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/Redis is not answering.*this instance only/);
    } finally {
      await state.close();
    }
  });
});

describe('MemoryState under a flood of distinct keys', () => {
  // A measured heap bound needs a collection before each reading.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const heapUsed = () => {
    gc();
    return process.memoryUsage().heapUsed;
  };
  /** Keys as long as the throttle's: `login:pair:<address>:<email>`. */
  const key = (i: number) => `login:pair:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}:guess.${i}@example.com`;
  /** Microseconds per hit of a fresh key, over `n` hits starting at key `from`. */
  const perHit = async (state: MemoryState, from: number, n: number) => {
    const started = performance.now();
    for (let i = from; i < from + n; i++) await state.hit([key(i)], 60_000);
    return ((performance.now() - started) * 1000) / n;
  };

  it('200,000 distinct keys stay within the cap of 50,000 counters (under 32 MB of heap), each hit O(1)', async () => {
    const before = heapUsed();
    const state = new MemoryState();
    await perHit(state, 0, 1_000); // warm-up
    const atOneThousand = await perHit(state, 1_000, 5_000);
    await perHit(state, 6_000, 194_000);
    expect(state.size.counters).toBe(MEMORY_CAPS.counters);
    const atTwoHundredThousand = await perHit(state, 200_000, 5_000);
    const grown = heapUsed() - before;
    console.log(
      `[memory state] 205,000 keys: ${state.size.counters} counters kept, heap +${(grown / 1e6).toFixed(1)} MB; ${atOneThousand.toFixed(2)} µs per hit at 1k keys, ${atTwoHundredThousand.toFixed(2)} µs at 200k`,
    );
    expect(grown).toBeLessThan(32e6);
    // A scan per hit (the old prune) costs hundreds of µs at this size; a busy machine adds a few.
    expect(atTwoHundredThousand).toBeLessThan(Math.max(5 * atOneThousand, 20));
    // Revocations are bounded the same way.
    for (let i = 0; i < 30_000; i++) await state.revoke(`token-${i}`, Date.now() + 60_000);
    expect(state.size.revoked).toBe(MEMORY_CAPS.revoked);
    expect(await state.isRevoked('token-29999')).toBe(true);
  });

  it('at the cap a flood of one-off keys evicts one-off keys, not the counters holding a guesser back', async () => {
    const state = new MemoryState(Date.now, { counters: 1_000, revoked: 10 });
    const victim = 'login:email:owner@example.com';
    for (let guess = 0; guess < 40; guess++) await state.hit([victim], 60_000);
    for (let i = 0; i < 100_000; i++) await state.hit([key(i)], 60_000);
    expect(state.size.counters).toBe(1_000);
    expect((await state.hit([victim], 60_000))[0]?.count).toBe(41);
  });

  it('expired windows are dropped as new keys arrive, without waiting for the cap', async () => {
    let now = 0;
    const state = new MemoryState(() => now, { counters: 1_000_000, revoked: 10 });
    for (let i = 0; i < 10_000; i++) await state.hit([key(i)], 1_000);
    now = 2_000;
    for (let i = 10_000; i < 20_000; i++) await state.hit([key(i)], 1_000);
    expect(state.size.counters).toBe(10_000);
  });
});
