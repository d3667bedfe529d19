import { addressKey } from './client-address';
import { AppError } from './errors';
import type { SharedState } from './shared-state';

/** Sign-in attempts allowed in one window (DESIGN §7). */
export interface LoginLimits {
  /** Failures for one email from one address. */
  perPair: number;
  /** Failures for one email from all addresses: stops guessing spread over many addresses. */
  perEmail: number;
  /** Failures from one address over all emails: far above what a shop makes. */
  perAddress: number;
  windowMs: number;
}

export const LOGIN_LIMITS: LoginLimits = {
  perPair: 5,
  perEmail: 50,
  perAddress: 100,
  windowMs: 15 * 60_000,
};

export type Admission =
  | { admitted: true; keys: readonly string[] }
  | { admitted: false; waitMs: number; reason: 'pair' | 'email' | 'address' };

/**
 * The login throttle. Every attempt is counted *before* its password is checked, so a burst of
 * parallel attempts gets at most the limit checked: the counters are what admits, not the
 * outcome of attempts still running. A success, or an attempt refused unchecked, takes its count back.
 *
 * Past the per-email limit an address may still try that email while it has no failure of its
 * own for it in the window: strangers failing everywhere do not lock the owner out of a clean
 * address, and a guesser spread over many addresses gets one try per address.
 */
export class LoginThrottle {
  constructor(
    private readonly state: SharedState,
    private readonly limits: LoginLimits = LOGIN_LIMITS,
  ) {}

  async admit(email: string, address: string): Promise<Admission> {
    const from = addressKey(address);
    const keys = [`login:pair:${from}:${email}`, `login:email:${email}`, `login:address:${from}`];
    const [pair, byEmail, byAddress] = await this.state.hit(keys, this.limits.windowMs);
    if (!pair || !byEmail || !byAddress) throw new Error('throttle counters missing');
    const refused = (waitMs: number, reason: 'pair' | 'email' | 'address'): Admission => ({
      admitted: false,
      waitMs,
      reason,
    });
    let refusal: Admission | undefined;
    if (pair.count > this.limits.perPair) refusal = refused(pair.leftMs, 'pair');
    else if (byAddress.count > this.limits.perAddress) refusal = refused(byAddress.leftMs, 'address');
    // pair.count > 1: this address already tried this email in the window and did not succeed.
    else if (byEmail.count > this.limits.perEmail && pair.count > 1)
      refusal = refused(byEmail.leftMs, 'email');
    if (!refusal) return { admitted: true, keys };
    // A refused attempt had its password checked by no one: it is not a failure either, so
    // hammering a blocked account neither extends nor deepens the block.
    await this.state.undo(keys);
    return refusal;
  }

  /** The attempt succeeded: it was no failure, so its counts are taken back. */
  async succeeded(admission: Admission): Promise<void> {
    if (admission.admitted) await this.state.undo(admission.keys);
  }
}

/** The 429 of the login throttle, saying when to try again. */
export function tooManyAttempts(waitMs: number): AppError {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return new AppError(
    429,
    `Too many failed sign-in attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}
