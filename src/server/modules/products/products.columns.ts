import { eq, type SQL, sql } from 'drizzle-orm';
import type { Product } from '../../../shared/products';
import type { Db } from '../../db/connection';
import {
  categories,
  items,
  productStock,
  products,
  storeSettings,
  suppliers,
  taxRates,
} from '../../db/schema';

/**
 * A product as every read answers it (DESIGN §3): the columns selected (productColumns, the joins
 * of selectProducts), the reorder point and tax rate in force, and the one mapping of a row to the
 * answer (toProduct). The raw statements of products.queries.ts select the same columns by name.
 */

/**
 * The reorder point in force: low stock is 0 < stock ≤ it (DESIGN §9): the product's own
 * (`column`), or else the store's LOW_STOCK_THRESHOLD. Every product answer carries it from here.
 */
export function reorderPointSql(
  storeThreshold: number,
  column: SQL | typeof products.reorderPoint = products.reorderPoint,
) {
  return sql<number>`coalesce(${column}, ${storeThreshold}::int)`.mapWith(Number);
}

export function productColumns(storeThreshold: number) {
  return {
    id: products.id,
    name: products.name,
    description: products.description,
    price: products.price,
    stock: products.stock,
    reorderPoint: reorderPointSql(storeThreshold),
    reorderPointFromStore: sql<boolean>`${products.reorderPoint} is null`,
    reorderQuantity: products.reorderQuantity,
    cost: products.cost,
    sku: products.sku,
    barcode: products.barcode,
    categoryId: categories.id,
    categoryName: categories.name,
    supplierId: suppliers.id,
    supplierName: suppliers.name,
    taxRateId: taxRates.id,
    taxRateName: taxRates.name,
    taxRate: taxRates.rate,
    taxRateDefault: sql<boolean>`${products.taxRateId} is null`,
    tracking: products.tracking,
    brand: products.brand,
    active: products.active,
    itemId: items.id,
    itemName: items.name,
    optionValues: products.optionValues,
  };
}

/**
 * The tax rate in force (DESIGN §12): the product's own, else the store's default (its one row);
 * each join by key, so a list's plan stays its own. Every product answer carries it from here
 * (the raw statements of products.queries.ts say the same in SQL).
 */
export const storeRow = sql`${storeSettings.id} = 1`;
export const rateInForce = eq(
  taxRates.id,
  sql`coalesce(${products.taxRateId}, ${storeSettings.defaultTaxRateId})`,
);

export type ProductRow = {
  id: string;
  name: string;
  description: string;
  price: string;
  stock: number;
  reorderPoint: number;
  reorderPointFromStore: boolean;
  reorderQuantity: number | null;
  cost: string | null;
  sku: string | null;
  barcode: string | null;
  categoryId: string;
  categoryName: string;
  supplierId: string;
  supplierName: string;
  taxRateId: string | null;
  taxRateName: string | null;
  taxRate: string | null;
  taxRateDefault: boolean;
  tracking: string;
  brand: string | null;
  active: boolean;
  /** DESIGN §22: the item's id and name (left join items), null for a product on its own. */
  itemId: string | null;
  itemName: string | null;
  optionValues: unknown;
};

export const toProduct = (row: ProductRow): Product => ({
  _id: row.id,
  name: row.name,
  description: row.description,
  price: Number(row.price),
  stock: row.stock,
  reorderPoint: row.reorderPoint,
  reorderPointFromStore: row.reorderPointFromStore,
  reorderQuantity: row.reorderQuantity,
  cost: row.cost === null ? null : Number(row.cost),
  sku: row.sku,
  barcode: row.barcode,
  category: { _id: row.categoryId, name: row.categoryName },
  supplier: { _id: row.supplierId, name: row.supplierName },
  taxRate:
    row.taxRateId === null
      ? null
      : { _id: row.taxRateId, name: row.taxRateName ?? '', rate: Number(row.taxRate) },
  taxRateDefault: row.taxRateDefault,
  tracking: row.tracking === 'lot' ? 'lot' : 'none',
  brand: row.brand,
  active: row.active,
  item: row.itemId === null ? null : { _id: row.itemId, name: row.itemName ?? '' },
  optionValues: row.itemId === null ? null : (row.optionValues as Record<string, string>),
});

/** The item's join every product read makes (DESIGN §22): by key, a product on its own finds none. */
export const itemOfProduct = eq(items.id, products.itemId);

export function selectProducts(db: Db, storeThreshold: number) {
  return db
    .select(productColumns(storeThreshold))
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .innerJoin(suppliers, eq(suppliers.id, products.supplierId))
    .leftJoin(storeSettings, storeRow)
    .leftJoin(taxRates, rateInForce)
    .leftJoin(items, itemOfProduct);
}

/** The same, joined to product_stock, whose index gives stock order (products.stock has none). */
export function selectProductsByStock(db: Db, storeThreshold: number) {
  return selectProducts(db, storeThreshold).innerJoin(productStock, eq(productStock.productId, products.id));
}
