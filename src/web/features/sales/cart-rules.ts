import {
  type CartProblem,
  type Discount,
  isCartProblem,
  type PricedCart,
  priceCart,
} from '../../../shared/money';
import type { Product } from '../../../shared/products';
import { DiscountInput } from '../../../shared/sales';

/**
 * One line of the cart: the product as last read (its price, stock and tax rate), the quantity
 * box's text and the line's own discount (DESIGN §12), if any.
 */
export type CartLine = { product: Product; quantity: string; discount?: Discount | null };
export type Cart = readonly CartLine[];

/** Money in whole cents, so sums stay exact (0.1 + 0.2 is 30 cents, not 0.30000000000000004). */
export function toCents(money: number): number {
  return Math.round(money * 100);
}

/** The quantity a box holds: a whole number of at least 1, or null (empty, 0, decimals, text). */
export function quantityOf(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= 1 ? value : null;
}

/**
 * A scanned or picked product: a new line with quantity 1, or 1 more on its line when it is
 * already in the cart. The line takes the product as just read, so its stock is the latest known.
 */
export function addToCart(cart: Cart, product: Product): Cart {
  const index = cart.findIndex((line) => line.product._id === product._id);
  if (index < 0) return [...cart, { product, quantity: '1' }];
  return cart.map((line, at) =>
    at === index ? { product, quantity: String((quantityOf(line.quantity) ?? 0) + 1) } : line,
  );
}

/** What was typed into a line's quantity box, kept as typed (an empty box while typing too). */
export function setQuantity(cart: Cart, productId: string, quantity: string): Cart {
  return cart.map((line) => (line.product._id === productId ? { ...line, quantity } : line));
}

/** + and −: one more or one less, never below 1 (Delete removes a line). */
export function stepQuantity(cart: Cart, productId: string, step: 1 | -1): Cart {
  return cart.map((line) =>
    line.product._id === productId
      ? { ...line, quantity: String(Math.max(1, (quantityOf(line.quantity) ?? 0) + step)) }
      : line,
  );
}

export function removeLine(cart: Cart, productId: string): Cart {
  return cart.filter((line) => line.product._id !== productId);
}

/** A line's own discount, or none (null). */
export function setLineDiscount(cart: Cart, productId: string, discount: Discount | null): Cart {
  return cart.map((line) => (line.product._id === productId ? { ...line, discount } : line));
}

/**
 * The cart priced by the one computation the server makes (src/shared/money.ts), on the prices,
 * quantities and rates the counter knows: the screen shows what the receipt will say. A line
 * without a usable quantity counts 0.
 */
export function priceOf(
  cart: Cart,
  discount: Discount | null,
  pricesIncludeTax: boolean,
): PricedCart | CartProblem {
  return priceCart({
    lines: cart.map((line) => ({
      unitPrice: line.product.price,
      quantity: quantityOf(line.quantity) ?? 0,
      taxRate: line.product.taxRate
        ? { name: line.product.taxRate.name, rate: line.product.taxRate.rate }
        : null,
      discount: line.discount ?? null,
    })),
    discount,
    pricesIncludeTax,
  });
}

export { isCartProblem };

/**
 * A discount as typed in the counter's editor: the discount, null for none (empty or 0), or the
 * sentence that says what is wrong (the shared schema's: at most 100 %, 2 decimals for money…).
 */
export function discountFrom(
  type: Discount['type'],
  text: string,
): { discount: Discount | null } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { discount: null };
  const value = /^(\d+(\.\d*)?|\.\d+)$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  const parsed = DiscountInput.safeParse({ type, value });
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'Enter a valid discount.' };
  return { discount: parsed.data.value === 0 ? null : parsed.data };
}

/** A rate or percent as people write it: 8.875%, 10%, 0%. */
export function formatPercent(value: number): string {
  return `${Number(value.toFixed(3))}%`;
}

/** The products whose stock the server answered anew (after a refused sale), on their lines. */
export function refreshProducts(cart: Cart, products: readonly Product[]): Cart {
  return cart.map((line) => ({
    ...line,
    product: products.find((product) => product._id === line.product._id) ?? line.product,
  }));
}

function lineCents(line: CartLine): number {
  return (quantityOf(line.quantity) ?? 0) * toCents(line.product.price);
}

/** quantity × unit price; 0 while the box holds no usable quantity. */
export function lineTotal(line: CartLine): number {
  return lineCents(line) / 100;
}

/** The sum of the lines, added in cents. */
export function cartTotal(cart: Cart): number {
  return cart.reduce((sum, line) => sum + lineCents(line), 0) / 100;
}

/** How many units the cart holds (lines without a usable quantity count 0). */
export function itemCount(cart: Cart): number {
  return cart.reduce((sum, line) => sum + (quantityOf(line.quantity) ?? 0), 0);
}

/** More than the stock last read: the sale would be refused, so it is flagged before sending. */
export function isAboveStock(line: CartLine): boolean {
  return (quantityOf(line.quantity) ?? 0) > line.product.stock;
}

/** Cash handed over as typed: its amount, null while empty, NaN when it is not an amount. */
export function tenderedOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d+(\.\d{1,2})?$/.test(trimmed) || /^\.\d{1,2}$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** tendered − total, in cents; negative when the cash does not cover the total. */
export function changeFor(tendered: number, total: number): number {
  return (toCents(tendered) - toCents(total)) / 100;
}

/** The product whose SKU or barcode is exactly this code, ignoring case (what a scanner types). */
export function codeMatch(products: readonly Product[], code: string): Product | undefined {
  const wanted = code.trim().toLowerCase();
  if (!wanted) return undefined;
  return products.find(
    (product) => product.sku?.toLowerCase() === wanted || product.barcode?.toLowerCase() === wanted,
  );
}
