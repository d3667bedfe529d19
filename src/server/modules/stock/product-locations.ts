import { and, eq, inArray } from 'drizzle-orm';
import type { LocationStockLine } from '../../../shared/locations';
import type { Db, Runner } from '../../db/connection';
import { locationStock } from '../../db/schema';
import type { LocationRef } from '../locations/location-for';

/**
 * A product's stock by location (DESIGN §17): GET /api/products/:id/stock, the reorder points a
 * location sets for it, and the stock at one location that `GET /api/products?location=` answers.
 */

type LineRow = {
  location_id: string;
  location_name: string;
  stock: number;
  reorder_point: number | null;
  reorder_quantity: number | null;
  lots: LocationStockLine['lots'] | string | null;
};

/**
 * The product's name, its units in transit (sent on an open transfer and not yet received, lost
 * or returned: Σ sent − received − lost − returned over its lines) and one line per active
 * location, and per inactive one still holding stock, by name: its stock there, its own reorder
 * point and quantity (null: the product's), and for a lot-tracked product its lots there with
 * units, soonest expiry first. Undefined when there is no such product. One statement.
 */
export async function productLocations(
  run: Pick<Runner, 'query'>,
  productId: string,
): Promise<
  { product: { _id: string; name: string }; inTransit: number; locations: LocationStockLine[] } | undefined
> {
  const [product] = await run.query<{ id: string; name: string; tracking: string; in_transit: number }>(
    `select p.id, p.name, p.tracking,
            coalesce((select sum(tl.sent - tl.received - tl.lost - tl.returned)
                      from transfer_lines tl join transfers t on t.id = tl.transfer_id
                      where tl.product_id = p.id and t.status in ('inTransit', 'partiallyReceived')), 0)::int
              as in_transit
     from products p where p.id = $1::uuid`,
    [productId],
  );
  if (!product) return undefined;
  const tracked = product.tracking === 'lot';
  const rows = await run.query<LineRow>(
    `select l.id as location_id, l.name as location_name, coalesce(ls.stock, 0) as stock,
            ls.reorder_point, ls.reorder_quantity,
            ${
              tracked
                ? `(select coalesce(json_agg(json_build_object('_id', lo.id, 'number', lo.number,
                      'expiresOn', lo.expires_on::text, 'quantity', s.quantity)
                      order by lo.expires_on asc nulls last, lo.created_at, lo.id), '[]'::json)
                    from lot_stock s join lots lo on lo.id = s.lot_id
                    where s.product_id = $1::uuid and s.location_id = l.id and s.quantity > 0)`
                : 'null'
            } as lots
     from locations l
     left join location_stock ls on ls.location_id = l.id and ls.product_id = $1::uuid
     where l.active or coalesce(ls.stock, 0) > 0
     order by lower(l.name), l.id`,
    [productId],
  );
  return {
    product: { _id: product.id, name: product.name },
    inTransit: product.in_transit,
    locations: rows.map((row) => ({
      location: { _id: row.location_id, name: row.location_name },
      stock: row.stock,
      reorderPoint: row.reorder_point,
      reorderQuantity: row.reorder_quantity,
      ...(tracked && {
        lots: typeof row.lots === 'string' ? JSON.parse(row.lots) : (row.lots ?? []),
      }),
    })),
  };
}

/**
 * Sets a location's own reorder point and quantity for a product (null: the product's own),
 * creating its location_stock row (stock 0) when it has none; the stock is never touched.
 * Answers the values before, for the audit entry.
 */
export async function setLocationReorder(
  run: Pick<Runner, 'query'>,
  productId: string,
  location: LocationRef,
  values: { reorderPoint: number | null; reorderQuantity: number | null },
): Promise<{ reorderPoint: number | null; reorderQuantity: number | null }> {
  const [before] = await run.query<{ reorder_point: number | null; reorder_quantity: number | null }>(
    `select reorder_point, reorder_quantity from location_stock
     where product_id = $1::uuid and location_id = $2::uuid for update`,
    [productId, location.id],
  );
  await run.query(
    `insert into location_stock (product_id, location_id, reorder_point, reorder_quantity)
     values ($1::uuid, $2::uuid, $3::int, $4::int)
     on conflict (product_id, location_id)
     do update set reorder_point = excluded.reorder_point, reorder_quantity = excluded.reorder_quantity`,
    [productId, location.id, values.reorderPoint, values.reorderQuantity],
  );
  return { reorderPoint: before?.reorder_point ?? null, reorderQuantity: before?.reorder_quantity ?? null };
}

/**
 * Each product's stock at one location (0 where none moved there), by product id: one statement
 * for a page or a batch (location_stock's primary key), so a list asked `?location=` reads its
 * products as it always does and only then their stock there.
 */
export async function stocksAt(
  db: Db,
  locationId: string,
  productIds: readonly string[],
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (productIds.length === 0) return found;
  const rows = await db
    .select({ productId: locationStock.productId, stock: locationStock.stock })
    .from(locationStock)
    .where(and(eq(locationStock.locationId, locationId), inArray(locationStock.productId, [...productIds])));
  for (const row of rows) found.set(row.productId, row.stock);
  return found;
}

/** A product as `?location=` answers it (DESIGN §17): its stock at the location, its whole stock as stockTotal. */
export function atLocation<P extends { _id: string; stock: number }>(
  product: P,
  stocks: Map<string, number>,
): P & { stockTotal: number } {
  return { ...product, stock: stocks.get(product._id) ?? 0, stockTotal: product.stock };
}
