import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's baseline: 19 MiB, 2 passes, 1 lane.
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let decoy: Promise<string> | undefined;

/**
 * Checks a password. Without a stored hash it still spends the same time on a decoy, so the
 * answer's timing does not tell whether the email exists.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    decoy ??= hashPassword('decoy password that matches nothing');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}

/** Letters and digits that cannot be mistaken for one another when read aloud or copied by hand. */
const READABLE = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * A temporary password an admin hands over (DESIGN §16): four groups of four readable characters,
 * about 79 bits from the system's random source, e.g. `k7mq-3xtn-9bwe-p2fh`.
 */
export function temporaryPassword(): string {
  const groups = Array.from({ length: 4 }, () =>
    Array.from({ length: 4 }, () => READABLE[randomInt(READABLE.length)]).join(''),
  );
  return groups.join('-');
}
