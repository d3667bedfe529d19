import { describe, expect, it } from 'vitest';
import { PAYMENT_METHODS, type SessionFigures, SessionReport, sessionReport } from './till';

const figures = (overrides: Partial<SessionFigures> = {}): SessionFigures => ({
  openingFloat: '100.00',
  sales: { count: 0, total: '0' },
  refunds: { count: 0, total: '0' },
  payments: [],
  cashIn: '0',
  cashOut: '0',
  discount: '0',
  taxes: [],
  countedCash: null,
  ...overrides,
});

describe('a session report (DESIGN §13)', () => {
  it('expected cash = float + cash sales took − cash refunds gave back + cash put in − cash taken out', () => {
    const report = sessionReport(
      figures({
        openingFloat: '150.25',
        payments: [
          { method: 'card', in: '40.00', out: '7.00' },
          { method: 'cash', in: '80.10', out: '12.35' },
        ],
        cashIn: '20.00',
        cashOut: '55.55',
      }),
    );
    // 150.25 + 80.10 − 12.35 + 20.00 − 55.55; card money never reaches the drawer.
    expect(report.expectedCash).toBe(182.45);
    expect(report.cashIn).toBe(20);
    expect(report.cashOut).toBe(55.55);
  });

  it('is exact to the cent where floats are not (0.1 + 0.2)', () => {
    const report = sessionReport(
      figures({ openingFloat: '0.10', payments: [{ method: 'cash', in: '0.20', out: '0' }] }),
    );
    expect(report.expectedCash).toBe(0.3);
  });

  it('an X report (nothing counted) has no counted cash and no difference', () => {
    const report = sessionReport(figures({ payments: [{ method: 'cash', in: '5.00', out: '0' }] }));
    expect(report.countedCash).toBeNull();
    expect(report.difference).toBeNull();
    expect(SessionReport.strict().parse(report)).toEqual(report);
  });

  it.each([
    ['over', '110.01', 0.01],
    ['short', '109.60', -0.4],
    ['exact', '110.00', 0],
  ])('a Z report counted %s: difference = counted − expected', (_label, counted, difference) => {
    const report = sessionReport(
      figures({ payments: [{ method: 'cash', in: '10.00', out: '0' }], countedCash: counted }),
    );
    expect(report.expectedCash).toBe(110);
    expect(report.countedCash).toBe(Number(counted));
    expect(report.difference).toBe(difference);
  });

  it('the drawer can be expected below zero (more refunded in cash than it held) and is reported so', () => {
    const report = sessionReport(
      figures({ openingFloat: '0', payments: [{ method: 'cash', in: '0', out: '3.50' }], countedCash: '0' }),
    );
    expect(report.expectedCash).toBe(-3.5);
    expect(report.difference).toBe(3.5);
  });

  it('lists every payment method once, in their order, 0 for the ones the session did not see', () => {
    const report = sessionReport(
      figures({
        payments: [
          { method: 'storeCredit', in: '4.00', out: '1.00' },
          { method: 'card', in: '12.34', out: '0' },
        ],
      }),
    );
    expect(report.payments).toEqual([
      { method: 'cash', in: 0, out: 0 },
      { method: 'card', in: 12.34, out: 0 },
      { method: 'other', in: 0, out: 0 },
      { method: 'storeCredit', in: 4, out: 1 },
    ]);
    expect(report.payments.map((payment) => payment.method)).toEqual([...PAYMENT_METHODS]);
  });

  it('carries the counts, totals, discount and taxes as given', () => {
    const report = sessionReport(
      figures({
        sales: { count: 3, total: '28.05' },
        refunds: { count: 2, total: '13.90' },
        discount: '2.00',
        taxes: [
          { name: 'Reduced', rate: 5, base: '12.52', tax: '0.63' },
          { name: 'Standard', rate: 8.875, base: '0.00', tax: '0.00' },
        ],
      }),
    );
    expect(report.sales).toEqual({ count: 3, total: 28.05 });
    expect(report.refunds).toEqual({ count: 2, total: 13.9 });
    expect(report.discount).toBe(2);
    expect(report.taxes).toEqual([
      { name: 'Reduced', rate: 5, base: 12.52, tax: 0.63 },
      { name: 'Standard', rate: 8.875, base: 0, tax: 0 },
    ]);
  });
});
