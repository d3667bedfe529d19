import { createHash } from 'node:crypto';
import type { OfflineInput } from '../../../shared/sales';
import type { Runner } from '../../db/connection';
import { refuse } from '../../lib/errors';
import type { OfflineSale } from './sell';

/**
 * DESIGN §21: a sale the counter made offline, as it arrives. Its id is kept for ever on the sale
 * it made (sales_offline_id_key): sent again, with the same body and by the same seller, it answers
 * that sale; otherwise it is refused. Its time is judged here, before anything is read for it.
 */

/** How far ahead of the server a device's clock may be. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** The body as it came, hashed: the same id with another body is another sale, refused. */
export function offlineHash(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

/**
 * The sale an offline id already made, for this seller and this body (its id), or undefined when
 * it made none; the id with another body or from another seller is a 409 OFFLINE_ID_TAKEN.
 */
export async function offlineSaleMade(
  run: Runner,
  id: string,
  sellerId: string,
  body: unknown,
): Promise<string | undefined> {
  const [made] = await run.query<{ id: string; user_id: string | null; offline_hash: string }>(
    'select id, user_id, offline_hash from sales where offline_id = $1::uuid',
    [id],
  );
  if (!made) return undefined;
  if (made.user_id !== sellerId) throw refuse('OFFLINE_ID_TAKEN', { why: 'seller' });
  if (made.offline_hash !== offlineHash(body)) throw refuse('OFFLINE_ID_TAKEN', { why: 'body' });
  return made.id;
}

/**
 * An offline sale's facts as the sale records them: sold no later than now (5 minutes of clock
 * skew) and no earlier than the store's offlineHours ago (409 OFFLINE_SOLD_AT: the device keeps it
 * for an admin to see); the prices it may have had are those since that many hours ago.
 */
export async function offlineSale(run: Runner, offline: OfflineInput, body: unknown): Promise<OfflineSale> {
  const [store] = await run.query<{ hours: number; now: Date | string }>(
    'select coalesce((select offline_hours from store_settings), 72) as hours, now() as now',
  );
  const hours = store?.hours ?? 72;
  const now = new Date(store?.now ?? Date.now()).getTime();
  const soldAt = new Date(offline.soldAt);
  if (soldAt.getTime() > now + CLOCK_SKEW_MS) throw refuse('OFFLINE_SOLD_AT', { why: 'future' });
  const since = new Date(now - hours * 3_600_000);
  if (soldAt < since) throw refuse('OFFLINE_SOLD_AT', { why: 'old', hours });
  return {
    id: offline.id,
    soldAt,
    deviceNumber: offline.deviceNumber,
    hash: offlineHash(body),
    pricesSince: since,
  };
}
