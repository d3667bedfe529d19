import { addressKey } from './client-address';
import { type AppError, refuse } from './errors';
import type { SharedState } from './shared-state';

/** Sign-in attempts allowed in one window (DESIGN §7). */
export interface LoginLimits {
  /** Failures for one email from one address. */
  perPair: number;
  /** Failures for one email from all addresses: stops guessing spread over many addresses. */
  perEmail: number;
  /** Failures from one address over all emails: far above what a shop makes. */
  perAddress: number;
  /** Failures from one known device of the account (its `ims_device` cookie). */
  perDevice: number;
  /** Failed profile changes (wrong current password, email in use) of one signed-in user. */
  perUser: number;
  windowMs: number;
}

export const LOGIN_LIMITS: LoginLimits = {
  perPair: 5,
  perEmail: 50,
  perAddress: 100,
  perDevice: 5,
  perUser: 5,
  windowMs: 15 * 60_000,
};

/** The limits as the API reference states them, so its text cannot drift from the numbers. */
export function limitsText(limits: LoginLimits = LOGIN_LIMITS): string {
  const minutes = limits.windowMs / 60_000;
  return `${limits.perPair} failures per email and address, ${limits.perEmail} per email from all addresses, ${limits.perAddress} per address in ${minutes} minutes`;
}

type Reason = 'pair' | 'email' | 'address' | 'device' | 'user';

export type Admission =
  | { admitted: true; keys: readonly string[] }
  | {
      admitted: false;
      waitMs: number;
      reason: Reason;
      /** The first refusal by this counter in its window: the one the audit log records. */
      firstInWindow: boolean;
    };

export interface Attempt {
  /** The normalised email tried. */
  email: string;
  /** The client address (before addressKey). */
  address: string;
  /** The device id of a valid `ims_device` cookie for this email, when the request carried one. */
  device?: string;
  /** A signed-in user proposing a change (profile): their own counter, whatever the address. */
  userId?: string;
}

/**
 * The login throttle. Every attempt is counted *before* its password is checked, so a burst of
 * parallel attempts gets at most the limit checked: the counters are what admits, not the
 * outcome of attempts still running. A success, or an attempt refused unchecked, takes its count back.
 *
 * Past the per-email limit every address is refused for that email, so a guesser spread over any
 * number of addresses gets at most that many checks per account and window. The owner is not
 * locked out: a browser that signed in before carries a device cookie for the account (known
 * devices, DESIGN §7), and its attempts are counted only against that device's own limit, which no
 * stranger can spend.
 */
export class LoginThrottle {
  private readonly limits: LoginLimits;

  constructor(
    private readonly state: SharedState,
    limits: Partial<LoginLimits> = {},
  ) {
    this.limits = { ...LOGIN_LIMITS, ...limits };
  }

  async admit(attempt: Attempt): Promise<Admission> {
    const counted = this.counters(attempt);
    const keys = counted.map(([key]) => key);
    const hits = await this.state.hit(keys, this.limits.windowMs);
    const over = counted.findIndex(([, limit], i) => (hits[i]?.count ?? Number.POSITIVE_INFINITY) > limit);
    if (over < 0) return { admitted: true, keys };
    // A refused attempt had its password checked by no one: it is not a failure either, so
    // hammering a blocked account neither extends nor deepens the block.
    await this.state.undo(keys);
    const [key, , reason] = counted[over] as [string, number, Reason];
    const waitMs = hits[over]?.leftMs ?? this.limits.windowMs;
    // One marker per refusing counter and window, so the log gets one entry however often it refuses.
    const [marker] = await this.state.hit([`refused:${key}`], Math.max(1, waitMs));
    return { admitted: false, waitMs, reason, firstInWindow: marker?.count === 1 };
  }

  /** The attempt succeeded: it was no failure, so its counts are taken back. */
  async succeeded(admission: Admission): Promise<void> {
    if (admission.admitted) await this.state.undo(admission.keys);
  }

  /** The counters an attempt is counted against, in the order their refusal is reported. */
  private counters(attempt: Attempt): Array<[string, number, Reason]> {
    const { email, device, userId } = attempt;
    // The account's own browser: only its own limit, so strangers cannot spend it.
    if (device) return [[`login:device:${device}`, this.limits.perDevice, 'device']];
    const from = addressKey(attempt.address);
    return [
      [`login:pair:${from}:${email}`, this.limits.perPair, 'pair'],
      [`login:address:${from}`, this.limits.perAddress, 'address'],
      [`login:email:${email}`, this.limits.perEmail, 'email'],
      ...(userId ? [[`change:user:${userId}`, this.limits.perUser, 'user'] as [string, number, Reason]] : []),
    ];
  }
}

/** When to try again, as a 429's sentence ends: "try again in 15 minutes". */
export function tryAgainIn(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `try again in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The 429 of the login throttle, saying when to try again. */
export function tooManyAttempts(waitMs: number): AppError {
  return refuse('TOO_MANY_ATTEMPTS', { wait: tryAgainIn(waitMs) });
}

/** How many tries of one kind one key gets in a window. */
export interface AllowanceLimit {
  limit: number;
  windowMs: number;
}

/**
 * The tries that are not sign-ins, each kind with a key space of its own, so none of them ever
 * spends a sign-in allowance: a manager's approval PINs, counted per approver (DESIGN §12), and
 * the receipts a user looks up by number (DESIGN §13).
 */
export const ALLOWANCES = {
  approvalPins: { limit: 5, windowMs: 15 * 60_000 },
  receiptLookups: { limit: 60, windowMs: 60 * 60_000 },
} satisfies Record<string, AllowanceLimit>;

export type AllowanceTake = { admitted: true; key: string } | { admitted: false; waitMs: number };

/**
 * A count of tries per key in a window, in the shared state (Redis with REDIS_URL, so it holds on
 * every instance). As with sign-ins, a try is counted before it is judged, so a burst at once
 * gets at most the limit judged; a try refused unjudged takes its count back, and so may a try
 * that turned out good (a right PIN).
 */
export class Allowance {
  constructor(
    private readonly state: SharedState,
    private readonly space: string,
    private readonly allowed: AllowanceLimit,
  ) {}

  async take(id: string): Promise<AllowanceTake> {
    const key = `${this.space}:${id}`;
    const [hit] = await this.state.hit([key], this.allowed.windowMs);
    if ((hit?.count ?? Number.POSITIVE_INFINITY) <= this.allowed.limit) return { admitted: true, key };
    await this.state.undo([key]);
    return { admitted: false, waitMs: hit?.leftMs ?? this.allowed.windowMs };
  }

  /** The try was no failure: its count is taken back. */
  async giveBack(taken: AllowanceTake): Promise<void> {
    if (taken.admitted) await this.state.undo([taken.key]);
  }
}

/** Every allowance of the app, on one shared state. */
export type Allowances = { approvalPins: Allowance; receiptLookups: Allowance };

export function allowancesOn(state: SharedState): Allowances {
  return {
    approvalPins: new Allowance(state, 'pin:approver', ALLOWANCES.approvalPins),
    receiptLookups: new Allowance(state, 'lookup:receipts', ALLOWANCES.receiptLookups),
  };
}
