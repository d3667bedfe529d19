import { z } from 'zod';
import { Category } from './categories';
import { Id, MAX, Money, Named, Ok, optionalText, requiredText } from './common';
import { LocationId } from './locations';
import { LotRef, Tracking } from './lots';
import { ExportFormat, PageInfo, PageQuery } from './paging';
import { UnitCost } from './purchasing';
import { TaxRate, TaxRateRef } from './store';

export const Product = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
  stock: z.number().int(),
  reorderPoint: z
    .number()
    .int()
    .describe('The reorder point in force: a stock above 0 and at most this is low stock.'),
  /** True when the product has no reorder point of its own and the store's applies. */
  reorderPointFromStore: z.boolean(),
  /** How many to order when it is low; null: twice the reorder point, less what is there. */
  reorderQuantity: z.number().int().nullable(),
  /**
   * The unit cost (weighted average of what was received), null while unknown. Only roles that
   * read costs (costs:read) get it; to the others the field is absent.
   */
  cost: z.number().nullable().optional(),
  /** Optional codes the sale counter finds the product by; null when the product has none. */
  sku: z.string().nullable(),
  barcode: z.string().nullable(),
  category: Named,
  supplier: Named,
  /** The tax rate in force (DESIGN §12): the product's own, else the store's default; null: no tax. */
  taxRate: TaxRate.nullable(),
  /** True when the product has no rate of its own and the store's default (or no tax, without one) applies. */
  taxRateDefault: z.boolean(),
  /** DESIGN §15: 'lot': the stock lives in lots (GET /api/products/:id/lots), sold first-expiry-first-out. */
  tracking: Tracking,
  /**
   * DESIGN §17, only when the list is asked `?location=`: the product's whole stock (Σ over its
   * locations), `stock` then being its stock at that location.
   */
  stockTotal: z.number().int().optional(),
  /** DESIGN §22: optional. */
  brand: z.string().nullable(),
  /** DESIGN §22: an inactive product is not offered in the catalogue or at the counter, and is not sold (409). */
  active: z.boolean(),
  /** DESIGN §22: the item this product is a variant of; null for a product on its own. */
  item: Named.nullable(),
  /** DESIGN §22: a variant's value of each of its item's options; null without an item. */
  optionValues: z.record(z.string(), z.string()).nullable(),
});
export type Product = z.infer<typeof Product>;

export const Stock = z
  .number({ error: 'Stock must be a number.' })
  .int({ error: 'Stock must be a whole number.' })
  .min(0, { error: 'Stock must be 0 or more.' })
  .max(2_147_483_647, { error: 'Stock is too large.' });

export const ReorderPoint = z
  .number({ error: 'Reorder point must be a number.' })
  .int({ error: 'Reorder point must be a whole number.' })
  .min(0, { error: 'Reorder point must be 0 or more.' })
  .max(1_000_000, { error: 'Reorder point is too large.' });

export const ReorderQuantity = z
  .number({ error: 'Reorder quantity must be a number.' })
  .int({ error: 'Reorder quantity must be a whole number.' })
  .min(1, { error: 'Reorder quantity must be at least 1.' })
  .max(1_000_000, { error: 'Reorder quantity is too large.' });

/**
 * A SKU or barcode: what a scanner types, so no spaces; blank means none (null). Unique ignoring
 * case among products.
 */
export const ProductCode = (label: string) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(MAX.code, { error: `${label} must be at most ${MAX.code} characters.` })
    .regex(/^[\x21-\x7e]*$/, { error: `${label} may hold only letters, digits and symbols, no spaces.` })
    .transform((code) => (code === '' ? null : code))
    .nullable();

/** A code as the counter looks it up (GET /api/products/code/:code). */
export const ProductCodeParams = z.object({
  code: z
    .string()
    .trim()
    .min(1, { error: 'Give a barcode or SKU.' })
    .max(MAX.code, {
      error: `A barcode or SKU has at most ${MAX.code} characters.`,
    }),
});

/**
 * cost, reorderPoint, reorderQuantity, sku, barcode and taxRate may be null (none: unknown cost, the
 * store's reorder point, the computed quantity, no code, the store's default tax rate). Left out, a new product has none and an edit keeps them, so a
 * client that does not know them never erases them.
 */
export const ProductInput = z.object({
  name: requiredText(MAX.name, 'Product name'),
  description: optionalText(MAX.description).default(''),
  price: Money,
  stock: Stock,
  category: Id.describe('Category id'),
  supplier: Id.describe('Supplier id'),
  cost: UnitCost.nullable().optional(),
  reorderPoint: ReorderPoint.nullable().optional(),
  reorderQuantity: ReorderQuantity.nullable().optional(),
  sku: ProductCode('SKU').optional(),
  barcode: ProductCode('Barcode').optional(),
  taxRate: TaxRateRef('Tax rate').optional().describe("A tax rate id; null: the store's default"),
  /** DESIGN §15. Left out: a new product is 'none' and an edit keeps it. */
  tracking: Tracking.optional(),
  /**
   * The lot the stock goes into when a lot-tracked product is created with stock, or when tracking
   * is turned on over the stock there is (a new number with its expiry, or a known one).
   */
  lot: LotRef.optional(),
  /** DESIGN §22. Left out: a new product has none and an edit keeps it; null: none. */
  brand: optionalText(MAX.name).nullable().optional(),
  /** DESIGN §22. Left out: a new product is active and an edit keeps it. */
  active: z.boolean({ error: 'active must be true or false.' }).optional(),
});
export type ProductInput = z.input<typeof ProductInput>;

/**
 * An edit may say which stock the form showed (`expectedStock`). When the stock changed
 * meanwhile and the form's stock differs from it, the edit is refused (409) instead of
 * overwriting sales (DESIGN §8).
 */
export const ProductUpdateInput = ProductInput.extend({
  expectedStock: Stock.optional().describe('The stock the form showed when it was opened'),
});
export type ProductUpdateInput = z.input<typeof ProductUpdateInput>;

export const ProductResponse = Ok.extend({ product: Product });
export const PRODUCT_SORTS = ['name', '-name', 'price', '-price', 'stock', '-stock'] as const;
export const ProductQuery = PageQuery.extend({
  category: Id.optional(),
  sort: z.enum(PRODUCT_SORTS, { error: `sort must be one of ${PRODUCT_SORTS.join(', ')}.` }).optional(),
  format: ExportFormat,
  /** DESIGN §17: each product's `stock` at this location, beside its `stockTotal` (the CSV's Stock too). */
  location: LocationId.optional(),
  /**
   * DESIGN §22: `true` (the default for the selling roles, who are never offered an inactive
   * product), `false` (only inactive ones) or `all` (an admin's default).
   */
  active: z.enum(['true', 'false', 'all'], { error: 'active must be one of true, false, all.' }).optional(),
  /** DESIGN §22: only the variants of this item. */
  item: Id.optional(),
});

/**
 * The columns of the products CSV, in order (always by name; search and category kept): exactly
 * the catalogue import's twelve (DESIGN §14) and, since variants (§22), the item, its options and
 * this product's values (empty for a product on its own), the brand and Active (`true`, `false`), so a file exported, edited and imported again
 * round-trips. `Tax rate` holds the rate's name; it and `Reorder point` are empty where the
 * product follows the store's default. Without `Cost` for a role that does not read costs.
 */
export const PRODUCT_CSV_HEADER = [
  'Name',
  'SKU',
  'Barcode',
  'Description',
  'Category',
  'Supplier',
  'Price',
  'Cost',
  'Stock',
  'Reorder point',
  'Reorder quantity',
  'Tax rate',
  'Item',
  'Option 1',
  'Value 1',
  'Option 2',
  'Value 2',
  'Option 3',
  'Value 3',
  'Brand',
  'Active',
] as const;
export type ProductQuery = z.input<typeof ProductQuery>;

/** The categories and suppliers a product can be given, for filters and the product form. */
export const ProductChoicesResponse = Ok.extend({
  categories: z.array(Category),
  suppliers: z.array(Named),
});
export type ProductChoicesResponse = z.infer<typeof ProductChoicesResponse>;

/**
 * The whole catalogue also carries the categories and suppliers (as DESIGN §3 has it); a page
 * does not, so paging through 100k products does not send them again each time: a page's
 * screen asks GET /api/products/choices once.
 */
export const ProductListResponse = Ok.extend({
  products: z.array(Product),
  categories: z.array(Category).optional(),
  suppliers: z.array(Named).optional(),
}).extend(PageInfo.shape);
export type ProductListResponse = z.infer<typeof ProductListResponse>;

export type StockLevel = 'out' | 'low' | 'ok';
/** Out at 0, low at or below the product's reorder point (which the server answers), ok above. */
export function stockLevel(stock: number, reorderPoint: number): StockLevel {
  if (stock <= 0) return 'out';
  return stock <= reorderPoint ? 'low' : 'ok';
}
