import { afterAll, describe, expect, it } from 'vitest';
import { addressKey } from './client-address';
import { MemoryState, RedisState, type SharedState } from './shared-state';
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
    const burst = await Promise.all(Array.from({ length: 20 }, () => t.admit(email, address)));
    expect(burst.filter((a) => a.admitted)).toHaveLength(5);
    const refused = burst.filter((a) => !a.admitted);
    expect(refused).toHaveLength(15);
    for (const a of refused) if (!a.admitted) expect(a.waitMs).toBeGreaterThan(50_000);
  });

  it('takes an attempt refused unchecked back: hammering a block does not deepen it', async () => {
    const t = await throttle();
    const { email, address } = fresh();
    const burst = await Promise.all(Array.from({ length: 20 }, () => t.admit(email, address)));
    const admitted = burst.filter((a) => a.admitted);
    expect(admitted).toHaveLength(5);
    // One of the five was the right password: four failures remain, so one more try is checked.
    await t.succeeded(admitted[0] as (typeof admitted)[number]);
    expect((await t.admit(email, address)).admitted).toBe(true);
    expect((await t.admit(email, address)).admitted).toBe(false);
  });

  it('takes a success back: it was not a failure', async () => {
    const t = await throttle();
    const { email, address } = fresh();
    for (let typo = 0; typo < 4; typo++) expect((await t.admit(email, address)).admitted).toBe(true);
    const good = await t.admit(email, address);
    expect(good.admitted).toBe(true);
    await t.succeeded(good);
    // Four failures so far: one more is checked, the sixth attempt is not.
    expect((await t.admit(email, address)).admitted).toBe(true);
    expect(await t.admit(email, address)).toMatchObject({ admitted: false, reason: 'pair' });
  });

  it('past 50 failures for an email, a stranger address gets one try and the owner’s clean address still gets in', async () => {
    const t = await throttle();
    const { email } = fresh();
    const net = `172.${byte()}.${byte()}`;
    const stranger = (i: number) => `${net}.${i}`;
    // 25 addresses fail twice each: 50 failures for the email, none of them over the pair limit.
    for (let i = 0; i < 25; i++) {
      expect((await t.admit(email, stranger(i))).admitted).toBe(true);
      expect((await t.admit(email, stranger(i))).admitted).toBe(true);
    }
    // A stranger who already failed is refused now; a new one gets exactly one try.
    const again = await t.admit(email, stranger(0));
    expect(again).toMatchObject({ admitted: false, reason: 'email' });
    expect((await t.admit(email, stranger(99))).admitted).toBe(true);
    expect(await t.admit(email, stranger(99))).toMatchObject({ admitted: false, reason: 'email' });
    // The owner, from an address that has not failed, signs in.
    const owner = await t.admit(email, `192.0.${byte()}.${byte()}`);
    expect(owner.admitted).toBe(true);
  });

  it('refuses an address past 100 failures over any emails, and counts an IPv6 /64 as one address', async () => {
    const t = await throttle();
    const net = `2001:db8:${hex()}:${hex()}`;
    for (let i = 0; i < 100; i++) {
      const a = await t.admit(`victim${i}.${run}@example.com`, `${net}:${i.toString(16)}::1`);
      expect(a.admitted).toBe(true);
    }
    expect(await t.admit(`another.${run}@example.com`, `${net}:ffff::2`)).toMatchObject({
      admitted: false,
      reason: 'address',
    });
    expect((await t.admit(`another.${run}@example.com`, `2001:db8:${hex()}:1::2`)).admitted).toBe(true);
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
