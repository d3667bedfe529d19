import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DeviceNumber } from '../../../shared/sales';
import { closeOfflineDatabase } from './database';
import { DEVICE_NUMBER, deviceCode, deviceNumberOf, drawDeviceCode, nextDeviceNumber } from './device';
import { freshDatabase } from './offline-test-data';

beforeEach(freshDatabase);

describe('the device’s receipt numbers', () => {
  it('never hands out a number twice, across reloads and draws at once, each one the server takes', async () => {
    const numbers: string[] = [];
    for (let at = 0; at < 3; at++) numbers.push(await nextDeviceNumber('T1'));
    await closeOfflineDatabase();
    numbers.push(...(await Promise.all(Array.from({ length: 20 }, () => nextDeviceNumber('T1')))));
    await closeOfflineDatabase();
    numbers.push(await nextDeviceNumber('T2'));

    expect(new Set(numbers).size).toBe(24);
    const code = await deviceCode();
    expect(numbers.slice(0, 3)).toEqual([`T1-${code}-000001`, `T1-${code}-000002`, `T1-${code}-000003`]);
    // The counter is the device's, not the register's: the next register goes on from it.
    expect(numbers[23]).toBe(`T2-${code}-000024`);
    for (const number of numbers) {
      expect(number).toMatch(DEVICE_NUMBER);
      expect(DeviceNumber.safeParse(number).success).toBe(true);
    }
  });

  it('never hands out a number twice to two tabs drawing at once (each its own connection)', async () => {
    vi.resetModules();
    const tabA = await import('./device');
    const databaseA = await import('./database');
    vi.resetModules();
    const tabB = await import('./device');
    const databaseB = await import('./database');

    const numbers = await Promise.all(
      Array.from({ length: 30 }, (_, at) => (at % 2 ? tabA : tabB).nextDeviceNumber('T1')),
    );
    await Promise.all([databaseA.closeOfflineDatabase(), databaseB.closeOfflineDatabase()]);

    expect(new Set(numbers).size).toBe(30);
    const counters = numbers.map((number) => Number(number.slice(-6))).sort((a, b) => a - b);
    expect(counters).toEqual(Array.from({ length: 30 }, (_, at) => at + 1));
    // One device, one code, whichever tab drew it first.
    expect(new Set(numbers.map((number) => number.split('-')[1])).size).toBe(1);
  });

  it('draws the device’s code once and keeps it over a reload', async () => {
    const random = vi.fn((count: number) => new Uint8Array(count).fill(1));
    expect(await deviceCode(random)).toBe('BBBB');
    await closeOfflineDatabase();
    expect(await deviceCode(() => new Uint8Array(4).fill(2))).toBe('BBBB');
    expect(await nextDeviceNumber('T1', () => new Uint8Array(4).fill(3))).toBe('T1-BBBB-000001');
    expect(random).toHaveBeenCalledTimes(1);
  });
});

describe('drawDeviceCode', () => {
  it('gives 4 of A–Z0–9, drawing again a byte that would favour some characters', () => {
    const draws = [
      [255, 252, 0, 35],
      [36, 251, 9, 9],
    ];
    const random = vi.fn(() => Uint8Array.from(draws.shift() ?? []));
    // 255 and 252 are drawn again; 0 → A, 35 → 9, 36 → A, 251 → 251 % 36 = 35 → 9.
    expect(drawDeviceCode(random)).toBe('A9A9');
    expect(random).toHaveBeenCalledTimes(2);
    for (let at = 0; at < 50; at++) expect(drawDeviceCode()).toMatch(/^[A-Z0-9]{4}$/);
  });
});

describe('deviceNumberOf', () => {
  it('writes register, device and a counter of at least 6 digits', () => {
    expect(deviceNumberOf('T1', 'K7Q2', 123)).toBe('T1-K7Q2-000123');
    expect(deviceNumberOf('T1', 'K7Q2', 12_345_678)).toBe('T1-K7Q2-12345678');
  });

  it('keeps within 1–40 visible ASCII characters whatever the register is called', () => {
    const long = deviceNumberOf('Front counter by the door '.repeat(3), 'K7Q2', 5);
    expect(long).toMatch(DEVICE_NUMBER);
    expect(long).toHaveLength(40);
    expect(long.endsWith('-K7Q2-000005')).toBe(true);
    expect(deviceNumberOf('Caisse é 2', 'K7Q2', 5)).toBe('Caisse2-K7Q2-000005');
    expect(deviceNumberOf(' \t', 'K7Q2', 5)).toBe('R-K7Q2-000005');
    expect(deviceNumberOf('T1', 'K7Q2', Number.MAX_SAFE_INTEGER)).toMatch(DEVICE_NUMBER);
  });
});
