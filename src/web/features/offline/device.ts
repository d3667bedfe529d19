import { offlineDatabase } from './database';

/**
 * The device's receipt numbers for sales made offline (DESIGN §21): `<register>-<device>-000123`.
 * The device code is drawn once and kept; the counter is stored before a number is handed out, in
 * one IndexedDB transaction (two tabs drawing at once are taken one after the other), so a number
 * is never handed out twice, not even after a crash or a reload.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const DEVICE_CODE_LENGTH = 4;
/** The counter's digits at least (000123); a larger counter takes more. */
const COUNTER_DIGITS = 6;
/** What the server takes as a device number (DeviceNumber in src/shared/sales.ts). */
export const DEVICE_NUMBER = /^[\x21-\x7e]{1,40}$/;
/** The register part when the register's code has no visible ASCII character. */
const NO_REGISTER = 'R';

/** Random bytes, 0–255 each. */
export type RandomBytes = (count: number) => Uint8Array;
const cryptoBytes: RandomBytes = (count) => crypto.getRandomValues(new Uint8Array(count));

/** A new device code: DEVICE_CODE_LENGTH characters A–Z0–9, each equally likely. */
export function drawDeviceCode(random: RandomBytes = cryptoBytes): string {
  let code = '';
  // 252 is the largest multiple of 36 below 256: bytes above it are drawn again, so no bias.
  while (code.length < DEVICE_CODE_LENGTH) {
    for (const byte of random(DEVICE_CODE_LENGTH)) {
      if (byte < 252 && code.length < DEVICE_CODE_LENGTH) code += ALPHABET[byte % ALPHABET.length];
    }
  }
  return code;
}

/**
 * The receipt number of the device's `counter`th sale at a register: the register's code without
 * what is not visible ASCII, shortened so the whole fits 40 characters.
 */
export function deviceNumberOf(registerCode: string, deviceCode: string, counter: number): string {
  const digits = String(counter).padStart(COUNTER_DIGITS, '0');
  const room = 40 - deviceCode.length - digits.length - 2;
  const register = registerCode.replace(/[^\x21-\x7e]/g, '').slice(0, Math.max(room, 1)) || NO_REGISTER;
  return `${register}-${deviceCode}-${digits}`;
}

/** The device's code, drawn and kept on first use. */
export async function deviceCode(random: RandomBytes = cryptoBytes): Promise<string> {
  const database = await offlineDatabase();
  const transaction = database.transaction('device', 'readwrite');
  const kept = await transaction.store.get('code');
  if (typeof kept === 'string') {
    await transaction.done;
    return kept;
  }
  const code = drawDeviceCode(random);
  await transaction.store.put(code, 'code');
  await transaction.done;
  return code;
}

/**
 * The next receipt number of this device at a register (`T1-K7Q2-000123`). The counter is raised
 * and stored first, the number used after: a number handed out is never handed out again.
 */
export async function nextDeviceNumber(
  registerCode: string,
  random: RandomBytes = cryptoBytes,
): Promise<string> {
  const database = await offlineDatabase();
  const transaction = database.transaction('device', 'readwrite');
  let code = await transaction.store.get('code');
  if (typeof code !== 'string') {
    code = drawDeviceCode(random);
    await transaction.store.put(code, 'code');
  }
  const last = await transaction.store.get('counter');
  const counter = (typeof last === 'number' ? last : 0) + 1;
  await transaction.store.put(counter, 'counter');
  await transaction.done;
  return deviceNumberOf(registerCode, code, counter);
}
