import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AuditChange } from '../../../shared/audit';
import type { Tracking } from '../../../shared/lots';
import { centsText, toCents } from '../../../shared/money';
import {
  type PurchaseOrder,
  type PurchaseOrderStatus,
  type PurchaseOrderSummary,
  purchaseOrderNumber,
} from '../../../shared/purchasing';
import { type Db, type Runner, runnerOf, type Tx } from '../../db/connection';
import { locations, products, purchaseOrderLines, purchaseOrders, suppliers } from '../../db/schema';
import { sqlFile } from '../../db/sql-file';
import { type CsvBatch, exactTime, type NewestCursor, nextNewest, olderThan } from '../../lib/csv-stream';
import { badRequest, conflict, isId, notFound, refuseWith } from '../../lib/errors';
import { rowsOf } from '../../lib/sql';
import type { ZonedClock } from '../../lib/zoned-time';
import { type Actor, recordAudit } from '../audit/audit.repository';
import { type LocationRef, locationFor } from '../locations/location-for';
import { lotForAdding } from '../lots/lots.repository';
import { SUGGESTED_QUANTITY, TO_REORDER } from '../products/low-stock';
import { type NewMovement, recordMovements } from '../stock/movements';

export type PurchaseOrderValues = {
  supplier: string;
  lines: Array<{ product: string; quantity: number; unitCost: number }>;
  note: string;
  /** Where it is delivered: a location's id, or the default location when not given. */
  location?: string;
};

/** A purchase order list's filters; `location` is a location's id resolved by locationFor. */
export type PurchaseOrderFilter = { status?: PurchaseOrderStatus; supplier?: string; location?: string };

const STATUS_WORDS: Record<PurchaseOrderStatus, string> = {
  draft: 'a draft',
  ordered: 'ordered',
  partially_received: 'partly received',
  received: 'received',
  cancelled: 'cancelled',
  closed: 'closed',
};

/** Σ quantity × unit cost over a purchase order's lines, exact (numeric). */
const totalOf = (id: SQL | typeof purchaseOrders.id) =>
  sql<string>`(select coalesce(sum(${purchaseOrderLines.quantity} * ${purchaseOrderLines.unitCost}), 0)
               from ${purchaseOrderLines} where ${purchaseOrderLines.purchaseOrderId} = ${id})`;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The number of the first purchase order (by number) holding the product or from the supplier. */
export async function firstPurchaseOrderWith(
  db: Db,
  holding: { productId: string } | { supplierId: string },
): Promise<string | undefined> {
  const [row] =
    'productId' in holding
      ? await db
          .select({ number: purchaseOrders.number })
          .from(purchaseOrderLines)
          .innerJoin(purchaseOrders, eq(purchaseOrders.id, purchaseOrderLines.purchaseOrderId))
          .where(eq(purchaseOrderLines.productId, holding.productId))
          .orderBy(asc(purchaseOrders.number))
          .limit(1)
      : await db
          .select({ number: purchaseOrders.number })
          .from(purchaseOrders)
          .where(eq(purchaseOrders.supplierId, holding.supplierId))
          .orderBy(asc(purchaseOrders.number))
          .limit(1);
  return row && purchaseOrderNumber(row.number);
}

/** One purchase order with its lines in the order they were entered. */
export async function findPurchaseOrder(db: Db, id: string): Promise<PurchaseOrder | undefined> {
  if (!isId(id)) return undefined;
  const [order] = await db
    .select({
      id: purchaseOrders.id,
      number: purchaseOrders.number,
      supplierId: suppliers.id,
      supplierName: suppliers.name,
      locationId: locations.id,
      locationName: locations.name,
      status: purchaseOrders.status,
      note: purchaseOrders.note,
      total: totalOf(purchaseOrders.id),
      createdAt: purchaseOrders.createdAt,
      orderedAt: purchaseOrders.orderedAt,
      receivedAt: purchaseOrders.receivedAt,
    })
    .from(purchaseOrders)
    .innerJoin(suppliers, eq(suppliers.id, purchaseOrders.supplierId))
    .innerJoin(locations, eq(locations.id, purchaseOrders.locationId))
    .where(eq(purchaseOrders.id, id));
  if (!order) return undefined;
  const lines = await db
    .select({
      id: purchaseOrderLines.id,
      productId: products.id,
      productName: products.name,
      tracking: products.tracking,
      quantity: purchaseOrderLines.quantity,
      received: purchaseOrderLines.received,
      billed: purchaseOrderLines.billed,
      unitCost: purchaseOrderLines.unitCost,
    })
    .from(purchaseOrderLines)
    .innerJoin(products, eq(products.id, purchaseOrderLines.productId))
    .where(eq(purchaseOrderLines.purchaseOrderId, id))
    .orderBy(asc(purchaseOrderLines.position));
  return {
    _id: order.id,
    number: purchaseOrderNumber(order.number),
    supplier: { _id: order.supplierId, name: order.supplierName },
    location: { _id: order.locationId, name: order.locationName },
    status: order.status as PurchaseOrderStatus,
    note: order.note,
    lines: lines.map((line) => ({
      _id: line.id,
      product: { _id: line.productId, name: line.productName, tracking: line.tracking as Tracking },
      quantity: line.quantity,
      received: line.received,
      billed: line.billed,
      unitCost: Number(line.unitCost),
    })),
    total: Number(order.total),
    createdAt: iso(order.createdAt) as string,
    orderedAt: iso(order.orderedAt),
    receivedAt: iso(order.receivedAt),
  };
}

function purchaseOrderWhere(filter: PurchaseOrderFilter) {
  return and(
    filter.location === undefined ? undefined : eq(purchaseOrders.locationId, filter.location),
    filter.status ? eq(purchaseOrders.status, filter.status) : undefined,
    filter.supplier === undefined
      ? undefined
      : isId(filter.supplier)
        ? eq(purchaseOrders.supplierId, filter.supplier)
        : sql`false`,
  );
}

/** One page of purchase orders, newest first, by status and supplier. */
export async function purchaseOrderPage(
  db: Db,
  filter: PurchaseOrderFilter,
  window: { limit: number; offset: number },
): Promise<{ purchaseOrders: PurchaseOrderSummary[]; total: number }> {
  const where = purchaseOrderWhere(filter);
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: purchaseOrders.id,
        number: purchaseOrders.number,
        supplierId: suppliers.id,
        supplierName: suppliers.name,
        locationId: locations.id,
        locationName: locations.name,
        status: purchaseOrders.status,
        total: totalOf(purchaseOrders.id),
        createdAt: purchaseOrders.createdAt,
      })
      .from(purchaseOrders)
      .innerJoin(suppliers, eq(suppliers.id, purchaseOrders.supplierId))
      .innerJoin(locations, eq(locations.id, purchaseOrders.locationId))
      .where(where)
      .orderBy(desc(purchaseOrders.createdAt), desc(purchaseOrders.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ n: count() }).from(purchaseOrders).where(where),
  ]);
  return {
    purchaseOrders: rows.map((row) => ({
      _id: row.id,
      number: purchaseOrderNumber(row.number),
      supplier: { _id: row.supplierId, name: row.supplierName },
      location: { _id: row.locationId, name: row.locationName },
      status: row.status as PurchaseOrderStatus,
      total: Number(row.total),
      createdAt: iso(row.createdAt) as string,
    })),
    total: counted?.n ?? 0,
  };
}

/** One batch of the purchase orders CSV (PURCHASE_ORDER_CSV_HEADER), newest first, filtered. */
export async function purchaseOrderCsvBatch(
  db: Db,
  filter: PurchaseOrderFilter,
  after: NewestCursor | undefined,
  size: number,
  clock: ZonedClock,
): Promise<CsvBatch<NewestCursor>> {
  const at = (value: Date | string | null) => (value === null ? null : clock(new Date(value)));
  const rows = await db
    .select({
      id: purchaseOrders.id,
      number: purchaseOrders.number,
      supplierName: suppliers.name,
      status: purchaseOrders.status,
      total: totalOf(purchaseOrders.id),
      createdAt: purchaseOrders.createdAt,
      orderedAt: purchaseOrders.orderedAt,
      receivedAt: purchaseOrders.receivedAt,
      locationName: locations.name,
      cursorAt: exactTime(purchaseOrders.createdAt),
    })
    .from(purchaseOrders)
    .innerJoin(suppliers, eq(suppliers.id, purchaseOrders.supplierId))
    .innerJoin(locations, eq(locations.id, purchaseOrders.locationId))
    .where(and(purchaseOrderWhere(filter), olderThan(purchaseOrders.createdAt, purchaseOrders.id, after)))
    .orderBy(desc(purchaseOrders.createdAt), desc(purchaseOrders.id))
    .limit(size);
  return {
    rows: rows.map((row) => [
      purchaseOrderNumber(row.number),
      row.supplierName,
      row.status,
      Number(row.total),
      at(row.createdAt),
      at(row.orderedAt),
      at(row.receivedAt),
      row.locationName,
    ]),
    next: nextNewest(rows, size, (row) => ({ at: row.cursorAt, id: row.id })),
  };
}

/** Refuses (400) a supplier or products that do not exist, and a product twice. */
async function checkReferences(tx: Tx, values: PurchaseOrderValues): Promise<void> {
  const supplierFound =
    isId(values.supplier) &&
    (await tx.select({ id: suppliers.id }).from(suppliers).where(eq(suppliers.id, values.supplier))).length >
      0;
  if (!supplierFound) throw badRequest('Choose an existing supplier.');
  const ids = values.lines.map((line) => line.product);
  if (new Set(ids).size !== ids.length) throw badRequest('Each product may appear once on a purchase order.');
  const known = ids.every(isId)
    ? await tx.select({ id: products.id }).from(products).where(inArray(products.id, ids))
    : [];
  if (known.length !== ids.length) throw badRequest('Choose existing products for every line.');
}

async function insertLines(tx: Tx, purchaseOrderId: string, lines: PurchaseOrderValues['lines']) {
  await tx.insert(purchaseOrderLines).values(
    lines.map((line, position) => ({
      purchaseOrderId,
      position,
      productId: line.product,
      quantity: line.quantity,
      unitCost: line.unitCost.toFixed(2),
    })),
  );
}

/** What an audit entry says of a purchase order's content. */
async function auditedContent(tx: Tx, id: string): Promise<AuditChange[]> {
  const order = await findPurchaseOrder(tx, id);
  if (!order) return [];
  return [
    { field: 'supplier', new: order.supplier.name },
    { field: 'location', new: order.location.name },
    { field: 'lines', new: order.lines.length },
    { field: 'total', new: order.total.toFixed(2) },
    ...(order.note ? [{ field: 'note', new: order.note }] : []),
  ];
}

/** A new draft purchase order; its id. */
export async function insertPurchaseOrder(
  tx: Tx,
  values: PurchaseOrderValues,
  actor: Actor,
): Promise<string> {
  await checkReferences(tx, values);
  const location = await locationFor(runnerOf(tx), values.location);
  const [row] = await tx
    .insert(purchaseOrders)
    .values({ supplierId: values.supplier, note: values.note, locationId: location.id })
    .returning({ id: purchaseOrders.id, number: purchaseOrders.number });
  const { id, number } = row as { id: string; number: number };
  await insertLines(tx, id, values.lines);
  await recordAudit(tx, {
    actor,
    action: 'created',
    entity: { type: 'purchaseOrder', id, name: purchaseOrderNumber(number) },
    changes: await auditedContent(tx, id),
  });
  return id;
}

/** The purchase order's row, locked until the transaction ends; 404 when there is none. */
async function lockPurchaseOrder(tx: Tx, id: string) {
  if (!isId(id)) throw notFound('Purchase order');
  const [row] = await tx
    .select({
      id: purchaseOrders.id,
      number: purchaseOrders.number,
      status: purchaseOrders.status,
      locationId: purchaseOrders.locationId,
    })
    .from(purchaseOrders)
    .where(eq(purchaseOrders.id, id))
    .for('update');
  if (!row) throw notFound('Purchase order');
  return { ...row, name: purchaseOrderNumber(row.number), status: row.status as PurchaseOrderStatus };
}

/** Replaces a draft's supplier, lines and note (409 once it is not a draft). */
export async function updatePurchaseOrder(
  tx: Tx,
  id: string,
  values: PurchaseOrderValues,
  actor: Actor,
): Promise<void> {
  const order = await lockPurchaseOrder(tx, id);
  if (order.status !== 'draft')
    throw conflict(`${order.name} is ${STATUS_WORDS[order.status]}; only a draft can be changed.`);
  await checkReferences(tx, values);
  const location = await locationFor(runnerOf(tx), values.location);
  const before = await auditedContent(tx, id);
  await tx
    .update(purchaseOrders)
    .set({ supplierId: values.supplier, note: values.note, locationId: location.id })
    .where(eq(purchaseOrders.id, id));
  await tx.delete(purchaseOrderLines).where(eq(purchaseOrderLines.purchaseOrderId, id));
  await insertLines(tx, id, values.lines);
  const after = await auditedContent(tx, id);
  const changes = after
    .map((change) => ({
      field: change.field,
      old: before.find((b) => b.field === change.field)?.new ?? null,
      new: change.new,
    }))
    .filter((change) => change.old !== change.new);
  await recordAudit(tx, {
    actor,
    action: 'updated',
    entity: { type: 'purchaseOrder', id, name: order.name },
    changes: changes.length > 0 ? changes : [{ field: 'lines', old: 'changed', new: 'changed' }],
  });
}

/** draft → ordered (409 from any other status). */
export async function markOrdered(tx: Tx, id: string, actor: Actor): Promise<void> {
  const order = await lockPurchaseOrder(tx, id);
  if (order.status !== 'draft')
    throw conflict(`${order.name} is ${STATUS_WORDS[order.status]}; only a draft can be marked ordered.`);
  await tx
    .update(purchaseOrders)
    .set({ status: 'ordered', orderedAt: sql`now()` })
    .where(eq(purchaseOrders.id, id));
  await recordAudit(tx, {
    actor,
    action: 'ordered',
    entity: { type: 'purchaseOrder', id, name: order.name },
    changes: [{ field: 'status', old: 'draft', new: 'ordered' }],
  });
}

/**
 * Cancels a purchase order from which nothing was received (draft or ordered), or closes one
 * partly received: the rest is no longer expected, so it leaves "on order".
 */
export async function cancelPurchaseOrder(tx: Tx, id: string, actor: Actor): Promise<void> {
  const order = await lockPurchaseOrder(tx, id);
  const next =
    order.status === 'draft' || order.status === 'ordered'
      ? 'cancelled'
      : order.status === 'partially_received'
        ? 'closed'
        : undefined;
  if (!next)
    throw conflict(`${order.name} is ${STATUS_WORDS[order.status]} already; nothing is left to cancel.`);
  await tx.update(purchaseOrders).set({ status: next }).where(eq(purchaseOrders.id, id));
  await recordAudit(tx, {
    actor,
    action: next,
    entity: { type: 'purchaseOrder', id, name: order.name },
    changes: [{ field: 'status', old: order.status, new: next }],
  });
}

/**
 * Receives goods against a purchase order (DESIGN §9), all in the caller's transaction:
 *
 * 1. The purchase order's row is locked, so two receipts of the same order happen one after the
 *    other; the second sees what the first received.
 * 2. The lines' products are locked, in id order, so no sale changes the stock between the cost
 *    and the receipt, and two receipts of shared products cannot deadlock.
 * 3. Each line's received count grows in one conditional update that never passes the ordered
 *    quantity; a line that would is refused (409) and the whole receipt with it. (Its trigger
 *    takes the units off on order.)
 * 4. Each line's units arrive by a `receipt` movement naming the purchase order, at its location
 *    (DESIGN §17), worth quantity × the line's unit cost (DESIGN §19: the product's cost becomes
 *    the average of its stock's value, kept by the trigger), which the ledger's trigger applies to the stock there. A lot-tracked product's line names its lots (DESIGN
 *    §15; 400 without, and 400 when an untracked product's line names some): each lot is found or
 *    created (lotForAdding: a known number with another expiry is a 409) and gets its own
 *    movement naming it, which the trigger adds to the lot with the product.
 * 5. The status becomes received when every line is whole, else partially received.
 */
export async function receivePurchaseOrder(
  tx: Tx,
  id: string,
  lines: ReceiptLine[],
  actor: Actor,
): Promise<void> {
  const order = await lockPurchaseOrder(tx, id);
  if (order.status !== 'ordered' && order.status !== 'partially_received')
    throw conflict(
      `${order.name} is ${STATUS_WORDS[order.status]}; only an ordered purchase order can be received.`,
    );
  if (!lines.every((line) => isId(line.line)))
    throw badRequest(`Every line must be a line of ${order.name}.`);
  // The products first, in id order, as orders take them (their row, then product_stock): the
  // lines' triggers then change product_stock.on_order without waiting in the opposite order.
  const lineIds = lines.map((line) => line.line);
  const named = await tx
    .select({ lineId: purchaseOrderLines.id, productId: purchaseOrderLines.productId })
    .from(purchaseOrderLines)
    .where(and(eq(purchaseOrderLines.purchaseOrderId, id), inArray(purchaseOrderLines.id, lineIds)));
  const productIds = [...new Set(named.map((row) => row.productId))].sort();
  const locked =
    productIds.length > 0
      ? rowsOf<{ id: string; name: string; tracking: Tracking }>(
          await tx.execute(
            sql`select id, name, tracking from ${products} where id in ${productIds} order by id for update`,
          ),
        )
      : [];
  const productOfLine = new Map(named.map((row) => [row.lineId, row.productId]));
  const lotsOf = checkLots(lines, productOfLine, new Map(locked.map((row) => [row.id, row])));
  const took = rowsOf<{ line_id: string; product_id: string; quantity: number; unit_cost: string }>(
    await tx.execute(sql`
      update ${purchaseOrderLines} l set received = l.received + w.quantity
      from jsonb_to_recordset(${JSON.stringify(lines)}::jsonb) as w(line uuid, quantity int)
      where l.id = w.line and l.purchase_order_id = ${id} and l.received + w.quantity <= l.quantity
      returning l.id as line_id, l.product_id, w.quantity, l.unit_cost`),
  );
  if (took.length !== lines.length) await refuseReceipt(tx, order, lines, took);
  const run = runnerOf(tx);
  const movements: NewMovement[] = [];
  for (const row of took) {
    const receipt = {
      productId: row.product_id,
      kind: 'receipt' as const,
      note: `Received on ${order.name}`,
      actor,
      purchaseOrderId: id,
      locationId: order.locationId,
    };
    // Worth what the line says it cost (DESIGN §19); the trigger averages it into the stock.
    const worth = (quantity: number) => centsText(toCents(row.unit_cost) * BigInt(quantity));
    const received = lotsOf.get(row.line_id);
    if (!received) {
      movements.push({ ...receipt, quantity: row.quantity, value: worth(row.quantity) });
      continue;
    }
    for (const lot of received) {
      const { _id } = await lotForAdding(run, row.product_id, {
        number: lot.number,
        expiresOn: lot.expiresOn,
      });
      movements.push({ ...receipt, quantity: lot.quantity, lotId: _id, value: worth(lot.quantity) });
    }
  }
  await recordMovements(run, movements);
  const [after] = rowsOf<{ status: PurchaseOrderStatus }>(
    await tx.execute(sql`
      update ${purchaseOrders} set
        status = case when exists (select 1 from ${purchaseOrderLines}
                                   where purchase_order_id = ${id} and received < quantity)
                      then 'partially_received' else 'received' end,
        received_at = case when exists (select 1 from ${purchaseOrderLines}
                                        where purchase_order_id = ${id} and received < quantity)
                           then null else now() end
      where id = ${id}
      returning status`),
  );
  const units = took.reduce((sum, row) => sum + row.quantity, 0);
  await recordAudit(tx, {
    actor,
    action: 'received',
    entity: { type: 'purchaseOrder', id, name: order.name },
    changes: [
      ...(after?.status !== order.status
        ? [{ field: 'status', old: order.status, new: after?.status ?? null }]
        : []),
      { field: 'units received', new: units },
      { field: 'lines received', new: took.length },
    ],
  });
}

/** One line of a receipt: its purchase order line, the units received, and their lots (DESIGN §15). */
export type ReceiptLine = {
  line: string;
  quantity: number;
  lots?: Array<{ number: string; expiresOn: string | null; quantity: number }>;
};

/**
 * The lots of each line of a lot-tracked product, by line id, once every line names lots exactly
 * when its product is tracked (400 otherwise, naming the product). A line not on the purchase
 * order is left to refuseReceipt. The shared schema has checked that a line's lots add up to it.
 */
function checkLots(
  lines: ReceiptLine[],
  productOfLine: Map<string, string>,
  productsById: Map<string, { name: string; tracking: Tracking }>,
): Map<string, NonNullable<ReceiptLine['lots']>> {
  const lotsOf = new Map<string, NonNullable<ReceiptLine['lots']>>();
  for (const line of lines) {
    const productId = productOfLine.get(line.line);
    const product = productId === undefined ? undefined : productsById.get(productId);
    if (!product) continue;
    if (product.tracking === 'lot') {
      if (!line.lots)
        throw badRequest(
          `${product.name} is tracked by lot: give the lots received with their numbers, expiries and quantities.`,
        );
      lotsOf.set(line.line, line.lots);
    } else if (line.lots) {
      throw badRequest(`${product.name} is not tracked by lot, so its line takes no lots.`);
    }
  }
  return lotsOf;
}

/** Says why a receipt was refused: a line not on the order (400) or more than is open (409). */
async function refuseReceipt(
  tx: Tx,
  order: { id: string; name: string },
  lines: Array<{ line: string; quantity: number }>,
  took: Array<{ line_id: string }>,
): Promise<never> {
  const done = new Set(took.map((row) => row.line_id));
  const refused = lines.filter((line) => !done.has(line.line));
  const [open] = await tx
    .select({
      id: purchaseOrderLines.id,
      name: products.name,
      open: sql<number>`${purchaseOrderLines.quantity} - ${purchaseOrderLines.received}`.mapWith(Number),
    })
    .from(purchaseOrderLines)
    .innerJoin(products, eq(products.id, purchaseOrderLines.productId))
    .where(
      and(
        inArray(
          purchaseOrderLines.id,
          refused.map((line) => line.line),
        ),
        eq(purchaseOrderLines.purchaseOrderId, order.id),
      ),
    )
    .orderBy(asc(purchaseOrderLines.position))
    .limit(1);
  if (!open) throw badRequest(`Every line must be a line of ${order.name}.`);
  const wanted = refused.find((line) => line.line === open.id)?.quantity ?? 0;
  throw conflict(
    open.open === 0
      ? `${open.name} is already received in full on ${order.name}.`
      : `Only ${open.open} of ${open.name} ${open.open === 1 ? 'is' : 'are'} left to receive on ${order.name}, not ${wanted}.`,
  );
}

/**
 * Every product to reorder, grouped by supplier, as the JSON text of ReorderSuggestionsResponse
 * built by the database (at 100,000 products thousands of lines; see low-stock.ts): a range of
 * product_stock_to_reorder_idx, which carries every figure of a line, in supplier order.
 */
export async function reorderSuggestionsJson(db: Db): Promise<string> {
  const result = await db.execute(sql`
    with by_supplier as (
      select r.supplier_id,
             json_agg(json_build_object(
               'product', json_build_object('_id', r.product_id, 'name', r.name),
               'stock', r.stock, 'onOrder', r.on_order, 'reorderPoint', r.reorder_point,
               'suggested', ${sql.raw(SUGGESTED_QUANTITY)}, 'unitCost', coalesce(r.cost, 0))
               order by r.name_key, r.product_id) as lines
      from ${sql.raw(TO_REORDER)} r group by r.supplier_id
    )
    select json_build_object('success', true, 'suppliers', coalesce(json_agg(
             json_build_object('supplier', json_build_object('_id', s.id, 'name', s.name),
                               'draft', case when d.id is null then null
                                        else json_build_object('_id', d.id, 'number', ${sql.raw(NUMBER_TEXT('d.number'))}) end,
                               'lines', b.lines)
             order by lower(s.name), s.id), '[]'::json))::text as body
    from by_supplier b join ${suppliers} s on s.id = b.supplier_id
    -- The supplier's newest draft: one probe of purchase_orders_supplier_draft_idx per supplier.
    left join lateral (select o.id, o.number from ${purchaseOrders} o
                       where o.supplier_id = s.id and o.status = 'draft'
                       order by o.number desc limit 1) d on true`);
  return (rowsOf<{ body: string }>(result)[0] as { body: string }).body;
}

/** SQL of a purchase order's human number from its number column (as purchaseOrderNumber). */
const NUMBER_TEXT = (column: string) =>
  `'PO-' || lpad(${column}::text, greatest(6, length(${column}::text)), '0')`;

const REORDER_AT_LOCATION = sqlFile('src/server/modules/purchasing/reorder-at-location.sql', {
  suggested: SUGGESTED_QUANTITY,
});

/** A row of REORDER_AT_LOCATION (reorder-at-location.sql), as drafting reads it. */
type ReorderAtLocationRow = { product_id: string; supplier_id: string; unit_cost: string; buy: number };

/** The products to reorder at a location, supplier then name order (reorder-at-location.sql). */
async function reorderAtLocation(
  runner: Pick<Runner, 'query'>,
  locationId: string,
): Promise<ReorderAtLocationRow[]> {
  return runner.query<ReorderAtLocationRow>(REORDER_AT_LOCATION, [locationId]);
}

const REORDER_AT_LOCATION_JSON = sqlFile('src/server/modules/purchasing/reorder-at-location-json.sql', {
  rows: REORDER_AT_LOCATION,
  number: NUMBER_TEXT('d.number'),
});

/**
 * The reorder suggestions at one location (DESIGN §17), as the JSON text of
 * ReorderSuggestionsResponse (reorder-at-location-json.sql): its lines judged by stock + on order
 * there against the reorder point in force there, each suggesting a transfer from the location
 * that can spare most before a purchase of the rest; each supplier's newest draft delivered there.
 */
export async function reorderSuggestionsAtJson(
  runner: Pick<Runner, 'query'>,
  location: LocationRef,
): Promise<string> {
  const [row] = await runner.query<{ body: string }>(REORDER_AT_LOCATION_JSON, [location.id, location.name]);
  return (row as { body: string }).body;
}

export type ExistingDraft = {
  supplier: { _id: string; name: string };
  draft: { _id: string; number: string };
};

/**
 * Drafts one purchase order per supplier from the suggestions (only `supplier`'s when given), at
 * each product's cost (0 when it has none). `quantities` replaces suggested quantities; 0 leaves
 * a product out. The ids of the drafts, by supplier name. With `location` (DESIGN §17), from the
 * suggestions there: what transfers do not cover, delivered there.
 *
 * A supplier with a draft purchase order already (made here or by hand) gets no second one: when
 * it is the supplier asked for, a 409 naming the draft; among all, it is left out and its draft
 * listed. The suppliers' rows are locked first (in id order), so two calls at once (a double
 * click, two tabs) run one after the other and the second sees the first's draft.
 */
export async function draftFromSuggestions(
  tx: Tx,
  options: { supplier?: string; quantities?: Record<string, number>; location?: LocationRef },
  actor: Actor,
): Promise<{ ids: string[]; existingDrafts: ExistingDraft[] }> {
  if (options.supplier !== undefined && !isId(options.supplier))
    throw badRequest('Choose an existing supplier.');
  const { location } = options;
  const rows = location
    ? (await reorderAtLocation(runnerOf(tx), location.id))
        .filter((row) => options.supplier === undefined || row.supplier_id === options.supplier)
        .map((row) => ({
          product_id: row.product_id,
          supplier_id: row.supplier_id,
          suggested: row.buy,
          cost: row.unit_cost,
        }))
    : rowsOf<{ product_id: string; supplier_id: string; suggested: number; cost: string | null }>(
        await tx.execute(sql`
          select r.product_id, r.supplier_id, ${sql.raw(SUGGESTED_QUANTITY)} as suggested, r.cost
          from ${sql.raw(TO_REORDER)} r
          join ${suppliers} s on s.id = r.supplier_id
          ${options.supplier ? sql`where r.supplier_id = ${options.supplier}` : sql``}
          order by lower(s.name), s.id, r.name_key, r.product_id`),
      );
  const bySupplier = new Map<string, PurchaseOrderValues['lines']>();
  for (const row of rows) {
    const quantity = options.quantities?.[row.product_id] ?? row.suggested;
    if (quantity <= 0) continue;
    const lines = bySupplier.get(row.supplier_id) ?? [];
    lines.push({ product: row.product_id, quantity, unitCost: row.cost === null ? 0 : Number(row.cost) });
    bySupplier.set(row.supplier_id, lines);
  }
  const existingDrafts = await lockSuppliersAndFindDrafts(
    tx,
    options.supplier ? [options.supplier] : [...bySupplier.keys()],
    location?.id,
  );
  const asked = existingDrafts.find((found) => found.supplier._id === options.supplier);
  if (asked)
    throw refuseWith(
      'DRAFT_EXISTS',
      { existing: { _id: asked.draft._id, name: asked.draft.number } },
      { supplier: asked.supplier.name, draft: asked.draft.number },
    );
  const drafted = new Set(existingDrafts.map((found) => found.supplier._id));
  const ids: string[] = [];
  for (const [supplier, lines] of bySupplier) {
    if (drafted.has(supplier)) continue;
    ids.push(
      await insertPurchaseOrder(
        tx,
        { supplier, lines, note: 'Drafted from reorder suggestions', location: location?.id },
        actor,
      ),
    );
  }
  return { ids, existingDrafts };
}

/**
 * Locks the suppliers' rows (id order) until the transaction ends; each one's newest draft
 * (delivered to `locationId` when given).
 */
async function lockSuppliersAndFindDrafts(
  tx: Tx,
  supplierIds: string[],
  locationId?: string,
): Promise<ExistingDraft[]> {
  if (supplierIds.length === 0) return [];
  const ids = [...supplierIds].sort();
  // no key update: it does not hold up the foreign-key checks of purchase orders being written.
  await tx.execute(sql`select id from ${suppliers} where id in ${ids} order by id for no key update`);
  return newestDrafts(tx, ids, locationId);
}

/** Each supplier's newest draft purchase order (delivered to `locationId` when given). */
async function newestDrafts(
  db: Db | Tx,
  supplierIds: string[],
  locationId?: string,
): Promise<ExistingDraft[]> {
  if (supplierIds.length === 0) return [];
  const rows = rowsOf<{ supplier_id: string; supplier_name: string; id: string; number: string }>(
    await db.execute(sql`
      select distinct on (o.supplier_id) o.supplier_id, s.name as supplier_name, o.id,
             ${sql.raw(NUMBER_TEXT('o.number'))} as number
      from ${purchaseOrders} o join ${suppliers} s on s.id = o.supplier_id
      where o.supplier_id in ${supplierIds} and o.status = 'draft'
        ${locationId === undefined ? sql`` : sql`and o.location_id = ${locationId}`}
      order by o.supplier_id, o.number desc`),
  );
  return rows.map((row) => ({
    supplier: { _id: row.supplier_id, name: row.supplier_name },
    draft: { _id: row.id, number: row.number },
  }));
}

/** Whether the supplier exists (a draft for an unknown one is a 404, not an empty answer). */
export async function supplierExists(db: Db, id: string): Promise<boolean> {
  if (!isId(id)) return false;
  return (await db.select({ id: suppliers.id }).from(suppliers).where(eq(suppliers.id, id))).length > 0;
}
