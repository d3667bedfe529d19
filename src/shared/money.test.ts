import { describe, expect, it } from 'vitest';
import {
  type Cart,
  type CartLine,
  centsNumber,
  centsText,
  type Discount,
  divideRounded,
  formatCents,
  formatMoney,
  isCartProblem,
  linesOverLimit,
  type PricedCart,
  priceCart,
  refundDue,
  shareOut,
  toCents,
} from './money';

function priced(cart: Cart): PricedCart {
  const result = priceCart(cart);
  if (isCartProblem(result)) throw new Error(`unexpected problem ${result.problem}`);
  return result;
}

const money = (cents: bigint) => centsText(cents);

describe('the money computation (DESIGN §12)', () => {
  it('prices a line without tax: gross, percent discount, tax on the amount, total', () => {
    const cart = priced({
      lines: [
        {
          unitPrice: 19.99,
          quantity: 3,
          taxRate: { name: 'Standard', rate: 8.875 },
          discount: { type: 'percent', value: 10 },
        },
      ],
      pricesIncludeTax: false,
    });
    const [line] = cart.lines;
    // 59.97 gross; 10 % = 5.997 → 6.00; amount 53.97; tax 53.97 × 8.875 % = 4.7898… → 4.79.
    expect(money(line?.gross ?? 0n)).toBe('59.97');
    expect(money(line?.discount ?? 0n)).toBe('6.00');
    expect(money(line?.amount ?? 0n)).toBe('53.97');
    expect(money(line?.tax ?? 0n)).toBe('4.79');
    expect(money(cart.total)).toBe('58.76');
    expect(money(cart.net)).toBe('53.97');
    expect(cart.taxes).toEqual([{ name: 'Standard', rate: 8.875, base: 5397n, tax: 479n }]);
  });

  it('takes the tax out of prices that include it', () => {
    const cart = priced({
      lines: [{ unitPrice: '12.00', quantity: 1, taxRate: { name: 'VAT', rate: 20 } }],
      pricesIncludeTax: true,
    });
    // 12.00 × 20 / 120 = 2.00; the customer pays 12.00, of which 10.00 is net.
    expect(money(cart.total)).toBe('12.00');
    expect(money(cart.tax)).toBe('2.00');
    expect(money(cart.net)).toBe('10.00');
  });

  it('rounds half away from zero to the cent', () => {
    expect(divideRounded(5n, 10n)).toBe(1n);
    expect(divideRounded(15n, 10n)).toBe(2n);
    expect(divideRounded(14n, 10n)).toBe(1n);
    expect(divideRounded(-5n, 10n)).toBe(-1n);
    expect(divideRounded(-15n, 10n)).toBe(-2n);
    // 0.10 at 5 %: 0.5 cent of tax rounds up to 1 cent.
    const cart = priced({
      lines: [{ unitPrice: 0.1, quantity: 1, taxRate: { name: 'R', rate: 5 } }],
      pricesIncludeTax: false,
    });
    expect(cart.tax).toBe(1n);
  });

  it('shares a cart discount over the lines, the left-over cents to the largest remainders, ties to the earlier line', () => {
    // 1.00 over three equal lines: 33 each and one cent left, which goes to the first line.
    expect(shareOut(100n, [500n, 500n, 500n])).toEqual([34n, 33n, 33n]);
    // 0.10 over 1, 2, 3: exact shares 1.67, 3.33, 5 → floors 1, 3, 5 (9), one left to the 0.67.
    expect(shareOut(10n, [100n, 200n, 300n])).toEqual([2n, 3n, 5n]);
    expect(shareOut(7n, [0n, 0n])).toEqual([0n, 0n]);
    const cart = priced({
      lines: [
        { unitPrice: 10, quantity: 1, taxRate: null },
        { unitPrice: 10, quantity: 1, taxRate: null, discount: { type: 'amount', value: 5 } },
        { unitPrice: 20, quantity: 1, taxRate: null },
      ],
      discount: { type: 'amount', value: 1 },
      pricesIncludeTax: false,
    });
    // After line discounts: 10, 5, 20 (35); 1.00 shared: 28.57, 14.28, 57.14 → 28, 14, 57 (99) + 1 to the first.
    expect(cart.lines.map((line) => line.cartShare)).toEqual([29n, 14n, 57n]);
    expect(cart.cartDiscount).toBe(100n);
    expect(money(cart.discount)).toBe('6.00');
    expect(money(cart.total)).toBe('34.00');
  });

  it('refuses an amount discount above what it applies to', () => {
    expect(
      priceCart({
        lines: [{ unitPrice: 5, quantity: 2, taxRate: null, discount: { type: 'amount', value: 10.01 } }],
        pricesIncludeTax: false,
      }),
    ).toEqual({ problem: 'lineDiscountAboveGross', line: 0 });
    expect(
      priceCart({
        lines: [{ unitPrice: 5, quantity: 2, taxRate: null, discount: { type: 'amount', value: 1 } }],
        discount: { type: 'amount', value: 9.01 },
        pricesIncludeTax: false,
      }),
    ).toEqual({ problem: 'cartDiscountAboveSubtotal' });
    // Exactly all of it is allowed: a free line.
    const free = priced({
      lines: [
        {
          unitPrice: 5,
          quantity: 2,
          taxRate: { name: 'S', rate: 10 },
          discount: { type: 'amount', value: 10 },
        },
      ],
      pricesIncludeTax: false,
    });
    expect(free.total).toBe(0n);
  });

  it('lists every rate on a line, 0 % too, and none for untaxed lines', () => {
    const cart = priced({
      lines: [
        { unitPrice: 1, quantity: 1, taxRate: { name: 'Zero', rate: 0 } },
        { unitPrice: 2, quantity: 1, taxRate: null },
        { unitPrice: 3, quantity: 1, taxRate: { name: 'Reduced', rate: 5 } },
        { unitPrice: 4, quantity: 1, taxRate: { name: 'Zero', rate: 0 } },
      ],
      pricesIncludeTax: false,
    });
    expect(cart.taxes).toEqual([
      { name: 'Zero', rate: 0, base: 500n, tax: 0n },
      { name: 'Reduced', rate: 5, base: 300n, tax: 15n },
    ]);
  });

  it('judges the discount limit on each line, its own and its cart share together', () => {
    const cart = priced({
      lines: [
        { unitPrice: 100, quantity: 1, taxRate: null, discount: { type: 'percent', value: 5 } },
        { unitPrice: 100, quantity: 1, taxRate: null },
      ],
      discount: { type: 'amount', value: 10 },
      pricesIncludeTax: false,
    });
    // Line 1: 5.00 + 10 × 95/195 = 4.87 → 9.87 (9.87 %); line 2: 5.13 (5.13 %).
    expect(linesOverLimit(cart, 10)).toEqual([]);
    // Exactly the allowed percent never needs an approval, however its cents round: 10 % of 2.99
    // is 0.299, given as 0.30; 0.31 is above it.
    const small = (discount: Discount) =>
      priced({ lines: [{ unitPrice: 2.99, quantity: 1, taxRate: null, discount }], pricesIncludeTax: false });
    expect(linesOverLimit(small({ type: 'percent', value: 10 }), 10)).toEqual([]);
    expect(linesOverLimit(small({ type: 'amount', value: 0.3 }), 10)).toEqual([]);
    expect(linesOverLimit(small({ type: 'amount', value: 0.31 }), 10)).toEqual([0]);
    expect(linesOverLimit(cart, 9.86)).toEqual([0]);
    expect(linesOverLimit(cart, 5)).toEqual([0, 1]);
    expect(linesOverLimit(cart, 0)).toEqual([0, 1]);
    expect(
      linesOverLimit(
        priced({ lines: [{ unitPrice: 0, quantity: 1, taxRate: null }], pricesIncludeTax: false }),
        0,
      ),
    ).toEqual([]);
  });

  it('gives back a line pro rata, exact to the cent over all its units', () => {
    // 3 × 10.00 less 1.00: 29.00 paid. One unit at a time: 9.67, 9.66, 9.67.
    const paid = 2900n;
    let givenBack = 0n;
    const refunds: string[] = [];
    for (let returned = 1; returned <= 3; returned++) {
      const refund = refundDue(paid, 3, returned, givenBack);
      refunds.push(money(refund));
      givenBack += refund;
    }
    expect(refunds).toEqual(['9.67', '9.66', '9.67']);
    expect(givenBack).toBe(paid);
    expect(refundDue(paid, 3, 3, 0n)).toBe(paid);
  });

  it('reads money exactly and writes it back', () => {
    expect(toCents(0.1 + 0.2)).toBe(30n);
    expect(toCents('999999999.99')).toBe(99_999_999_999n);
    expect(toCents('-0.5')).toBe(-50n);
    expect(toCents(1.1)).toBe(110n);
    expect(() => toCents('1.234')).toThrow();
    expect(() => toCents(Number.NaN)).toThrow();
    expect(centsText(-1205n)).toBe('-12.05');
    expect(centsText(7n)).toBe('0.07');
    expect(centsNumber(1234n)).toBe(12.34);
  });
});

// --- A straightforward reference, written apart from the module: rationals of BigInt and the
// spec's steps read literally, so that a shared mistake is unlikely.

type Ref = {
  lines: { gross: bigint; discount: bigint; tax: bigint; total: bigint }[];
  total: bigint;
  tax: bigint;
};

/** round(n / d) half away from zero, for n ≥ 0, d > 0, by the remainder. */
function roundHalfUp(n: bigint, d: bigint): bigint {
  const q = n / d;
  return (n % d) * 2n >= d ? q + 1n : q;
}

/** A decimal (as text or number) as a fraction [numerator, denominator]. */
function fraction(value: number | string): [bigint, bigint] {
  const text = typeof value === 'number' ? String(value) : value;
  const [whole, decimals = ''] = text.split('.');
  const scale = 10n ** BigInt(decimals.length);
  return [BigInt((whole ?? '0') + decimals), scale];
}

function refDiscount(discount: Discount | null | undefined, base: bigint): bigint {
  if (!discount) return 0n;
  const [n, d] = fraction(discount.value);
  return discount.type === 'percent' ? roundHalfUp(base * n, d * 100n) : (n * 100n) / d;
}

function reference(cart: Cart): Ref | 'problem' {
  const gross = cart.lines.map((line) => {
    const [n, d] = fraction(line.unitPrice);
    return ((n * 100n) / d) * BigInt(line.quantity);
  });
  const own = cart.lines.map((line, i) => refDiscount(line.discount, gross[i] as bigint));
  if (own.some((value, i) => value > (gross[i] as bigint))) return 'problem';
  const after = gross.map((value, i) => value - (own[i] as bigint));
  const subtotal = after.reduce((a, b) => a + b, 0n);
  const cartDiscount = refDiscount(cart.discount, subtotal);
  if (cartDiscount > subtotal) return 'problem';
  const share = after.map(() => 0n);
  if (subtotal > 0n) {
    // Exact shares as fractions x_i = D × a_i / S: floor, then the largest fractional parts, earlier first.
    const order = after.map((_, i) => i);
    let given = 0n;
    after.forEach((a, i) => {
      share[i] = (cartDiscount * a) / subtotal;
      given += share[i] as bigint;
    });
    order.sort((i, j) => {
      const ri = (cartDiscount * (after[i] as bigint)) % subtotal;
      const rj = (cartDiscount * (after[j] as bigint)) % subtotal;
      return ri === rj ? i - j : rj > ri ? 1 : -1;
    });
    for (let k = 0; given < cartDiscount; k++, given++)
      share[order[k] as number] = (share[order[k] as number] as bigint) + 1n;
  }
  const lines = cart.lines.map((line, i) => {
    const amount = (after[i] as bigint) - (share[i] as bigint);
    const [rn, rd] = line.taxRate ? fraction(line.taxRate.rate) : [0n, 1n];
    // r % of amount: amount × rn / (rd × 100); included: amount × r / (100 + r) = amount × rn / (100 rd + rn).
    const tax = cart.pricesIncludeTax
      ? roundHalfUp(amount * rn, 100n * rd + rn)
      : roundHalfUp(amount * rn, 100n * rd);
    return {
      gross: gross[i] as bigint,
      discount: (own[i] as bigint) + (share[i] as bigint),
      tax,
      total: cart.pricesIncludeTax ? amount : amount + tax,
    };
  });
  return {
    lines,
    total: lines.reduce((a, l) => a + l.total, 0n),
    tax: lines.reduce((a, l) => a + l.tax, 0n),
  };
}

/** A small seeded generator (mulberry32), so a failure is reproducible. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * (max + 1));
  return { next, int };
}

const RATES = [
  { name: 'Zero', rate: 0 },
  { name: 'Reduced', rate: 5 },
  { name: 'NYC', rate: 8.875 },
  { name: 'VAT', rate: 20 },
  { name: 'Odd', rate: 7.125 },
  { name: 'All', rate: 100 },
];

function randomCart(random: ReturnType<typeof generator>): Cart {
  const centsOf = (max: number) => {
    // Mostly shop prices, sometimes the largest the schemas allow.
    const big = random.next() < 0.05;
    return big ? 99_999_999_999 - random.int(1000) : random.int(max);
  };
  const money = (cents: number) => (random.next() < 0.5 ? cents / 100 : (cents / 100).toFixed(2));
  const discount = (base: number): Discount | undefined => {
    const pick = random.next();
    if (pick < 0.4) return undefined;
    if (pick < 0.7) return { type: 'percent', value: random.int(100_000) / 1000 };
    return { type: 'amount', value: random.int(Math.max(0, base)) / 100 };
  };
  const lines: CartLine[] = [];
  for (let n = 1 + random.int(9); n > 0; n--) {
    // A third of the lines repeat the one before, so that equal remainders (ties) are common.
    const before = lines.at(-1);
    if (before && random.next() < 0.33) {
      lines.push({ ...before });
      continue;
    }
    const price = centsOf(50_000);
    const quantity = random.next() < 0.05 ? 1_000_000 : 1 + random.int(20);
    lines.push({
      unitPrice: money(price),
      quantity,
      taxRate: random.next() < 0.15 ? null : (RATES[random.int(RATES.length - 1)] ?? null),
      discount: discount(Math.min(price * quantity, 1_000_000)),
    });
  }
  return { lines, discount: discount(1_000_000), pricesIncludeTax: random.next() < 0.5 };
}

describe('100,000 random carts', () => {
  it('equal a straightforward BigInt reference, and their parts always add up', () => {
    const random = generator(20261128);
    let problems = 0;
    for (let n = 0; n < 100_000; n++) {
      const cart = randomCart(random);
      const expected = reference(cart);
      const got = priceCart(cart);
      if (expected === 'problem') {
        expect(isCartProblem(got), `cart ${n}`).toBe(true);
        problems++;
        continue;
      }
      if (isCartProblem(got)) throw new Error(`cart ${n}: ${got.problem}, expected a price`);
      // Compared field by field only when something differs, so 100,000 carts stay fast.
      const same =
        got.total === expected.total &&
        got.tax === expected.tax &&
        got.lines.every((line, i) => {
          const want = expected.lines[i];
          return (
            line.gross === want?.gross &&
            line.discount === want.discount &&
            line.tax === want.tax &&
            line.total === want.total
          );
        });
      if (!same)
        expect({ n, lines: got.lines, total: got.total }).toEqual({
          n,
          lines: expected.lines,
          total: expected.total,
        });
      // The shares add up to the cart discount; totals are the sums of the lines; net = total − tax.
      const shares = got.lines.reduce((a, line) => a + line.cartShare, 0n);
      const lineSum = got.lines.reduce((a, line) => a + line.total, 0n);
      const rateSum = got.taxes.reduce((a, rate) => a + rate.tax, 0n);
      const untaxed = got.lines
        .filter((_, i) => cart.lines[i]?.taxRate === null)
        .reduce((a, line) => a + line.tax, 0n);
      if (
        shares !== got.cartDiscount ||
        lineSum !== got.total ||
        rateSum + untaxed !== got.tax ||
        got.net !== got.total - got.tax
      )
        throw new Error(`cart ${n} does not add up`);
      if (got.lines.some((line) => line.amount < 0n || line.tax < 0n || line.discount > line.gross))
        throw new Error(`cart ${n} has a negative amount or a discount above its gross`);
    }
    // Some carts must take the refusal path, or it was not tested.
    expect(problems).toBeGreaterThan(100);
  });
});

describe('one money format (the screens and the server’s sentences)', () => {
  it('groups thousands and keeps two decimals: $1,334.16, $110,568.17, $5.00', () => {
    expect(formatMoney(1334.16)).toBe('$1,334.16');
    expect(formatMoney(110568.17)).toBe('$110,568.17');
    expect(formatMoney(5)).toBe('$5.00');
    expect(formatMoney(0.1 + 0.2)).toBe('$0.30');
  });

  it('puts the minus before the sign (-$5.00) and never shows -$0.00', () => {
    expect(formatMoney(-5)).toBe('-$5.00');
    expect(formatMoney(-1234.5)).toBe('-$1,234.50');
    expect(formatMoney(-0)).toBe('$0.00');
  });

  it('writes another currency when given one, USD otherwise', () => {
    expect(formatMoney(1234.5, 'EUR')).toBe('€1,234.50');
    expect(formatMoney(-5, 'GBP')).toBe('-£5.00');
    expect(formatMoney(1234.5, 'USD')).toBe(formatMoney(1234.5));
  });

  it('writes cents exactly, however large, in the currency given', () => {
    expect(formatCents(20028n, 'USD')).toBe('$200.28');
    expect(formatCents(1200n, 'EUR')).toBe('€12.00');
    expect(formatCents(-1n)).toBe('-$0.01');
    expect(formatCents(0n)).toBe('$0.00');
    // 2^53 cents and more: no float on the way.
    expect(formatCents(99_999_999_999_999_999n, 'USD')).toBe('$999,999,999,999,999.99');
  });
});
