/**
 * Times as the exports write them (ISO 8601 with the server zone's offset, to the second:
 * "2026-11-25T15:04:05+01:00"), so a spreadsheet shows the store's clock and still knows the
 * moment. `timeZone` is the server's (config TZ), the zone of the reports.
 */
export type ZonedClock = (at: Date | number) => string;

/** Offsets change at most on a quarter hour: one look-up per quarter hour an export meets. */
const QUARTER_HOUR = 15 * 60 * 1000;
const MAX_REMEMBERED = 10_000;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** A clock for `timeZone` that remembers the offsets it looked up (an export has a million rows). */
export function zonedClock(timeZone: string): ZonedClock {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const offsets = new Map<number, number>();
  /** Minutes the zone's clock is ahead of UTC at the quarter hour `quarter`. */
  const offsetAt = (quarter: number): number => {
    let offset = offsets.get(quarter);
    if (offset === undefined) {
      const at = quarter * QUARTER_HOUR;
      const field: Record<string, number> = {};
      for (const part of parts.formatToParts(at)) field[part.type] = Number(part.value);
      const wall = Date.UTC(
        field.year ?? 1970,
        (field.month ?? 1) - 1,
        field.day ?? 1,
        field.hour ?? 0,
        field.minute ?? 0,
        field.second ?? 0,
      );
      offset = Math.round((wall - at) / 60_000);
      if (offsets.size >= MAX_REMEMBERED) offsets.clear();
      offsets.set(quarter, offset);
    }
    return offset;
  };
  return (at) => {
    const ms = typeof at === 'number' ? at : at.getTime();
    const offset = offsetAt(Math.floor(ms / QUARTER_HOUR));
    const wall = new Date(ms + offset * 60_000);
    const sign = offset < 0 ? '-' : '+';
    const away = Math.abs(offset);
    return (
      `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}` +
      `T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}` +
      `${sign}${pad(Math.floor(away / 60))}:${pad(away % 60)}`
    );
  };
}
