import { centsNumber, isCartProblem } from '../../../shared/money';
import type { Sale, SaleInput } from '../../../shared/sales';
import type { StoreSettings } from '../../../shared/store';
import { type PaymentInput, type RegisterSession, settlePayments } from '../../../shared/till';
import type { OfflineSaleBody, QueuedSale } from '../offline/database';
import { nextDeviceNumber } from '../offline/device';
import { keepSale } from '../offline/queue';
import { type Cart, isAboveStock, priceOf, quantityOf } from './cart-rules';
import type { CounterDraft } from './counter-drafts';

/**
 * A sale made at the counter while the server cannot be reached (DESIGN §21): what may not be
 * done offline, and the sale as the device keeps it (prices, rates and total as computed here,
 * numbered by the device) to send when the server answers again.
 */

/** The sale's payments as the server takes them: split, or one by its method (cash: what was handed over). */
export function paymentsOf(draft: CounterDraft, cash: number | null, total: number): PaymentInput[] {
  if (draft.split) return draft.payments;
  return [{ method: draft.method, amount: draft.method === 'cash' ? (cash ?? total) : total }];
}

/**
 * Why this sale cannot be made offline, or null when it can: store credit (its balance is the
 * server's), a discount above the store's limit (a manager's approval is checked by the server),
 * more than the stock kept on this device.
 */
export function offlineRefusal(
  draft: CounterDraft,
  overLimit: readonly number[],
  maxDiscountPercent: number,
): string | null {
  const credit = draft.split
    ? draft.payments.some((payment) => payment.method === 'storeCredit')
    : draft.method === 'storeCredit';
  if (credit)
    return 'Store credit cannot be used offline: its balance is kept on the server. Take another payment.';
  if (overLimit.length > 0)
    return `A discount above ${maxDiscountPercent}% needs a manager's approval, which cannot be checked offline. Lower the discount.`;
  const short = draft.lines.filter(isAboveStock);
  if (short.length > 0) {
    const names = short.map((line) => `${line.product.name} (${line.product.stock} left)`).join(', ');
    return `Offline, the counter sells only the stock it kept on this device: ${names}. Lower the quantity.`;
  }
  return null;
}

/** A register's code on a receipt: its words' initials and its numbers ("Till 1" → T1, "Front desk" → FD). */
export function registerCode(name: string): string {
  const code = name
    .normalize('NFKD')
    .replace(/[^\x21-\x7e\s]/g, '')
    .split(/[\s\-_./]+/)
    .filter(Boolean)
    .map((word) => (/^\d+$/.test(word) ? word : (word.match(/[A-Za-z0-9]/)?.[0] ?? '').toUpperCase()))
    .join('');
  return code.slice(0, 8) || 'R';
}

const two = (value: number) => String(Math.abs(value)).padStart(2, '0');

/** The moment as the device's clock writes it, with its offset: 2026-12-03T14:05:00+01:00. */
export function withOffset(moment: Date): string {
  const offset = -moment.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  return (
    `${moment.getFullYear()}-${two(moment.getMonth() + 1)}-${two(moment.getDate())}` +
    `T${two(moment.getHours())}:${two(moment.getMinutes())}:${two(moment.getSeconds())}` +
    `${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`
  );
}

/** The lines as an offline sale sends them: the price and the rate id this device sold at. */
function offlineLines(cart: Cart): OfflineSaleBody['lines'] {
  return cart.map((line) => ({
    productId: line.product._id,
    quantity: quantityOf(line.quantity) ?? 0,
    ...(line.discount ? { discount: line.discount } : {}),
    unitPrice: line.product.price,
    ...(line.product.taxRate ? { taxRate: line.product.taxRate._id } : {}),
  }));
}

/**
 * Keeps the sale on this device: a new offline id, the device's next receipt number at this
 * register, the moment it was made. Once this resolves the sale is stored (a reload keeps it).
 */
export async function keepOfflineSale(parts: {
  sellerId: string;
  draft: CounterDraft;
  cash: number | null;
  total: number;
  session: string;
  registerName: string;
  now?: Date;
}): Promise<QueuedSale> {
  const { draft, total } = parts;
  const id = crypto.randomUUID();
  const madeAt = parts.now ?? new Date();
  const deviceNumber = await nextDeviceNumber(registerCode(parts.registerName));
  const body: SaleInput & OfflineSaleBody = {
    lines: offlineLines(draft.lines),
    ...(draft.discount ? { discount: draft.discount } : {}),
    ...(draft.customer ? { customer: draft.customer._id } : {}),
    payments: paymentsOf(draft, parts.cash, total),
    session: parts.session,
    total,
    offline: { id, soldAt: withOffset(madeAt), deviceNumber },
  };
  return keepSale({ id, sellerId: parts.sellerId, body, madeAt: madeAt.toISOString() });
}

/**
 * The receipt of a sale kept on this device, as the receipt screen draws a sale: its sums by the
 * one computation (the same the server checks it by), numbered by the device, not yet sent.
 * Null when the cart cannot be priced (it could not have been kept then).
 */
export function deviceReceipt(parts: {
  kept: QueuedSale;
  cart: Cart;
  store: StoreSettings;
  seller: { _id: string; name: string };
  customer: { _id: string; name: string } | null;
  session: RegisterSession;
}): Sale | null {
  const { kept, cart, store } = parts;
  const priced = priceOf(cart, kept.body.discount ?? null, store.pricesIncludeTax);
  if (isCartProblem(priced)) return null;
  const payments = kept.body.payments ?? [];
  const settled = settlePayments(priced.total, payments);
  const money = (cents: bigint) => centsNumber(cents);
  return {
    _id: kept.id,
    number: 0,
    createdAt: kept.madeAt,
    store,
    seller: parts.seller,
    customer: parts.customer,
    lines: cart.map((line, at) => {
      const sums = priced.lines[at];
      return {
        order: { _id: `${kept.id}-${at}` },
        product: { _id: line.product._id, name: line.product.name },
        quantity: quantityOf(line.quantity) ?? 0,
        unitPrice: line.product.price,
        gross: sums ? money(sums.gross) : 0,
        discount: sums ? money(sums.discount) : 0,
        tax: sums ? money(sums.tax) : 0,
        taxRate: line.product.taxRate
          ? { name: line.product.taxRate.name, rate: line.product.taxRate.rate }
          : null,
        total: sums ? money(sums.total) : 0,
        net: sums ? money(sums.net) : 0,
        returnedQuantity: 0,
        returnedTotal: 0,
        lots: [],
      };
    }),
    subtotal: money(priced.subtotal),
    discount: money(priced.discount),
    tax: money(priced.tax),
    taxes: priced.taxes.map((tax) => ({
      name: tax.name,
      rate: tax.rate,
      base: money(tax.base),
      tax: money(tax.tax),
    })),
    total: money(priced.total),
    payment: {
      method: payments.length === 1 ? (payments[0]?.method ?? 'cash') : 'split',
      tendered: payments.length === 1 && payments[0]?.method === 'cash' ? (payments[0].amount ?? null) : null,
    },
    payments:
      'payments' in settled
        ? settled.payments.map((payment) => ({
            method: payment.method,
            amount: money(payment.amount),
            tendered: payment.tendered === null ? null : money(payment.tendered),
          }))
        : [],
    change:
      'payments' in settled && payments.some((payment) => payment.method === 'cash')
        ? money(settled.change)
        : null,
    session: { _id: parts.session._id, number: parts.session.number },
    refunds: [],
    location: parts.session.location,
    offline: { deviceNumber: kept.body.offline.deviceNumber, recordedAt: '', review: [] },
  };
}
