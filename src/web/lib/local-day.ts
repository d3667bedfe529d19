/**
 * Today on this device's calendar (YYYY-MM-DD), for judging a lot's expiry on screen. The server
 * judges by the store's time zone; the two agree but for a store run from another zone.
 */
export function localDay(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
