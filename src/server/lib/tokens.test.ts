import { describe, expect, it } from 'vitest';
import { Tokens } from './tokens';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';
const claims = { userId: '0b6f7a4e-2a44-4b8e-9a55-6d1f0f0c1a11', tokenVersion: 3 };

describe('tokens', () => {
  it('verify what they signed, and again from memory, until the token expires', async () => {
    const tokens = new Tokens(SECRET, 60);
    const token = await tokens.sign(claims);
    const now = Date.now();
    expect(await tokens.verify(token, now)).toMatchObject(claims);
    expect(await tokens.verify(token, now + 1000)).toMatchObject(claims);
    // Expired: refused although it verified before, and still refused afterwards.
    expect(await tokens.verify(token, now + 61_000)).toBeUndefined();
    expect(await tokens.verify(token, now + 61_000)).toBeUndefined();
  });

  it('refuse a token signed with another secret, a changed payload and a token without a signature', async () => {
    const tokens = new Tokens(SECRET, 60);
    const other = await new Tokens(`${SECRET}-other`, 60).sign(claims);
    expect(await tokens.verify(other)).toBeUndefined();
    const [header, payload, signature] = (await tokens.sign(claims)).split('.');
    const changed = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()), tv: 4 }),
    ).toString('base64url');
    expect(await tokens.verify(`${header}.${changed}.${signature}`)).toBeUndefined();
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    expect(await tokens.verify(`${none}.${payload}.`)).toBeUndefined();
    // A refused token is not remembered: the genuine one still verifies, the forged one never does.
    expect(await tokens.verify(`${header}.${payload}.${signature}`)).toMatchObject(claims);
    expect(await tokens.verify(`${header}.${changed}.${signature}`)).toBeUndefined();
  });

  it('give every token an id of its own and its expiry, and refuse a signed token without an id', async () => {
    const tokens = new Tokens(SECRET, 60);
    const a = await tokens.verify(await tokens.sign(claims));
    const b = await tokens.verify(await tokens.sign(claims));
    expect(a?.tokenId).toMatch(/^[0-9a-f-]{36}$/);
    expect(b?.tokenId).not.toBe(a?.tokenId);
    expect(a?.expiresAt).toBeGreaterThan(Date.now() + 55_000);
    expect(a?.expiresAt).toBeLessThanOrEqual(Date.now() + 61_000);
    const { SignJWT } = await import('jose');
    const withoutId = await new SignJWT({ tv: 3 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setExpirationTime('1m')
      .sign(new TextEncoder().encode(SECRET));
    expect(await tokens.verify(withoutId)).toBeUndefined();
  });

  it('forget the oldest remembered token past ten thousand, which then verifies afresh', async () => {
    const tokens = new Tokens(SECRET, 60);
    const first = await tokens.sign(claims);
    await tokens.verify(first);
    for (let i = 0; i < 10_000; i++) {
      await tokens.verify(await tokens.sign({ userId: claims.userId, tokenVersion: i + 10 }));
    }
    const remembered = (tokens as unknown as { verified: Map<string, unknown> }).verified;
    expect(remembered.size).toBe(10_000);
    expect(remembered.has(first)).toBe(false);
    expect(await tokens.verify(first)).toMatchObject(claims);
  });
});
