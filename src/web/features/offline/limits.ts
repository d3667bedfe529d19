/**
 * When the counter stops selling offline (DESIGN §21): once its oldest unsent sale is older than
 * the store's offlineHours (the server would refuse it, and every sale after it soon), or once
 * 500 sales wait to be sent.
 */

export const MAX_WAITING = 500;
const HOUR_MS = 3_600_000;

/** Why selling offline stops: data, put into words by offlineStopSentence. */
export type OfflineStop = { why: 'old'; hours: number; oldest: string } | { why: 'full'; waiting: number };

/**
 * The reason selling offline must stop now, or null while it may go on. `queue`: the waiting
 * sales (their madeAt, ISO 8601); a sale dated after `now` (a clock put back) counts as new.
 */
export function offlineStop(
  queue: readonly { madeAt: string }[],
  now: Date,
  offlineHours: number,
): OfflineStop | null {
  const made = queue.map((sale) => Date.parse(sale.madeAt)).filter((time) => !Number.isNaN(time));
  if (made.length > 0) {
    const oldest = Math.min(...made);
    if (now.getTime() - oldest > offlineHours * HOUR_MS)
      return { why: 'old', hours: offlineHours, oldest: new Date(oldest).toISOString() };
  }
  if (queue.length >= MAX_WAITING) return { why: 'full', waiting: queue.length };
  return null;
}

/** The counter's sentence for a stop. */
export function offlineStopSentence(stop: OfflineStop): string {
  switch (stop.why) {
    case 'old':
      return `Selling offline has stopped: the oldest unsent sale was made more than ${hoursLabel(stop.hours)} ago. Connect to the server to send it.`;
    case 'full':
      return `Selling offline has stopped: ${stop.waiting} sales are waiting to be sent from this device. Connect to the server to send them.`;
  }
}

function hoursLabel(hours: number): string {
  return hours === 1 ? '1 hour' : `${hours} hours`;
}
