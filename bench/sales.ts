import type { Database } from '../src/server/db/connection';
import { HOT_STOCK, productsAt, setStock } from './orders-check';

/** Lines of each sale of the steady run, and of each sale of the flat-out run. */
export const STEADY_SALE_LINES = 10;
export const FLAT_OUT_SALE_LINES = 3;

/**
 * Products for the steady run of 10-line sales: `count` from `offset` (by id) with a stock that
 * cannot run out, so every sale is accepted and the figure is the cost of a whole sale.
 */
export async function prepareSaleProducts(
  database: Database,
  offset: number,
  count: number,
): Promise<string[]> {
  const ids = await productsAt(database, offset, count);
  await setStock(database, ids, HOT_STOCK);
  return ids;
}

/** `count` barcodes of products spread over the catalogue, as a scanner would type them. */
export async function sampleBarcodes(database: Database, count: number): Promise<string[]> {
  const rows = await database.query<{ barcode: string }>(
    'select barcode from products where barcode is not null order by md5(id::text) limit $1',
    [count],
  );
  return rows.map((row) => row.barcode);
}

/**
 * A sale body of `lines` distinct products of `ids`, 1 to 3 of each, paid by card or cash. With
 * `discounted`, every line gives a percent discount and the sale one over its subtotal (DESIGN
 * §12), together within the store's default limit (10 %), so a sales rep sells it without an
 * approval and the figure is the cost of the priced path: 5 % + 3 % of the rest = 7.85 %.
 */
export function saleBody(
  ids: readonly string[],
  lines: number,
  discounted = false,
  /** The till session the sale is made in (DESIGN §13), when it has one. */
  session?: string,
): string {
  const chosen = new Set<string>();
  while (chosen.size < Math.min(lines, ids.length))
    chosen.add(ids[Math.floor(Math.random() * ids.length)] as string);
  return JSON.stringify({
    lines: [...chosen].map((productId) => ({
      productId,
      quantity: 1 + Math.floor(Math.random() * 3),
      ...(discounted ? { discount: { type: 'percent', value: 5 } } : {}),
    })),
    ...(discounted ? { discount: { type: 'percent', value: 3 } } : {}),
    payment: { method: Math.random() < 0.5 ? 'card' : 'cash' },
    ...(session === undefined ? {} : { session }),
  });
}

export interface SalesCheck {
  /** Sales of the flat-out run (those of its products). */
  sales: number;
  /** Of those, sales whose orders are not exactly `lines` lines, numbered 1…lines. */
  partial: number;
  /** Over every sale since `since`: receipt numbers given twice. */
  duplicateNumbers: number;
}

/**
 * Every sale of the flat-out run (made since `since` with the run's products) is whole: all its
 * lines are orders. And every sale since `since`, of any run, has its own receipt number. The stock side is checkStock's (orders-check.ts).
 */
export async function checkSales(
  database: Database,
  since: string,
  runProducts: readonly string[],
  lines: number,
): Promise<SalesCheck> {
  const [row] = await database.query<{ sales: number; partial: number; duplicates: number }>(
    `with since as (
       select s.id, s.number,
              exists (select 1 from orders o where o.sale_id = s.id and o.product_id = any($3::uuid[])) as flat_out,
              (select count(*) from orders o where o.sale_id = s.id) as n,
              (select coalesce(max(o.sale_line), 0) from orders o where o.sale_id = s.id) as last_line
       from sales s where s.created_at >= $1::timestamptz
     )
     select count(*) filter (where flat_out)::int as sales,
            count(*) filter (where flat_out and (n <> $2::int or last_line <> $2::int))::int as partial,
            (count(*) - count(distinct number))::int as duplicates
     from since`,
    [since, lines, [...runProducts]],
  );
  return {
    sales: row?.sales ?? 0,
    partial: row?.partial ?? 0,
    duplicateNumbers: row?.duplicates ?? 0,
  };
}
