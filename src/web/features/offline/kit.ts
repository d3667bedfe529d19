import { type Product, ProductListResponse } from '../../../shared/products';
import { matchesWords } from '../../../shared/search';
import type { StoreSettings } from '../../../shared/store';
import type { RegisterSession } from '../../../shared/till';
import { api } from '../../lib/api';
import { withQuery } from '../../lib/paging';
import { type CounterKit, offlineDatabase } from './database';
import type { QueuedSale } from './queue';

export type { CounterKit } from './database';

/**
 * What the counter keeps to sell offline (DESIGN §21): one kit per seller in the device's own
 * database, read again while online (see useCounterKit). Offline, the counter scans and searches
 * these products, prices by these settings and sells in this session.
 */

/**
 * Reads a new kit from the server: every active product at the session's location, with the
 * store's settings as the counter has just read them.
 */
export async function readKit(
  sellerId: string,
  session: RegisterSession,
  store: StoreSettings,
  now = new Date(),
): Promise<CounterKit> {
  // Without page and pageSize the list is the whole catalogue, streamed (one call, not thousands).
  const query = { location: session.location._id, active: 'true' as const };
  const catalogue = await api(withQuery('/products', query), { schema: ProductListResponse });
  return { sellerId, keptAt: now.toISOString(), session, store, products: catalogue.products };
}

/** Keeps the seller's kit on the device, in place of the one before. */
export async function keepKit(kit: CounterKit): Promise<void> {
  const database = await offlineDatabase();
  await database.put('kits', kit);
}

/** The seller's kit on this device, or undefined when none was kept. */
export async function kitOf(sellerId: string): Promise<CounterKit | undefined> {
  const database = await offlineDatabase();
  return database.get('kits', sellerId);
}

/**
 * The kit's products with the stock left for selling offline: what the server said at keptAt,
 * less the units of the sales kept on this device since then (sold, not yet sent).
 */
export function productsLeft(kit: CounterKit, waitingSales: readonly QueuedSale[]): Product[] {
  const sold = new Map<string, number>();
  const keptAt = Date.parse(kit.keptAt);
  for (const sale of waitingSales) {
    if (!(Date.parse(sale.madeAt) >= keptAt)) continue;
    for (const line of sale.body.lines)
      sold.set(line.productId, (sold.get(line.productId) ?? 0) + line.quantity);
  }
  if (sold.size === 0) return kit.products;
  return kit.products.map((product) => {
    const units = sold.get(product._id);
    return units ? { ...product, stock: Math.max(0, product.stock - units) } : product;
  });
}

/** A word of a name as the search compares it: lower case, accents kept. */
/**
 * The kit's search, as the server's is (src/shared/search.ts, the rule of every list's search):
 * the products whose name holds every word typed, or whose SKU or barcode is the whole search
 * exactly (ignoring case), in name order, at most `limit`.
 */
export function searchKit(products: readonly Product[], text: string, limit: number): Product[] {
  const code = text.trim().toLowerCase();
  if (!code) return [];
  return products
    .filter(
      (product) =>
        matchesWords(product.name, text) ||
        product.sku?.toLowerCase() === code ||
        product.barcode?.toLowerCase() === code,
    )
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, limit);
}
