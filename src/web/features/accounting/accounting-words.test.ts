import { describe, expect, it } from 'vitest';
import { SOURCE_KINDS, type SourceKind } from '../../../shared/accounting';
import { entry, line, SAFE, TILL } from './accounting-test-data';
import { SOURCE_LABEL, sourceLink } from './accounting-words';

const of = (kind: SourceKind, id: string | null, number?: string, lines = entry().lines) =>
  sourceLink(entry({ date: '2025-05-02', source: { kind, _id: id, ...(number ? { number } : {}) }, lines }));

describe('the link of an entry to the document that posted it', () => {
  it('leads each kind of document to its screen in the admin’s area', () => {
    expect(of('sale', 's1', 'S-000012')).toEqual({ to: '/admin-dashboard/sales/s1', label: 'Sale S-000012' });
    expect(of('refund', 'f1', 'R-000003')).toEqual({
      to: '/admin-dashboard/refunds/f1',
      label: 'Refund R-000003',
    });
    expect(of('receipt', 'p1', 'PO-000004')).toEqual({
      to: '/admin-dashboard/purchase-orders/p1',
      label: 'Purchase order PO-000004',
    });
    expect(of('stocktake', 't1', 'ST-000002')).toEqual({
      to: '/admin-dashboard/stocktakes/t1',
      label: 'Stocktake ST-000002',
    });
    expect(of('transfer', 'x1', 'TR-000009')).toEqual({
      to: '/admin-dashboard/transfers/x1',
      label: 'Transfer TR-000009',
    });
    for (const kind of ['sessionOpen', 'sessionClose'] as const)
      expect(of(kind, 'ses1', '#4')).toEqual({
        to: '/admin-dashboard/till/sessions/ses1',
        label: 'Till session #4',
      });
    expect(of('bill', 'b1', 'BL-000003')).toEqual({
      to: '/admin-dashboard/bills/b1',
      label: 'Bill BL-000003',
    });
    expect(of('reversal', 'e7', 'JE-000007')).toEqual({
      to: '/admin-dashboard/accounting/journal/e7',
      label: 'JE-000007',
    });
  });

  it('finds an Orders-screen return’s sale by its receipt number, and an order with none on the Orders screen', () => {
    expect(of('return', 'o1', 'S-000012')).toEqual({
      to: '/admin-dashboard/sales?q=S-000012',
      label: 'Sale S-000012',
    });
    expect(of('return', 'o1')).toEqual({ to: '/admin-dashboard/orders', label: 'Orders' });
    // An order placed before sales had receipts posted as a sale without a number: its id is the order's.
    expect(of('sale', 'o2')).toEqual({ to: '/admin-dashboard/orders', label: 'Orders' });
  });

  it('leads a cash movement to its register’s sessions up to its day, and store credit to the customer', () => {
    const cash = [line(TILL, 0, 12.5, { register: { _id: 'r1', name: 'Till 1' } }), line(SAFE, 12.5, 0)];
    expect(of('cash', 'c1', undefined, cash)).toEqual({
      to: '/admin-dashboard/till/sessions?register=r1&to=2025-05-02',
      label: 'Sessions of Till 1',
    });
    const credit = [line(SAFE, 5, 0), line(TILL, 0, 5, { customer: { _id: 'k1', name: 'Ann Lee' } })];
    expect(of('credit', 'c2', undefined, credit)).toEqual({
      to: '/admin-dashboard/customers/k1',
      label: 'Ann Lee',
    });
  });

  it('has no link where the app has no screen for the source, and words for every source', () => {
    for (const kind of ['movement', 'manual', 'opening', 'payment'] as const)
      expect(of(kind, kind === 'manual' || kind === 'opening' ? null : 'm1')).toBeNull();
    for (const kind of SOURCE_KINDS) expect(SOURCE_LABEL[kind]).toMatch(/^[A-Z]/);
  });
});
