import type { Database } from '../src/server/db/connection';
import { productsAt } from './orders-check';

/** Lines of each purchase order the benchmark receives (the figure). */
export const RECEIVE_LINES = 50;

export interface PurchasingSet {
  /** Ordered purchase orders to receive, each with its line ids. */
  toReceive: Array<{ id: string; lines: Array<{ line: string; quantity: number }> }>;
  /** Open lines on order while the suggestions are measured (before the receipts). */
  openLines: number;
}

/**
 * Purchase orders as a busy store has them: `open` ordered ones that stay open (their quantities
 * are "on order" for the suggestions) and `toReceive` ordered ones of RECEIVE_LINES lines that the
 * benchmark receives in full, one request each. Their products come from past the ones the order
 * and adjustment runs use (offset 1,000 on, unless another is given: the bills' own orders,
 * bench/bills.ts), so receipts change no stock those runs check.
 */
export async function preparePurchaseOrders(
  database: Database,
  counts: { open: number; toReceive: number },
  offset = 1000,
): Promise<PurchasingSet> {
  const orders = counts.open + counts.toReceive;
  const productIds = await productsAt(database, offset, orders * RECEIVE_LINES);
  const rows = await database.query<{ id: string; position: number; line: string; quantity: number }>(
    `with made as (
       insert into purchase_orders (supplier_id, status, ordered_at, created_at)
       select p.supplier_id, 'ordered', now() - interval '2 days', now() - interval '3 days' - g * interval '1 second'
       from generate_series(0, $2::int - 1) g
       join products p on p.id = ($1::uuid[])[g * ${RECEIVE_LINES} + 1]
       returning id, number
     ), numbered as (select id, row_number() over (order by number) - 1 as n from made),
     lines as (
       insert into purchase_order_lines (purchase_order_id, position, product_id, quantity, unit_cost)
       select o.id, l, ($1::uuid[])[o.n * ${RECEIVE_LINES} + l + 1], 12 + (l % 5) * 12, round((1 + (l % 40)) * 0.55, 2)
       from numbered o cross join generate_series(0, ${RECEIVE_LINES} - 1) l
       returning purchase_order_id, id, position, quantity
     )
     select o.n::int as position, l.purchase_order_id as id, l.id as line, l.quantity
     from lines l join numbered o on o.id = l.purchase_order_id
     order by o.n, l.position`,
    [productIds, orders],
  );
  const byOrder = new Map<string, { n: number; lines: Array<{ line: string; quantity: number }> }>();
  for (const row of rows) {
    const entry = byOrder.get(row.id) ?? { n: row.position, lines: [] };
    entry.lines.push({ line: row.line, quantity: row.quantity });
    byOrder.set(row.id, entry);
  }
  const sorted = [...byOrder.entries()].sort((a, b) => a[1].n - b[1].n);
  return {
    toReceive: sorted.slice(0, counts.toReceive).map(([id, entry]) => ({ id, lines: entry.lines })),
    openLines: orders * RECEIVE_LINES,
  };
}

/** Receives each purchase order in full, one request after another; each request's time. */
export async function receiveAll(
  url: string,
  headers: Record<string, string>,
  set: PurchasingSet,
): Promise<{ ms: number[]; failures: string[] }> {
  const ms: number[] = [];
  const failures: string[] = [];
  for (const order of set.toReceive) {
    const started = performance.now();
    const res = await fetch(`${url}/api/purchase-orders/${order.id}/receive`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ lines: order.lines }),
    });
    const text = await res.text();
    ms.push(performance.now() - started);
    if (res.status !== 200) failures.push(`${res.status} ${text.slice(0, 120)}`);
  }
  return { ms, failures };
}
