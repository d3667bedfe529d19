import { eq, sql } from 'drizzle-orm';
import type { LotRef, Tracking } from '../../../shared/lots';
import { type Db, type Runner, runnerOf } from '../../db/connection';
import { categories, products, suppliers, taxRates } from '../../db/schema';
import { badRequest, conflict, inUse, refuseWith } from '../../lib/errors';
import {
  type Actor,
  changedFields,
  createdFields,
  deletedFields,
  recordAudit,
  type Tx,
} from '../audit/audit.repository';
import { lotForAdding } from '../lots/lots.repository';
import { firstPurchaseOrderWith } from '../purchasing/purchasing.repository';
import { recordMovements } from '../stock/movements';
import { revalueStock } from '../stock/revalue';

/**
 * The writes of a product (DESIGN §8, §15): adding, changing and deleting one, each in one
 * transaction with its audit entry; its stock moves only by movements (movements.ts).
 */

/**
 * cost, reorderPoint, reorderQuantity, sku, barcode and taxRateId: null for none (taxRateId: the
 * store's default), undefined to leave as they are.
 */
export type ProductValues = {
  name: string;
  description: string;
  price: number;
  stock: number;
  categoryId: string;
  supplierId: string;
  cost?: number | null;
  reorderPoint?: number | null;
  reorderQuantity?: number | null;
  sku?: string | null;
  barcode?: string | null;
  taxRateId?: string | null;
  /** DESIGN §15; undefined: a new product is 'none', an edit keeps it. */
  tracking?: Tracking;
  /** DESIGN §22; undefined: a new product has none (is active), an edit keeps it. */
  brand?: string | null;
  active?: boolean;
  /** DESIGN §22: a variant's item and its values (written by the items module only, at creation). */
  itemId?: string;
  optionValues?: Record<string, string>;
};

/** The columns of ProductValues that are not stock (stock moves only through the ledger). */
function columnValues(values: Omit<ProductValues, 'stock'>) {
  const { cost, ...rest } = values;
  return {
    ...rest,
    price: values.price.toFixed(2),
    ...(cost !== undefined && { cost: cost?.toFixed(2) ?? null }),
  };
}

/**
 * A product as its audit entries show it: money as its exact text, category and supplier by
 * name, its own tax rate by name. `lock` holds the row until the transaction ends, so the values compared are the ones
 * changed.
 */
async function auditedProduct(tx: Tx, id: string, lock = false) {
  const query = tx
    .select({
      name: products.name,
      description: products.description,
      price: products.price,
      stock: products.stock,
      cost: products.cost,
      reorderPoint: products.reorderPoint,
      reorderQuantity: products.reorderQuantity,
      sku: products.sku,
      barcode: products.barcode,
      category: categories.name,
      supplier: suppliers.name,
      /** The product's own rate by name; null: the store's default. */
      taxRate: taxRates.name,
      /** 'lot' for a lot-tracked product, null (left out of a creation's entry) for none. */
      tracking: sql<string | null>`nullif(${products.tracking}, 'none')`,
      brand: products.brand,
      /** 'inactive' for an inactive product, null (left out of a creation's entry) for an active one. */
      active: sql<string | null>`case when ${products.active} then null else 'inactive' end`,
    })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(suppliers, eq(suppliers.id, products.supplierId))
    .leftJoin(taxRates, eq(taxRates.id, products.taxRateId))
    .where(eq(products.id, id));
  const [row] = lock ? await query.for('update', { of: products }) : await query;
  return row;
}

/** DESIGN §22: a variant's name is its item's name and its values (variantName), never typed. */
export const VARIANT_NAME_FROM_ITEM = "A variant's name comes from its item: rename the item or its values.";

const LOT_NOT_TRACKED = 'Name a lot only for a product tracked by lot.';

/** A lot-tracked product's stock moves through its lots, never through the product form. */
const STOCK_THROUGH_LOTS = "Change a lot-tracked product's stock through its lots.";

/**
 * Adds a product. Its stock arrives by its opening movement, which names who created it and, for a
 * lot-tracked product (DESIGN §15), the lot it goes into (a new number with its expiry, created
 * here). The product is written untracked and then marked tracked, so that the opening movement
 * of one created without stock, which names no lot, is applied as any other.
 */
export async function insertProduct(
  db: Db,
  values: ProductValues,
  actor: Actor,
  lot?: LotRef,
): Promise<string> {
  const tracked = values.tracking === 'lot';
  if (lot !== undefined && !tracked) throw badRequest(LOT_NOT_TRACKED);
  if (tracked && values.stock > 0 && lot === undefined)
    throw badRequest('Name the lot the opening stock goes into.');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(products)
      .values({ ...columnValues(values), stock: 0, tracking: 'none' })
      .returning({ id: products.id });
    const id = (row as { id: string }).id;
    const opening = lot === undefined ? undefined : await lotForAdding(runnerOf(tx), id, lot);
    await recordMovements(runnerOf(tx), [
      { productId: id, kind: 'initial', quantity: values.stock, actor, lotId: opening?._id ?? null },
    ]);
    if (tracked) await tx.update(products).set({ tracking: 'lot' }).where(eq(products.id, id));
    const created = await auditedProduct(tx, id);
    if (!created) throw new Error('a product just inserted is missing');
    await recordAudit(tx, {
      actor,
      action: 'created',
      entity: { type: 'product', id, name: created.name },
      changes: [...createdFields(created), ...(opening ? [{ field: 'lot', new: opening.number }] : [])],
    });
    return id;
  });
}

/**
 * What an edit does to the stock (DESIGN §8): the stock to count to, or undefined to leave it.
 * With the stock the form showed (`expected`), a form whose stock was not changed leaves the
 * stock alone, however many sales happened meanwhile; a changed one is refused when the stock
 * moved meanwhile, so no sale's units come back through an edit.
 */
export function stockFromEdit(
  current: number,
  sent: number,
  expected: number | undefined,
): number | undefined {
  if (expected === undefined) return sent === current ? undefined : sent;
  if (sent === expected) return undefined;
  if (current !== expected)
    throw refuseWith('STOCK_CHANGED', { stock: current }, { from: expected, to: current });
  return sent;
}

const TRACKING_ON = 'Lot tracking turned on';

/**
 * DESIGN §19: a product deleted with units in stock takes them out first, by one `adjustment` per
 * location (per lot, for a lot-tracked product) through the ledger, so their value leaves the
 * inventory account by an entry (5150 inventory adjustments) instead of vanishing with the row.
 */
async function writeOffBeforeDeleting(run: Runner, id: string, actor: Actor): Promise<void> {
  const held = await run.query<{ location_id: string; lot_id: string | null; quantity: number }>(
    `select s.location_id, null::uuid as lot_id, s.stock as quantity
       from location_stock s join products p on p.id = s.product_id
      where s.product_id = $1::uuid and s.stock > 0 and p.tracking = 'none'
     union all
     select l.location_id, l.lot_id, l.quantity from lot_stock l join products p on p.id = l.product_id
      where l.product_id = $1::uuid and l.quantity > 0 and p.tracking <> 'none'
     order by 1, 2`,
    [id],
  );
  await recordMovements(
    run,
    held.map((row) => ({
      productId: id,
      kind: 'adjustment' as const,
      quantity: -row.quantity,
      reason: 'correction' as const,
      note: 'Written off: the product was deleted',
      actor,
      locationId: row.location_id,
      lotId: row.lot_id,
    })),
  );
}

/**
 * Changes a product; the entry holds each changed field, old → new. A new stock is a `count`
 * movement (stockFromEdit decides whether there is one). Lots (DESIGN §15): a lot-tracked
 * product's stock is not changed here (409); turning tracking off needs every lot empty (409);
 * turning it on moves the units there are into the lot named (400 without one when there are
 * any): a count out while the product is untracked, then one in naming the lot, so that the lot
 * is the sum of its movements and the product the sum of its lots and of its movements.
 */
export async function updateProduct(
  db: Db,
  id: string,
  values: ProductValues & { expectedStock?: number; lot?: LotRef },
  actor: Actor,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const before = await auditedProduct(tx, id, true);
    if (!before) return false;
    const { stock, expectedStock, lot, ...rest } = values;
    if (rest.name !== before.name) {
      const [variant] = await runnerOf(tx).query(
        'select 1 from products where id = $1::uuid and item_id is not null',
        [id],
      );
      if (variant) throw badRequest(VARIANT_NAME_FROM_ITEM);
    }
    const wasTracked = before.tracking === 'lot';
    const tracked = rest.tracking === undefined ? wasTracked : rest.tracking === 'lot';
    if (lot !== undefined && !tracked) throw badRequest(LOT_NOT_TRACKED);
    if (lot !== undefined && wasTracked)
      throw badRequest('Name a lot only when creating a product or turning lot tracking on.');
    const target = stockFromEdit(before.stock, stock, expectedStock);
    if (wasTracked && target !== undefined) throw conflict(STOCK_THROUGH_LOTS);
    if (wasTracked && !tracked) {
      const [full] = await runnerOf(tx).query(
        'select 1 from lots where product_id = $1::uuid and quantity > 0 limit 1',
        [id],
      );
      if (full) throw conflict('Lot tracking can be turned off only when every lot is empty.');
    }
    const moving = !wasTracked && tracked ? (target ?? before.stock) : 0;
    if (moving > 0 && lot === undefined)
      throw badRequest(`Name the lot the ${moving} units in stock go into.`);
    // Each at its own moment, so the ledger lists them in the order they happened.
    const move = (quantity: number, note: string, lotId?: string) =>
      recordMovements(runnerOf(tx), [
        { at: 'clock', productId: id, kind: 'count', quantity, note, actor, lotId: lotId ?? null },
      ]);
    if (target !== undefined) await move(target - before.stock, 'Stock set in the product form');
    if (moving > 0) await move(-moving, TRACKING_ON);
    await tx.update(products).set(columnValues(rest)).where(eq(products.id, id));
    if (rest.cost !== undefined && (rest.cost?.toFixed(2) ?? null) !== before.cost)
      await revalueStock(
        runnerOf(tx),
        [id],
        actor,
        `Cost set to ${rest.cost?.toFixed(2) ?? 'none'} in the product form`,
      );
    const into = lot === undefined ? undefined : await lotForAdding(runnerOf(tx), id, lot);
    if (into && moving > 0) await move(moving, TRACKING_ON, into._id);
    const after = await auditedProduct(tx, id);
    if (!after) throw new Error('a product locked for update is missing');
    const changes = [...changedFields(before, after), ...(into ? [{ field: 'lot', new: into.number }] : [])];
    if (changes.length > 0) {
      await recordAudit(tx, {
        actor,
        action: 'updated',
        entity: { type: 'product', id, name: after.name },
        changes,
      });
    }
    return true;
  });
}

export async function deleteProduct(db: Db, id: string, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const before = await auditedProduct(tx, id, true);
    if (!before) return false;
    const onOrder = await firstPurchaseOrderWith(tx, { productId: id });
    if (onOrder) throw inUse(`${before.name} is on purchase order ${onOrder}, so it stays for that history.`);
    await writeOffBeforeDeleting(runnerOf(tx), id, actor);
    await tx.delete(products).where(eq(products.id, id));
    await recordAudit(tx, {
      actor,
      action: 'deleted',
      entity: { type: 'product', id, name: before.name },
      changes: deletedFields(before),
    });
    return true;
  });
}
