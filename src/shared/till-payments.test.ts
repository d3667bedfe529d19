import { describe, expect, it } from 'vitest';
import { centsNumber } from './money';
import {
  isPaymentProblem,
  PAYMENT_METHODS,
  type PaymentInput,
  type PaymentMethod,
  PaymentsInput,
  type SettledPayment,
  settlePayments,
} from './till';

const pay = (method: PaymentMethod, amount: number): PaymentInput => ({ method, amount });

describe('settlePayments', () => {
  it('cash above the total gives change, taken from the cash', () => {
    const settled = settlePayments(2549n, [pay('card', 10), pay('cash', 20)]);
    expect(settled).toEqual({
      payments: [
        { method: 'card', amount: 1000n, tendered: null },
        { method: 'cash', amount: 1549n, tendered: 2000n },
      ],
      change: 451n,
    });
  });

  it('exact non-cash payments give no change', () => {
    expect(settlePayments(1000n, [pay('card', 6), pay('card', 4)])).toEqual({
      payments: [
        { method: 'card', amount: 600n, tendered: null },
        { method: 'card', amount: 400n, tendered: null },
      ],
      change: 0n,
    });
  });

  it('change comes out of the last cash payments first, down to 0 when one is wholly change', () => {
    const settled = settlePayments(500n, [pay('cash', 5), pay('card', 0), pay('cash', 3)]);
    expect(settled).toEqual({
      payments: [
        { method: 'cash', amount: 500n, tendered: 500n },
        { method: 'card', amount: 0n, tendered: null },
        { method: 'cash', amount: 0n, tendered: 300n },
      ],
      change: 300n,
    });
  });

  it('non-cash above the total is refused, even with cash beside it', () => {
    expect(settlePayments(1000n, [pay('card', 10.01)])).toEqual({ problem: 'nonCashAboveTotal' });
    expect(settlePayments(1000n, [pay('storeCredit', 6), pay('other', 5), pay('cash', 1)])).toEqual({
      problem: 'nonCashAboveTotal',
    });
  });

  it('short payments name what is missing, to the cent', () => {
    expect(settlePayments(1000n, [pay('card', 3.33), pay('cash', 6.66)])).toEqual({
      problem: 'short',
      missing: 1n,
    });
    expect(settlePayments(1n, [pay('cash', 0)])).toEqual({ problem: 'short', missing: 1n });
  });

  it('a total of 0 is settled by a payment of 0', () => {
    expect(settlePayments(0n, [pay('cash', 0)])).toEqual({
      payments: [{ method: 'cash', amount: 0n, tendered: 0n }],
      change: 0n,
    });
  });

  it('the schema takes 1 to 10 payments of known methods, money with 2 decimals', () => {
    expect(PaymentsInput.safeParse([]).success).toBe(false);
    expect(PaymentsInput.safeParse(Array.from({ length: 10 }, () => pay('card', 1))).success).toBe(true);
    const eleven = PaymentsInput.safeParse(Array.from({ length: 11 }, () => pay('card', 1)));
    expect(eleven.success).toBe(false);
    expect(eleven.error?.issues[0]?.message).toBe('A sale has at most 10 payments.');
    for (const bad of [
      [{ method: 'cheque', amount: 1 }],
      [{ method: 'cash', amount: -1 }],
      [{ method: 'cash', amount: 1.005 }],
      [{ method: 'cash', amount: '1' }],
      [{ method: 'cash', amount: 1e12 }],
      { method: 'cash', amount: 1 },
    ])
      expect(PaymentsInput.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});

/** A small seeded generator (mulberry32): the same cases on every run, many of them. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('settlePayments, property', () => {
  it('for 5,000 seeded random cases: amounts add up to the total, change only from cash, problems exactly when the rules say', () => {
    const random = seeded(20261128);
    const below = (n: number) => Math.floor(random() * n);
    const counts = { settled: 0, nonCashAboveTotal: 0, short: 0 };
    for (let run = 0; run < 5000; run++) {
      const total = BigInt(below(4) === 0 ? below(100) : below(200_000));
      const payments = Array.from({ length: 1 + below(10) }, () => {
        const method = PAYMENT_METHODS[below(PAYMENT_METHODS.length)] as PaymentMethod;
        // Amounts near a fair share of the total, so every outcome is common.
        const share = Number(total) / (1 + below(4));
        return pay(method, centsNumber(BigInt(Math.max(0, Math.round(share * random() * 1.6)))));
      });
      const cents = payments.map((payment) => BigInt(Math.round(payment.amount * 100)));
      const given = cents.reduce((a, b) => a + b, 0n);
      const cashGiven = cents.reduce((sum, c, at) => (payments[at]?.method === 'cash' ? sum + c : sum), 0n);
      const nonCash = given - cashGiven;
      const settled = settlePayments(total, payments);
      const label = JSON.stringify({ total: String(total), payments });

      if (nonCash > total) {
        expect(settled, label).toEqual({ problem: 'nonCashAboveTotal' });
        counts.nonCashAboveTotal++;
        continue;
      }
      if (given < total) {
        expect(settled, label).toEqual({ problem: 'short', missing: total - given });
        counts.short++;
        continue;
      }
      if (isPaymentProblem(settled)) throw new Error(`refused a valid payment: ${label}`);
      counts.settled++;
      expect(settled.payments.length, label).toBe(payments.length);
      expect(
        settled.payments.reduce((sum, p) => sum + p.amount, 0n),
        label,
      ).toBe(total);
      expect(settled.change, label).toBe(given - total);
      expect(settled.change <= cashGiven, label).toBe(true);
      settled.payments.forEach((payment: SettledPayment, at) => {
        expect(payment.method, label).toBe(payments[at]?.method);
        expect(payment.amount >= 0n, label).toBe(true);
        if (payment.method === 'cash') {
          expect(payment.tendered, label).toBe(cents[at]);
          expect(payment.amount <= (payment.tendered ?? 0n), label).toBe(true);
        } else {
          // Only cash gives change: every other payment puts all of itself towards the total.
          expect(payment.tendered, label).toBeNull();
          expect(payment.amount, label).toBe(cents[at]);
        }
      });
    }
    // The generator reaches every outcome often enough for the checks above to mean something.
    expect(counts.settled).toBeGreaterThan(500);
    expect(counts.nonCashAboveTotal).toBeGreaterThan(500);
    expect(counts.short).toBeGreaterThan(500);
  });
});
