import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { centsNumber, isCartProblem, priceCart } from '../../../shared/money';
import { OffsetDateTime, SaleInput } from '../../../shared/sales';
import { product } from '../../test/fixtures';
import { storeOf } from '../../test/helpers';
import { freshDatabase } from '../offline/offline-test-data';
import { waiting } from '../offline/queue';
import { priceOf } from './cart-rules';
import { type CounterDraft, EMPTY_DRAFT } from './counter-drafts';
import {
  deviceReceipt,
  keepOfflineSale,
  offlineRefusal,
  paymentsOf,
  registerCode,
  withOffset,
} from './offline-sale';
import { openSession } from './sales-test-data';

beforeEach(freshDatabase);

const vat = { _id: 'vat', name: 'VAT', rate: 20 };
const tea = product('p1', 'Tea', { price: 3.35, stock: 4, taxRate: vat });
const mug = product('p2', 'Mug', { price: 8, stock: 1, taxRate: null });

const draftOf = (change: Partial<CounterDraft>): CounterDraft => ({
  ...EMPTY_DRAFT,
  lines: [
    { product: tea, quantity: '3', discount: { type: 'percent', value: 10 } },
    { product: mug, quantity: '1' },
  ],
  ...change,
});

describe('a sale made offline', () => {
  it('numbers its receipt by the register’s initials and numbers', () => {
    expect(registerCode('Till 1')).toBe('T1');
    expect(registerCode('Front desk')).toBe('FD');
    expect(registerCode('Kasse Süd 2')).toBe('KS2');
    expect(registerCode('till-3/back')).toBe('T3B');
    expect(registerCode('')).toBe('R');
    expect(registerCode('☕ ☕')).toBe('R');
    expect(registerCode('a b c d e f g h i j k l')).toBe('ABCDEFGH');
  });

  it('writes the moment with the device’s offset, which the server takes and reads back as the same instant', () => {
    for (const at of ['2026-12-03T14:05:09Z', '2028-02-29T23:59:59Z', '2026-03-29T01:30:00Z']) {
      const moment = new Date(at);
      const written = withOffset(moment);
      expect(OffsetDateTime.safeParse(written).success).toBe(true);
      expect(Date.parse(written)).toBe(moment.getTime());
    }
  });

  it('is refused offline for store credit, a discount above the limit and more than the kept stock, saying why', () => {
    expect(offlineRefusal(draftOf({}), [], 20)).toBeNull();
    expect(offlineRefusal(draftOf({ method: 'storeCredit' }), [], 20)).toMatch(
      /^Store credit cannot be used offline/,
    );
    expect(
      offlineRefusal(draftOf({ split: true, payments: [{ method: 'storeCredit', amount: 1 }] }), [], 20),
    ).toMatch(/^Store credit cannot be used offline/);
    expect(offlineRefusal(draftOf({}), [0], 5)).toBe(
      "A discount above 5% needs a manager's approval, which cannot be checked offline. Lower the discount.",
    );
    expect(offlineRefusal(draftOf({ lines: [{ product: mug, quantity: '2' }] }), [], 20)).toBe(
      'Offline, the counter sells only the stock it kept on this device: Mug (1 left). Lower the quantity.',
    );
  });

  it('pays one payment of the total by its method (cash: what was handed over), or the split payments', () => {
    expect(paymentsOf(draftOf({ method: 'card' }), null, 12.5)).toEqual([{ method: 'card', amount: 12.5 }]);
    expect(paymentsOf(draftOf({ method: 'cash' }), 20, 12.5)).toEqual([{ method: 'cash', amount: 20 }]);
    expect(paymentsOf(draftOf({ method: 'cash' }), null, 12.5)).toEqual([{ method: 'cash', amount: 12.5 }]);
    const split = [
      { method: 'card' as const, amount: 5 },
      { method: 'cash' as const, amount: 10 },
    ];
    expect(paymentsOf(draftOf({ split: true, payments: split }), 99, 12.5)).toBe(split);
  });

  it('is kept with the device’s prices, rate ids and total, a new id and the next device number; the server’s schema takes it; its receipt adds up by the one computation', async () => {
    const store = storeOf({ pricesIncludeTax: false });
    const draft = draftOf({ method: 'cash' });
    const priced = priceOf(draft.lines, null, false);
    if (isCartProblem(priced)) throw new Error('prices');
    const total = centsNumber(priced.total);
    const now = new Date('2026-12-03T14:05:00Z');
    const first = await keepOfflineSale({
      sellerId: 'u1',
      draft,
      cash: 30,
      total,
      session: 'session1',
      registerName: 'Till 1',
      now,
    });
    const second = await keepOfflineSale({
      sellerId: 'u1',
      draft,
      cash: null,
      total,
      session: 'session1',
      registerName: 'Till 1',
      now,
    });

    expect(SaleInput.safeParse(first.body).success).toBe(true);
    expect(first.body).toMatchObject({
      lines: [
        {
          productId: 'p1',
          quantity: 3,
          unitPrice: 3.35,
          taxRate: 'vat',
          discount: { type: 'percent', value: 10 },
        },
        { productId: 'p2', quantity: 1, unitPrice: 8 },
      ],
      payments: [{ method: 'cash', amount: 30 }],
      session: 'session1',
      total,
      offline: { id: first.id, soldAt: withOffset(now) },
    });
    expect(first.body.lines[1]).not.toHaveProperty('taxRate');
    // The server checks the total by the one computation on the lines as sent: they agree.
    const again = priceCart({
      lines: first.body.lines.map((line) => ({
        unitPrice: line.unitPrice ?? 0,
        quantity: line.quantity,
        taxRate: line.taxRate ? vat : null,
        discount: line.discount ?? null,
      })),
      pricesIncludeTax: false,
    });
    expect(!isCartProblem(again) && centsNumber(again.total)).toBe(total);
    expect(first.body.offline.deviceNumber).toMatch(/^T1-[A-Z0-9]{4}-000001$/);
    expect(second.body.offline.deviceNumber).toBe(first.body.offline.deviceNumber.replace(/1$/, '2'));
    expect(second.id).not.toBe(first.id);
    expect((await waiting('u1')).map((sale) => sale.id)).toEqual([first.id, second.id]);

    const receipt = deviceReceipt({
      kept: first,
      cart: draft.lines,
      store,
      seller: { _id: 'u1', name: 'Ann' },
      customer: null,
      session: openSession(),
    });
    expect(receipt).toMatchObject({
      number: 0,
      total,
      subtotal: centsNumber(priced.subtotal),
      tax: centsNumber(priced.tax),
      change: centsNumber(BigInt(3000) - priced.total),
      payment: { method: 'cash', tendered: 30 },
      offline: { deviceNumber: first.body.offline.deviceNumber, recordedAt: '' },
      session: { _id: 'session1', number: 12 },
    });
    expect(receipt?.lines.reduce((sum, line) => sum + Math.round(line.total * 100), 0)).toBe(
      Math.round(total * 100),
    );
  });
});
