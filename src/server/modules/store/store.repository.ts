import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { AuditValue } from '../../../shared/audit';
import { type StoreSettings, type TaxRate, taxRateLabel } from '../../../shared/store';
import type { Db, Runner } from '../../db/connection';
import { runnerOf } from '../../db/connection';
import { locations, products, storeSettings, taxRates } from '../../db/schema';
import { badRequest, isId } from '../../lib/errors';
import {
  type Actor,
  changedFields,
  createdFields,
  deletedFields,
  recordAudit,
  type Tx,
} from '../audit/audit.repository';
import { locationFor } from '../locations/location-for';

/** The store's one row (DESIGN §12): written at every start if missing (see ensureStoreSettings). */
const STORE_ID = 1;

const toTaxRate = (row: { id: string; name: string; rate: string }): TaxRate => ({
  _id: row.id,
  name: row.name,
  rate: Number(row.rate),
});

async function storeRow(db: Db | Tx, lock = false) {
  const query = db
    .select({
      name: storeSettings.name,
      address: storeSettings.address,
      phone: storeSettings.phone,
      taxNumber: storeSettings.taxNumber,
      currency: storeSettings.currency,
      receiptFooter: storeSettings.receiptFooter,
      pricesIncludeTax: storeSettings.pricesIncludeTax,
      maxDiscountPercent: storeSettings.maxDiscountPercent,
      offlineHours: storeSettings.offlineHours,
      rateId: taxRates.id,
      rateName: taxRates.name,
      rate: taxRates.rate,
      locationId: locations.id,
      locationName: locations.name,
    })
    .from(storeSettings)
    .leftJoin(taxRates, eq(taxRates.id, storeSettings.defaultTaxRateId))
    .leftJoin(locations, eq(locations.id, sql`default_location()`))
    .where(eq(storeSettings.id, STORE_ID));
  const [row] = lock ? await query.for('update', { of: storeSettings }) : await query;
  if (!row) throw new Error('The store settings row is missing; it is written at start.');
  return row;
}

type StoreRow = Awaited<ReturnType<typeof storeRow>>;

const toStore = (row: StoreRow): StoreSettings => ({
  name: row.name,
  address: row.address,
  phone: row.phone,
  taxNumber: row.taxNumber,
  currency: row.currency,
  receiptFooter: row.receiptFooter,
  pricesIncludeTax: row.pricesIncludeTax,
  defaultTaxRate:
    row.rateId === null
      ? null
      : toTaxRate({ id: row.rateId, name: row.rateName ?? '', rate: row.rate ?? '0' }),
  maxDiscountPercent: Number(row.maxDiscountPercent),
  defaultLocation: { _id: row.locationId ?? '', name: row.locationName ?? '' },
  offlineHours: row.offlineHours,
});

/** The store as its audit entries show it: the default rate by its label ("Reduced 5%"). */
const audited = (store: StoreSettings): Record<string, AuditValue> => ({
  name: store.name,
  address: store.address,
  phone: store.phone,
  taxNumber: store.taxNumber,
  currency: store.currency,
  receiptFooter: store.receiptFooter,
  pricesIncludeTax: store.pricesIncludeTax,
  defaultTaxRate: store.defaultTaxRate ? taxRateLabel(store.defaultTaxRate) : null,
  maxDiscountPercent: store.maxDiscountPercent,
  defaultLocation: store.defaultLocation.name,
  offlineHours: store.offlineHours,
});

/**
 * The store's currency (DESIGN §12), for a sentence that names an amount (formatCents): read where
 * the refusal is made, and only then, so the paths that refuse nothing pay no read for it.
 */
export async function storeCurrency(runner: Runner): Promise<string> {
  const [row] = await runner.query<{ currency: string }>(
    `select coalesce((select currency from store_settings where id = ${STORE_ID}), 'USD') as currency`,
  );
  return row?.currency ?? 'USD';
}

export async function readStore(db: Db): Promise<StoreSettings> {
  return toStore(await storeRow(db));
}

export type StoreChanges = {
  name?: string;
  address?: string;
  phone?: string;
  taxNumber?: string;
  currency?: string;
  receiptFooter?: string;
  pricesIncludeTax?: boolean;
  defaultTaxRate?: string | null;
  maxDiscountPercent?: number;
  defaultLocation?: string;
  offlineHours?: number;
};

/**
 * Changes the fields named (the others stay); one audit entry holds each changed field, old →
 * new. An unknown default tax rate is a 400; an unknown default location a 404, an inactive one
 * a 409 (LOCATION_INACTIVE).
 */
export async function updateStore(db: Db, changes: StoreChanges, actor: Actor): Promise<StoreSettings> {
  return db.transaction(async (tx) => {
    const before = toStore(await storeRow(tx, true));
    const { defaultTaxRate, maxDiscountPercent, defaultLocation, ...text } = changes;
    if (typeof defaultTaxRate === 'string') {
      // Held until the transaction ends, so the rate cannot be deleted between the check and the write.
      const [rate] = isId(defaultTaxRate)
        ? await tx
            .select({ id: taxRates.id })
            .from(taxRates)
            .where(eq(taxRates.id, defaultTaxRate))
            .for('key share')
        : [];
      if (!rate) throw badRequest('Choose an existing tax rate as the default.');
    }
    const location = defaultLocation === undefined ? undefined : await lockedLocation(tx, defaultLocation);
    const values = {
      ...text,
      ...(defaultTaxRate !== undefined && { defaultTaxRateId: defaultTaxRate }),
      ...(location && { defaultLocationId: location.id }),
      ...(maxDiscountPercent !== undefined && { maxDiscountPercent: maxDiscountPercent.toFixed(2) }),
    };
    if (Object.keys(values).length > 0) {
      await tx
        .update(storeSettings)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(storeSettings.id, STORE_ID));
    }
    const after = toStore(await storeRow(tx));
    const changed = changedFields(audited(before), audited(after));
    if (changed.length > 0) {
      await recordAudit(tx, {
        actor,
        action: 'updated',
        entity: { type: 'store', id: null, name: after.name },
        changes: changed,
      });
    }
    return after;
  });
}

/**
 * The location a change names, held FOR SHARE until the transaction ends so it is not deactivated
 * between the check and the write (a deactivation locks it FOR UPDATE, then finds it the default).
 */
async function lockedLocation(tx: Tx, id: string) {
  const run = runnerOf(tx);
  if (isId(id)) await run.query('select 1 from locations where id = $1::uuid for share', [id]);
  return locationFor(run, id);
}

export async function listTaxRates(db: Db): Promise<TaxRate[]> {
  const rows = await db
    .select({ id: taxRates.id, name: taxRates.name, rate: taxRates.rate })
    .from(taxRates)
    .orderBy(asc(sql`lower(${taxRates.name})`), asc(taxRates.id));
  return rows.map(toTaxRate);
}

/** The tax rate with this name ignoring case (but `exceptId`), if any. */
export async function taxRateNamed(db: Db, name: string, exceptId?: string) {
  const sameName = eq(sql`lower(${taxRates.name})`, name.toLowerCase());
  const [row] = await db
    .select({ id: taxRates.id, name: taxRates.name })
    .from(taxRates)
    .where(exceptId ? and(sameName, ne(taxRates.id, exceptId)) : sameName);
  return row;
}

type TaxRateValues = { name: string; rate: number };

const auditedRate = (rate: TaxRate): Record<string, AuditValue> => ({ name: rate.name, rate: rate.rate });

export async function insertTaxRate(db: Db, values: TaxRateValues, actor: Actor): Promise<TaxRate> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(taxRates)
      .values({ name: values.name, rate: String(values.rate) })
      .returning();
    const taxRate = toTaxRate(row as NonNullable<typeof row>);
    await recordAudit(tx, {
      actor,
      action: 'created',
      entity: { type: 'taxRate', id: taxRate._id, name: taxRate.name },
      changes: createdFields(auditedRate(taxRate)),
    });
    return taxRate;
  });
}

/** Renames a rate or changes its percent; sold lines keep the rate they were sold at (their snapshot). */
export async function updateTaxRate(
  db: Db,
  id: string,
  values: TaxRateValues,
  actor: Actor,
): Promise<TaxRate | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(taxRates).where(eq(taxRates.id, id)).for('update');
    if (!row) return undefined;
    const before = toTaxRate(row);
    const [updated] = await tx
      .update(taxRates)
      .set({ name: values.name, rate: String(values.rate) })
      .where(eq(taxRates.id, id))
      .returning();
    const after = toTaxRate(updated as NonNullable<typeof updated>);
    const changes = changedFields(auditedRate(before), auditedRate(after));
    if (changes.length > 0) {
      await recordAudit(tx, {
        actor,
        action: 'updated',
        entity: { type: 'taxRate', id, name: after.name },
        changes,
      });
    }
    return after;
  });
}

/** How many products have this rate of their own, and whether it is the store's default. */
export async function taxRateUse(
  db: Db | Tx,
  id: string,
): Promise<{ products: number; storeDefault: boolean }> {
  const [used] = await db.select({ n: count() }).from(products).where(eq(products.taxRateId, id));
  const [store] = await db
    .select({ id: storeSettings.id })
    .from(storeSettings)
    .where(and(eq(storeSettings.id, STORE_ID), eq(storeSettings.defaultTaxRateId, id)));
  return { products: used?.n ?? 0, storeDefault: !!store };
}

/**
 * Deletes a rate nothing uses: answers the use that keeps it (the caller says why), false when
 * there is no such rate, true when deleted. The rate is locked first, so a product given it
 * meanwhile waits and then fails on the foreign key rather than losing its rate.
 */
export async function deleteTaxRate(
  db: Db,
  id: string,
  actor: Actor,
): Promise<boolean | { products: number; storeDefault: boolean }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(taxRates).where(eq(taxRates.id, id)).for('update');
    if (!row) return false;
    const use = await taxRateUse(tx, id);
    if (use.products > 0 || use.storeDefault) return use;
    await tx.delete(taxRates).where(eq(taxRates.id, id));
    const rate = toTaxRate(row);
    await recordAudit(tx, {
      actor,
      action: 'deleted',
      entity: { type: 'taxRate', id, name: rate.name },
      changes: deletedFields(auditedRate(rate)),
    });
    return true;
  });
}
