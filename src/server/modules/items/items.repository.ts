import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import { MAX } from '../../../shared/common';
import type { Item, ItemOption, OptionValues } from '../../../shared/items';
import { variantName } from '../../../shared/items';
import type { Product } from '../../../shared/products';
import { type Db, runnerOf, type Tx } from '../../db/connection';
import { categories, items, products, suppliers } from '../../db/schema';
import { badRequest, duplicateRefusal, isId, pgCode, refuse, violatedConstraint } from '../../lib/errors';
import { matchesSearch } from '../../lib/search';
import { type Actor, changedFields, createdFields, recordAudit } from '../audit/audit.repository';
import { selectProducts, toProduct } from '../products/products.columns';
import { missingReferences } from '../products/products.queries';
import { insertProduct } from '../products/products.writes';

/**
 * Items and their variants (DESIGN §22): an item holds what its variants share (name,
 * description, category, supplier, brand) and its options; each variant is a product with
 * `item_id` and its `option_values`, named by variantName (src/shared/items.ts). Every write of a
 * variant's name or values goes through nameVariants.
 */

/** What an item is made of, as its creation and its edit give it (parsed by the shared schemas). */
export type ItemValues = {
  name: string;
  description: string;
  category: string;
  supplier: string;
  brand?: string | null;
  options: ItemOption[];
};

/** A variant as its creation gives it (VariantInput, parsed). */
export type VariantValues = {
  optionValues: OptionValues;
  sku?: string | null;
  barcode?: string | null;
  price: number;
  cost?: number | null;
  stock?: number;
  taxRate?: string | null;
};

type ItemRow = {
  id: string;
  name: string;
  description: string;
  categoryId: string;
  categoryName: string;
  supplierId: string;
  supplierName: string;
  brand: string | null;
  options: unknown;
};

const itemColumns = {
  id: items.id,
  name: items.name,
  description: items.description,
  categoryId: categories.id,
  categoryName: categories.name,
  supplierId: suppliers.id,
  supplierName: suppliers.name,
  brand: items.brand,
  options: items.options,
};

function selectItems(db: Db) {
  return db
    .select(itemColumns)
    .from(items)
    .innerJoin(categories, eq(categories.id, items.categoryId))
    .innerJoin(suppliers, eq(suppliers.id, items.supplierId));
}

/** Where a variant's values sit among its item's options: the key its variants are ordered by. */
function valueOrder(options: readonly ItemOption[], values: Record<string, string> | null): number[] {
  return options.map((option) => option.values.indexOf(values?.[option.name] ?? ''));
}

function byValueOrder(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The items of these rows with their variants (one read of all of them), in the rows' order. */
async function withVariants(db: Db, rows: ItemRow[], storeThreshold: number): Promise<Item[]> {
  if (rows.length === 0) return [];
  const variants = await selectProducts(db, storeThreshold).where(
    inArray(
      products.itemId,
      rows.map((row) => row.id),
    ),
  );
  const byItem = new Map<string, Product[]>();
  for (const row of variants) {
    const product = toProduct(row);
    const list = byItem.get(row.itemId ?? '') ?? [];
    list.push(product);
    byItem.set(row.itemId ?? '', list);
  }
  return rows.map((row) => {
    const options = row.options as ItemOption[];
    const own = byItem.get(row.id) ?? [];
    const keyed = own.map((product) => ({ product, key: valueOrder(options, product.optionValues) }));
    keyed.sort((a, b) => byValueOrder(a.key, b.key) || a.product.name.localeCompare(b.product.name));
    return {
      _id: row.id,
      name: row.name,
      description: row.description,
      category: { _id: row.categoryId, name: row.categoryName },
      supplier: { _id: row.supplierId, name: row.supplierName },
      brand: row.brand,
      options: options.map((option) => ({ name: option.name, values: option.values })),
      variants: keyed.map((entry) => entry.product),
    };
  });
}

export async function findItem(db: Db, id: string, storeThreshold: number): Promise<Item | undefined> {
  if (!isId(id)) return undefined;
  const rows = await selectItems(db).where(eq(items.id, id));
  const [item] = await withVariants(db, rows, storeThreshold);
  return item;
}

/** One page of the items by name (every word of the search in the name), in a category when asked. */
export async function itemPage(
  db: Db,
  query: { search?: string; category?: string },
  window: { limit: number; offset: number },
  storeThreshold: number,
): Promise<{ items: Item[]; total: number }> {
  const category =
    query.category === undefined
      ? undefined
      : isId(query.category)
        ? eq(items.categoryId, query.category)
        : sql`false`;
  const where = and(matchesSearch(query.search, [items.name]), category);
  const rows = await selectItems(db)
    .where(where)
    .orderBy(asc(sql`lower(${items.name})`), asc(items.id))
    .limit(window.limit)
    .offset(window.offset);
  const [counted] = await db.select({ n: count() }).from(items).where(where);
  return { items: await withVariants(db, rows, storeThreshold), total: counted?.n ?? 0 };
}

/** Checks that the category and supplier (and each tax rate named) exist: 400 naming the first missing. */
async function checkReferences(db: Db, category: string, supplier: string, taxRates: readonly string[]) {
  const ids = [category, supplier, ...taxRates];
  const missing = ids.every(isId)
    ? await missingReferences(db, category, supplier)
    : { category: !isId(category), supplier: !isId(supplier) };
  if (missing.category) throw badRequest('Choose an existing category.');
  if (missing.supplier) throw badRequest('Choose an existing supplier.');
  for (const rate of taxRates) {
    const known = isId(rate) && !(await missingReferences(db, category, supplier, rate)).taxRate;
    if (!known) throw badRequest('Choose an existing tax rate.');
  }
}

/**
 * A variant's values as the item spells them: every option named exactly once (ignoring case)
 * with one of its values (ignoring case); a 400 of one sentence otherwise.
 */
export function spelledValues(options: readonly ItemOption[], given: OptionValues): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(given)) {
    const option = options.find((known) => known.name.toLowerCase() === key.toLowerCase());
    if (!option) throw badRequest(`This item has no option ${JSON.stringify(key)}.`);
    if (values[option.name] !== undefined)
      throw badRequest(`A variant names the option ${option.name} twice.`);
    const spelled = option.values.find((known) => known.toLowerCase() === String(value).toLowerCase());
    if (spelled === undefined)
      throw badRequest(`${JSON.stringify(value)} is not one of the values of ${option.name}.`);
    values[option.name] = spelled;
  }
  const unnamed = options.find((option) => values[option.name] === undefined);
  if (unnamed) throw badRequest(`A variant needs a value of ${unnamed.name}.`);
  return values;
}

/** The same combination twice among the variants given: 409 naming it. */
function checkDistinct(itemName: string, options: readonly ItemOption[], variants: Record<string, string>[]) {
  const seen = new Set<string>();
  for (const values of variants) {
    const key = JSON.stringify(options.map((option) => values[option.name]));
    if (seen.has(key)) throw refuse('VARIANT_EXISTS', { variant: variantName(itemName, options, values) });
    seen.add(key);
  }
}

/** A write refused by a unique index: the item's name taken, the combination taken, or a SKU/barcode's refusal. */
async function unlessTaken<T>(
  write: () => Promise<T>,
  names: { item: string; variant?: string },
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (pgCode(error) !== '23505') throw error;
    const constraint = violatedConstraint(error);
    if (constraint === 'items_name_lower_key') throw refuse('NAME_TAKEN', { kind: 'item', name: names.item });
    if (constraint === 'products_item_variant_key')
      throw refuse('VARIANT_EXISTS', { variant: names.variant ?? names.item });
    throw duplicateRefusal(error);
  }
}

async function nameTaken(db: Db, name: string, exceptId: string | null): Promise<boolean> {
  const rows = await db
    .select({ id: items.id })
    .from(items)
    .where(
      and(sql`lower(${items.name}) = lower(${name})`, exceptId === null ? undefined : ne(items.id, exceptId)),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * A variant's name (variantName), within a product name's length: a longer one is a 400 (the
 * product's own form could not send it back).
 */
function nameOfVariant(itemName: string, options: readonly ItemOption[], values: Record<string, string>) {
  const name = variantName(itemName, options, values);
  if (name.length > MAX.name)
    throw badRequest(
      `The variant's name "${name.slice(0, 60)}…" would be longer than ${MAX.name} characters.`,
    );
  return name;
}

const audited = (values: ItemValues, categoryName: string, supplierName: string) => ({
  name: values.name,
  description: values.description,
  category: categoryName,
  supplier: supplierName,
  brand: values.brand ?? null,
  options: values.options.map((option) => `${option.name}: ${option.values.join(', ')}`).join('; '),
});

async function namesOf(tx: Tx, category: string, supplier: string) {
  const [row] = await tx
    .select({ category: categories.name, supplier: suppliers.name })
    .from(categories)
    .innerJoin(suppliers, eq(suppliers.id, supplier))
    .where(eq(categories.id, category));
  return { category: row?.category ?? '', supplier: row?.supplier ?? '' };
}

/** One variant written as a product of the item (products' write path: its opening movement, its entry). */
async function insertVariant(
  tx: Tx,
  item: { id: string; values: ItemValues },
  variant: VariantValues,
  optionValues: Record<string, string>,
  actor: Actor,
): Promise<string> {
  const name = nameOfVariant(item.values.name, item.values.options, optionValues);
  return unlessTaken(
    () =>
      insertProduct(
        tx,
        {
          name,
          description: item.values.description,
          price: variant.price,
          stock: variant.stock ?? 0,
          categoryId: item.values.category,
          supplierId: item.values.supplier,
          cost: variant.cost,
          sku: variant.sku,
          barcode: variant.barcode,
          ...(variant.taxRate !== undefined && { taxRateId: variant.taxRate }),
          brand: item.values.brand ?? null,
          itemId: item.id,
          optionValues,
        },
        actor,
      ),
    { item: item.values.name, variant: name },
  );
}

/**
 * Creates an item and its variants in one transaction: the item with its entry, then each variant
 * as a product (its opening stock at the default location, its own entry). Each variant names
 * every option once with one of its values (400); a combination given twice is a 409.
 */
export async function createItem(
  db: Db,
  values: ItemValues,
  variants: VariantValues[],
  actor: Actor,
): Promise<string> {
  const spelled = variants.map((variant) => spelledValues(values.options, variant.optionValues));
  checkDistinct(values.name, values.options, spelled);
  const rates = variants.flatMap((variant) => (typeof variant.taxRate === 'string' ? [variant.taxRate] : []));
  await checkReferences(db, values.category, values.supplier, [...new Set(rates)]);
  if (await nameTaken(db, values.name, null)) throw refuse('NAME_TAKEN', { kind: 'item', name: values.name });
  return db.transaction(async (tx) => {
    const [row] = await unlessTaken(
      () =>
        tx
          .insert(items)
          .values({
            name: values.name,
            description: values.description,
            categoryId: values.category,
            supplierId: values.supplier,
            brand: values.brand ?? null,
            options: values.options,
          })
          .returning({ id: items.id }),
      { item: values.name },
    );
    const id = (row as { id: string }).id;
    const names = await namesOf(tx, values.category, values.supplier);
    await recordAudit(tx, {
      actor,
      action: 'created',
      entity: { type: 'item', id, name: values.name },
      changes: createdFields(audited(values, names.category, names.supplier)),
    });
    for (const [at, variant] of variants.entries())
      await insertVariant(tx, { id, values }, variant, spelled[at] as Record<string, string>, actor);
    return id;
  });
}

/** Adds one variant to an item (409 VARIANT_EXISTS for a combination it has, also when two adds race). */
export async function addVariant(
  db: Db,
  itemId: string,
  variant: VariantValues,
  actor: Actor,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const item = await lockedItem(tx, itemId);
    if (!item) return false;
    const values = spelledValues(item.values.options, variant.optionValues);
    const rates = typeof variant.taxRate === 'string' ? [variant.taxRate] : [];
    await checkReferences(tx, item.values.category, item.values.supplier, rates);
    await insertVariant(tx, item, variant, values, actor);
    return true;
  });
}

/** The item, locked for share (adds) or update (an edit), as ItemValues. */
async function lockedItem(tx: Tx, id: string, strength: 'share' | 'update' = 'share') {
  const [row] = await tx.select().from(items).where(eq(items.id, id)).for(strength);
  if (!row) return undefined;
  return {
    id: row.id,
    values: {
      name: row.name,
      description: row.description,
      category: row.categoryId,
      supplier: row.supplierId,
      brand: row.brand,
      options: row.options as ItemOption[],
    } satisfies ItemValues,
  };
}

/**
 * How an edit's options translate the old ones (DESIGN §22): the same number of options once the
 * item has variants (409 ITEM_OPTIONS_FIXED), an option renamed at its place; each old value kept
 * (the same text ignoring case, its new spelling), renamed (a new text at its place that was not
 * among the old values) or removed (409 OPTION_VALUE_IN_USE when a variant has it). Answers the
 * translation of a variant's values.
 */
function optionsEdit(
  before: readonly ItemOption[],
  after: readonly ItemOption[],
  inUse: readonly Record<string, string>[],
): (values: Record<string, string>) => Record<string, string> {
  if (inUse.length > 0 && before.length !== after.length) throw refuse('ITEM_OPTIONS_FIXED');
  const perOption = before.map((old, at) => {
    const next = after[at];
    const map = new Map<string, string>();
    if (!next) return { name: undefined, map };
    const oldLower = new Set(old.values.map((value) => value.toLowerCase()));
    old.values.forEach((value, place) => {
      const same = next.values.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
      const there = next.values[place];
      const renamed = there !== undefined && !oldLower.has(there.toLowerCase()) ? there : undefined;
      const becomes = same ?? renamed;
      if (becomes !== undefined) map.set(value, becomes);
      else if (inUse.some((values) => values[old.name] === value))
        throw refuse('OPTION_VALUE_IN_USE', { option: old.name, value });
    });
    return { name: next.name, map };
  });
  return (values) => {
    const translated: Record<string, string> = {};
    before.forEach((old, at) => {
      const { name, map } = perOption[at] as { name: string | undefined; map: Map<string, string> };
      const value = values[old.name];
      if (name !== undefined && value !== undefined) translated[name] = map.get(value) ?? value;
    });
    return translated;
  };
}

/**
 * Keeps every variant of an item in step with it (DESIGN §22): each variant's values translated
 * (`translate`, after a rename of an option or a value) and its name made again by variantName
 * from the item's name and options as stored now. The one writer of variants' names and values
 * after their creation; each renamed variant gets its entry. Orders keep the name they were
 * placed with (their own snapshot).
 */
export async function nameVariants(
  tx: Tx,
  itemId: string,
  actor: Actor,
  translate: (values: Record<string, string>) => Record<string, string> = (values) => values,
): Promise<number> {
  const [item] = await tx
    .select({ name: items.name, options: items.options })
    .from(items)
    .where(eq(items.id, itemId));
  if (!item) return 0;
  const options = item.options as ItemOption[];
  const variants = await tx
    .select({ id: products.id, name: products.name, optionValues: products.optionValues })
    .from(products)
    .where(eq(products.itemId, itemId))
    .orderBy(asc(products.id))
    .for('update');
  const changed = variants.flatMap((variant) => {
    const values = translate(variant.optionValues as Record<string, string>);
    const name = nameOfVariant(item.name, options, values);
    const same = name === variant.name && JSON.stringify(values) === JSON.stringify(variant.optionValues);
    return same ? [] : [{ id: variant.id, before: variant.name, name, values }];
  });
  if (changed.length === 0) return 0;
  await runnerOf(tx).query(
    `update products p set name = v.name, option_values = v.values
     from jsonb_to_recordset($1::jsonb) as v(id uuid, name text, values jsonb)
     where p.id = v.id`,
    [JSON.stringify(changed.map(({ id, name, values }) => ({ id, name, values })))],
  );
  for (const variant of changed)
    if (variant.before !== variant.name)
      await recordAudit(tx, {
        actor,
        action: 'updated',
        entity: { type: 'product', id: variant.id, name: variant.name },
        changes: [{ field: 'name', old: variant.before, new: variant.name }],
      });
  return changed.length;
}

/**
 * Changes an item (DESIGN §22): its name, description, category, supplier, brand and options, in
 * one transaction with its entry. What its variants share with it (description, category,
 * supplier, brand) follows where a variant had the item's old value; names and values follow by
 * nameVariants. Answers false for an unknown item.
 */
export async function updateItem(db: Db, id: string, values: ItemValues, actor: Actor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const item = await lockedItem(tx, id, 'update');
    if (!item) return false;
    await checkReferences(tx, values.category, values.supplier, []);
    if (await nameTaken(tx, values.name, id)) throw refuse('NAME_TAKEN', { kind: 'item', name: values.name });
    const before = item.values;
    const inUse = await tx
      .select({ optionValues: products.optionValues })
      .from(products)
      .where(eq(products.itemId, id))
      .for('update');
    const translate = optionsEdit(
      before.options,
      values.options,
      inUse.map((row) => row.optionValues as Record<string, string>),
    );
    await unlessTaken(
      () =>
        tx
          .update(items)
          .set({
            name: values.name,
            description: values.description,
            categoryId: values.category,
            supplierId: values.supplier,
            brand: values.brand ?? null,
            options: values.options,
          })
          .where(eq(items.id, id)),
      { item: values.name },
    );
    await runnerOf(tx).query(
      `update products set
         description = case when description = $2 then $3 else description end,
         category_id = case when category_id = $4::uuid then $5::uuid else category_id end,
         supplier_id = case when supplier_id = $6::uuid then $7::uuid else supplier_id end,
         brand = case when brand is not distinct from $8 then $9 else brand end
       where item_id = $1::uuid`,
      [
        id,
        before.description,
        values.description,
        before.category,
        values.category,
        before.supplier,
        values.supplier,
        before.brand,
        values.brand ?? null,
      ],
    );
    await nameVariants(tx, id, actor, translate);
    const [oldNames, newNames] = [
      await namesOf(tx, before.category, before.supplier),
      await namesOf(tx, values.category, values.supplier),
    ];
    const changes = changedFields(
      audited(before, oldNames.category, oldNames.supplier),
      audited(values, newNames.category, newNames.supplier),
    );
    if (changes.length > 0)
      await recordAudit(tx, {
        actor,
        action: 'updated',
        entity: { type: 'item', id, name: values.name },
        changes,
      });
    return true;
  });
}
