import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { isId } from './errors';

export interface TokenClaims {
  userId: string;
  tokenVersion: number;
}

/** A verified token: its claims, its own id (what a sign-out revokes) and when it expires. */
export interface VerifiedToken extends TokenClaims {
  tokenId: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** How many verified tokens are remembered; past that the oldest is forgotten first. */
const REMEMBERED = 10_000;

/**
 * Signed, expiring bearer tokens (HS256). The caller still checks the user against the database.
 *
 * A token that verified once is remembered with its expiry, so the same session's next calls skip
 * the signature check (a WebCrypto round trip that took a sixth of the server's time under order
 * load). Only tokens that verified are remembered, and each use still checks the expiry.
 */
export class Tokens {
  /** Imported once: given raw bytes, jose would import the key again for every token. */
  private readonly key: Promise<CryptoKey>;
  private readonly verified = new Map<string, VerifiedToken>();
  /** Signs device cookies; derived from the token secret, so neither signature stands for the other. */
  private readonly deviceKey: Buffer;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.deviceKey = createHmac('sha256', secret).update('ims_device cookie key').digest();
    this.key = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
  }

  async sign(claims: TokenClaims): Promise<string> {
    return new SignJWT({ tv: claims.tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(await this.key);
  }

  /** The claims of a valid token, or undefined for a forged, expired or malformed one. */
  async verify(token: string, now = Date.now()): Promise<VerifiedToken | undefined> {
    const known = this.verified.get(token);
    if (known) {
      if (now < known.expiresAt) return known;
      this.verified.delete(token);
      return undefined;
    }
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'],
        currentDate: new Date(now),
      });
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.tv !== 'number' ||
        typeof payload.exp !== 'number' ||
        typeof payload.jti !== 'string' ||
        // Sign-outs are kept by this id in a uuid column.
        !isId(payload.jti)
      )
        return undefined;
      const claims: VerifiedToken = {
        userId: payload.sub,
        tokenVersion: payload.tv,
        tokenId: payload.jti,
        expiresAt: payload.exp * 1000,
      };
      if (this.verified.size >= REMEMBERED) {
        const oldest = this.verified.keys().next().value;
        if (oldest !== undefined) this.verified.delete(oldest);
      }
      this.verified.set(token, claims);
      return claims;
    } catch {
      return undefined;
    }
  }

  /**
   * A known-device cookie's value for an account (DESIGN §7): the normalised email it signed in
   * with, a random id of this device, and the server's signature. No password material. The
   * email, not the user id, so the throttle can tell before any database read whether a sign-in
   * attempt comes from one of the account's own browsers.
   */
  deviceCookie(email: string, deviceId: string = randomBytes(12).toString('base64url')): string {
    const body = `${Buffer.from(email).toString('base64url')}.${deviceId}`;
    return `${body}.${this.deviceSignature(body)}`;
  }

  /** The device id of a cookie this server signed for `email`, or undefined for any other value. */
  deviceFor(cookie: string, email: string): string | undefined {
    const parts = cookie.split('.');
    if (parts.length !== 3) return undefined;
    const [named, deviceId, signature] = parts as [string, string, string];
    const expected = Buffer.from(this.deviceSignature(`${named}.${deviceId}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return Buffer.from(named, 'base64url').toString() === email ? deviceId : undefined;
  }

  private deviceSignature(body: string): string {
    return createHmac('sha256', this.deviceKey).update(body).digest('base64url');
  }
}
