/**
 * Money at the counter (DESIGN §12): the one computation of every amount of a sale, used by the
 * counter's preview, by the server on the database's own prices (inside the sale's statement)
 * and, through what the server stored, by receipts and reports. Pure: no I/O, no clock.
 *
 * Amounts are whole cents as bigint, so any cart the schemas allow (prices below 10^9, quantities
 * up to 10^6, 100 lines) is exact; rates and percents are thousandths of a percent (8.875 % →
 * 8875n). Every rounding is half away from zero to the cent (amounts here are never negative, so
 * half up).
 */

/** A discount as given: a percent (0–100, at most 3 decimals) or an amount of money (2 decimals). */
export type Discount = { type: 'percent' | 'amount'; value: number };

/** A tax rate as a line is taxed at it: its name and percent (at most 3 decimals); null: untaxed. */
export type LineRate = { name: string; rate: number } | null;

export type CartLine = {
  /** The unit price in money (12.34 or "12.34"), at most 2 decimals. */
  unitPrice: number | string;
  quantity: number;
  taxRate: LineRate;
  discount?: Discount | null;
};

export type Cart = {
  lines: readonly CartLine[];
  discount?: Discount | null;
  pricesIncludeTax: boolean;
};

/** One line's money, in cents. `discount` = its own + its share of the cart's; net = total − tax. */
export type PricedLine = {
  gross: bigint;
  lineDiscount: bigint;
  cartShare: bigint;
  discount: bigint;
  amount: bigint;
  tax: bigint;
  total: bigint;
  net: bigint;
};

/** Tax of one rate over the lines taxed at it: base is their net. */
export type RateTax = { name: string; rate: number; base: bigint; tax: bigint };

export type PricedCart = {
  lines: PricedLine[];
  /** Σ gross. */
  subtotal: bigint;
  /** Every discount: Σ line discounts + the cart discount. */
  discount: bigint;
  cartDiscount: bigint;
  tax: bigint;
  total: bigint;
  net: bigint;
  /** One entry per rate on a line (0 % too), in the order the lines first name them. */
  taxes: RateTax[];
};

/** Why a cart cannot be priced: an amount discount above what it applies to. */
export type CartProblem =
  | { problem: 'lineDiscountAboveGross'; line: number }
  | { problem: 'cartDiscountAboveSubtotal' };

const PERCENT = 100_000n; // 100 % in thousandths of a percent

/** Money (12.34, "12.34", "-0.5") as whole cents; it must have at most 2 decimals. */
export function toCents(value: number | string): bigint {
  const text = typeof value === 'number' ? value.toFixed(2) : value.trim();
  const match = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw new RangeError(`Not an amount of money: ${text}`);
  const cents = BigInt(match[2] as string) * 100n + BigInt((match[3] ?? '').padEnd(2, '0') || '0');
  return match[1] ? -cents : cents;
}

/** A percent with at most 3 decimals (8.875) in thousandths of a percent (8875n). */
export function toMilliPercent(percent: number): bigint {
  return BigInt(Math.round(percent * 1000));
}

/** Cents as money text ("-12.05"), for SQL numeric parameters and exact display. */
export function centsText(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const whole = cents < 0n ? -cents : cents;
  return `${sign}${whole / 100n}.${String(whole % 100n).padStart(2, '0')}`;
}

/** Cents as a JSON number of money (exact to the cent below 2^53 cents). */
export function centsNumber(cents: bigint): number {
  return Number(centsText(cents));
}

/** Money as the database writes it ("12.30"; null as 0) as a JSON number of money, exact to the cent. */
export function moneyOfText(text: string | null | undefined): number {
  return centsNumber(toCents(text ?? '0'));
}

/**
 * The one way money is written for people: grouped, two decimals, the sign before the symbol
 * ("$1,334.16", "-$5.00", "€12.00"), in `currency`, the store's (DESIGN §12; USD until the store
 * chooses another). Every screen writes money with it, and the server's sentences through
 * formatCents. `value` is money as a number (12.34) or as exact text ("12.34"), which Intl writes
 * digit for digit, however large.
 */
export function formatMoney(value: number | string, currency = 'USD'): string {
  return moneyFormat(currency).format(value as number);
}

/** Cents as formatMoney writes them, exactly: how a sentence names an amount ("The drawer holds $20.00."). */
export function formatCents(cents: bigint, currency = 'USD'): string {
  return formatMoney(centsText(cents), currency);
}

const MONEY_FORMATS = new Map<string, Intl.NumberFormat>();
function moneyFormat(currency: string): Intl.NumberFormat {
  let format = MONEY_FORMATS.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      // -0 and a rounded-away minus read $0.00.
      signDisplay: 'negative',
    });
    MONEY_FORMATS.set(currency, format);
  }
  return format;
}

/** numerator / denominator rounded half away from zero (denominator > 0). */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const half = numerator < 0n ? -denominator : denominator;
  return (2n * numerator + half) / (2n * denominator);
}

function discountOf(discount: Discount | null | undefined, base: bigint): bigint {
  if (!discount) return 0n;
  return discount.type === 'percent'
    ? divideRounded(base * toMilliPercent(discount.value), PERCENT)
    : toCents(discount.value);
}

/**
 * Shares `total` cents over `weights` in proportion: each share rounded down, the cents left over
 * one each to the largest remainders (ties: the earlier). The shares add up to `total` exactly.
 */
export function shareOut(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (sum === 0n) return weights.map(() => 0n);
  const shares = weights.map((weight) => (total * weight) / sum);
  let left = total - shares.reduce((a, b) => a + b, 0n);
  const byRemainder = weights
    .map((weight, at) => ({ at, remainder: (total * weight) % sum }))
    .sort((a, b) => (a.remainder === b.remainder ? a.at - b.at : a.remainder > b.remainder ? -1 : 1));
  for (const { at } of byRemainder) {
    if (left === 0n) break;
    shares[at] = (shares[at] as bigint) + 1n;
    left -= 1n;
  }
  return shares;
}

/** Tax of an amount at a rate (thousandths of a percent), as the store's prices are written. */
function taxOf(amount: bigint, rate: bigint, pricesIncludeTax: boolean): bigint {
  if (rate === 0n) return 0n;
  return pricesIncludeTax
    ? divideRounded(amount * rate, PERCENT + rate)
    : divideRounded(amount * rate, PERCENT);
}

/** The tax of an amount without tax at a percent (§12 step 5, prices without tax): a supplier's bill line. */
export function lineTax(amount: bigint, percent: number): bigint {
  return taxOf(amount, toMilliPercent(percent), false);
}

/** Every amount of a cart (DESIGN §12 steps 1–6), or why it cannot be priced. */
export function priceCart(cart: Cart): PricedCart | CartProblem {
  const gross = cart.lines.map((line) => toCents(line.unitPrice) * BigInt(line.quantity));
  const lineDiscounts = cart.lines.map((line, at) => discountOf(line.discount, gross[at] as bigint));
  const overLine = lineDiscounts.findIndex((discount, at) => discount > (gross[at] as bigint));
  if (overLine >= 0) return { problem: 'lineDiscountAboveGross', line: overLine };
  const afterLine = gross.map((value, at) => value - (lineDiscounts[at] as bigint));
  const afterLineSum = afterLine.reduce((a, b) => a + b, 0n);
  const cartDiscount = discountOf(cart.discount, afterLineSum);
  if (cartDiscount > afterLineSum) return { problem: 'cartDiscountAboveSubtotal' };
  const shares = shareOut(cartDiscount, afterLine);

  const lines = cart.lines.map((line, at): PricedLine => {
    const amount = (afterLine[at] as bigint) - (shares[at] as bigint);
    const rate = line.taxRate ? toMilliPercent(line.taxRate.rate) : 0n;
    const tax = taxOf(amount, rate, cart.pricesIncludeTax);
    const total = cart.pricesIncludeTax ? amount : amount + tax;
    const net = total - tax;
    const lineDiscount = lineDiscounts[at] as bigint;
    const cartShare = shares[at] as bigint;
    return {
      gross: gross[at] as bigint,
      lineDiscount,
      cartShare,
      discount: lineDiscount + cartShare,
      amount,
      tax,
      total,
      net,
    };
  });
  const sum = (pick: (line: PricedLine) => bigint) => lines.reduce((a, line) => a + pick(line), 0n);
  return {
    lines,
    subtotal: sum((line) => line.gross),
    discount: sum((line) => line.discount),
    cartDiscount,
    tax: sum((line) => line.tax),
    total: sum((line) => line.total),
    net: sum((line) => line.net),
    taxes: taxesByRate(
      lines.map((line, at) => ({ taxRate: cart.lines[at]?.taxRate ?? null, net: line.net, tax: line.tax })),
    ),
  };
}

/**
 * The taxes by rate of taxed lines (DESIGN §12): one entry per rate a line names (its name and
 * percent; 0 % too), in the order the lines first name them; base = Σ their net, tax = Σ their
 * tax. Untaxed lines (null) are not listed. The counter's preview and the receipt both call it.
 */
export function taxesByRate(lines: readonly { taxRate: LineRate; net: bigint; tax: bigint }[]): RateTax[] {
  const taxes = new Map<string, RateTax>();
  for (const { taxRate, net, tax } of lines) {
    if (!taxRate) continue;
    const key = `${taxRate.name}\u0000${toMilliPercent(taxRate.rate)}`;
    const entry = taxes.get(key) ?? { name: taxRate.name, rate: taxRate.rate, base: 0n, tax: 0n };
    entry.base += net;
    entry.tax += tax;
    taxes.set(key, entry);
  }
  return [...taxes.values()];
}

export function isCartProblem(priced: PricedCart | CartProblem): priced is CartProblem {
  return 'problem' in priced;
}

/**
 * The lines whose discounts (their own and their cart share together) exceed `maxPercent` (0–100,
 * 2 decimals) of their gross: a selling role needs a manager's approval for them (DESIGN §12).
 * The limit is in cents, rounded as a discount of that percent would be: 10 % of 2.99 is 0.30
 * either way, so a clerk giving exactly the allowed percent is never asked for an approval.
 */
export function linesOverLimit(priced: PricedCart, maxPercent: number): number[] {
  const limit = BigInt(Math.round(maxPercent * 100)); // hundredths of a percent
  const over: number[] = [];
  priced.lines.forEach((line, at) => {
    if (line.discount > divideRounded(line.gross * limit, 10_000n)) over.push(at);
  });
  return over;
}

/**
 * What a return gives back (DESIGN §12): a return that brings the units returned of a line to
 * `returnedAfter` gives back round(paid × returnedAfter / quantity) − what was given back so far,
 * so the last unit takes what is left and a whole return gives back all that was paid. The same
 * rule gives back the tax.
 */
export function refundDue(paid: bigint, quantity: number, returnedAfter: number, givenBack: bigint): bigint {
  return divideRounded(paid * BigInt(returnedAfter), BigInt(quantity)) - givenBack;
}
