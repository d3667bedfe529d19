import type { ReviewItem, ReviewReason } from '../../../shared/sales';
import { saleNumberLabel } from '../../../shared/sales';
import { type Runner, runnerOf, type Tx } from '../../db/connection';
import { isId, notFound, refuse } from '../../lib/errors';
import type { Actor } from '../audit/audit.repository';

/** DESIGN §21: the offline sales an admin should look at (a stock, price or session case), and closing one. */

type ReviewRow = {
  id: string;
  number: string | number;
  device_number: string;
  created_at: Date | string;
  recorded_at: Date | string;
  user_id: string | null;
  user_name: string;
  total: string;
  review: ReviewReason[];
  review_note: string | null;
  reviewed_by_id: string | null;
  reviewed_by_name: string | null;
  reviewed_at: Date | string | null;
};

const REVIEW_SELECT = `select s.id, s.number, s.device_number, s.created_at, s.recorded_at, s.user_id, s.user_name,
       s.total::text as total, s.review, s.review_note, s.reviewed_by_id, s.reviewed_by_name, s.reviewed_at
  from sales s`;

function toReview(row: ReviewRow): ReviewItem {
  return {
    sale: { _id: row.id, number: Number(row.number) },
    deviceNumber: row.device_number,
    soldAt: new Date(row.created_at).toISOString(),
    recordedAt: new Date(row.recorded_at).toISOString(),
    seller: { _id: row.user_id, name: row.user_name },
    total: Number(row.total),
    review: row.review,
    ...(row.review_note !== null ? { note: row.review_note } : {}),
    ...(row.reviewed_at !== null
      ? {
          reviewedBy: { _id: row.reviewed_by_id, name: row.reviewed_by_name ?? '' },
          reviewedAt: new Date(row.reviewed_at).toISOString(),
        }
      : {}),
  };
}

/** A page of the sales to review (open: not reviewed yet, the default; closed: reviewed), newest sold first. */
export async function reviewPage(
  run: Runner,
  status: 'open' | 'closed',
  window: { offset: number; limit: number },
): Promise<{ sales: ReviewItem[]; total: number }> {
  const where = `s.review is not null and (s.reviewed_at is null) = $1::boolean`;
  const rows = await run.query<ReviewRow>(
    `${REVIEW_SELECT} where ${where} order by s.created_at desc, s.id desc limit $2 offset $3`,
    [status === 'open', window.limit, window.offset],
  );
  const [count] = await run.query<{ n: number }>(`select count(*)::int as n from sales s where ${where}`, [
    status === 'open',
  ]);
  return { sales: rows.map(toReview), total: count?.n ?? 0 };
}

/** Closes a sale's open review with what was done (409 REVIEW_CLOSED when it has none open). */
export async function closeReview(tx: Tx, id: string, note: string, actor: Actor): Promise<ReviewItem> {
  const run = runnerOf(tx);
  const [sale] = isId(id)
    ? await run.query<{ number: number; open: boolean }>(
        'select number, review is not null and reviewed_at is null as open from sales where id = $1::uuid for update',
        [id],
      )
    : [];
  if (!sale) throw notFound('Sale');
  if (!sale.open) throw refuse('REVIEW_CLOSED', { sale: saleNumberLabel(Number(sale.number)) });
  const [row] = await run.query<ReviewRow>(
    `update sales s set review_note = $2, reviewed_by_id = $3::uuid, reviewed_by_name = $4, reviewed_at = now()
      where s.id = $1::uuid
      returning s.id, s.number, s.device_number, s.created_at, s.recorded_at, s.user_id, s.user_name,
                s.total::text as total, s.review, s.review_note, s.reviewed_by_id, s.reviewed_by_name, s.reviewed_at`,
    [id, note.trim(), actor.id, actor.name],
  );
  return toReview(row as ReviewRow);
}
