import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Bill } from '../../../shared/bills';
import {
  answerBill,
  bill,
  billLine,
  callsTo,
  EQUIPMENT,
  type Handler,
  refusal,
  renderBills,
  writes,
} from './bills-test-data';

const PATH = '/admin-dashboard/bills/b1';
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => row.textContent);

/** A fake server holding one bill that posts and voids as the real one does. */
function server(start: Bill) {
  const state = { bill: start };
  const handlers: Record<string, Handler> = {
    'GET /api/bills/b1': () => answerBill(state.bill),
    'POST /api/bills/b1/post': () => {
      state.bill = {
        ...state.bill,
        status: 'posted',
        postedAt: '2025-05-02T10:00:00.000Z',
        entry: { _id: 'e9', number: 'JE-000009' },
      };
      return answerBill(state.bill);
    },
    'POST /api/bills/b1/void': () => {
      state.bill = {
        ...state.bill,
        status: 'void',
        open: 0,
        voidedAt: '2025-05-03T10:00:00.000Z',
        voidEntry: { _id: 'e10', number: 'JE-000010' },
      };
      return answerBill(state.bill);
    },
    'DELETE /api/bills/b1': () => ({ body: { success: true, message: 'Deleted.' } }),
  };
  return { state, handlers };
}

const onOrder = billLine({
  _id: 'bl2',
  purchaseOrderLine: {
    _id: 'pol-p1',
    purchaseOrder: { _id: 'po1', number: 'PO-000007' },
    product: { _id: 'p1', name: 'Blue Pen' },
    unitCost: 0.4,
  },
  description: 'Blue Pen',
  quantity: 5,
  unitPrice: 0.5,
  taxRate: { _id: 't20', name: 'VAT', rate: 20 },
  account: { _id: 'acc-2100', code: '2100', name: 'Goods received not billed' },
  net: 2.5,
  tax: 0.5,
});

describe('a bill', () => {
  it('shows its facts, each line with account, tax and net, the totals, its payments and its entry', async () => {
    const { handlers } = server(
      bill({
        status: 'partiallyPaid',
        lines: [onOrder, billLine({ account: { _id: EQUIPMENT._id, code: '1500', name: 'Equipment' } })],
        net: 15,
        tax: 0.5,
        total: 15.5,
        paid: 10,
        open: 5.5,
        overdueDays: 2,
        entry: { _id: 'e4', number: 'JE-000004' },
        payments: [
          { _id: 'py1', number: 'PY-000001', date: '2025-05-02', method: 'bank', amount: 50, allocated: 10 },
        ],
      }),
    );
    renderBills(PATH, handlers);
    expect(await screen.findByRole('heading', { name: 'Bill BL-000001', level: 1 })).toBeTruthy();
    expect(screen.getByText('Partly paid', { selector: '[data-status]' })).toBeTruthy();
    expect(screen.getByText('2 days overdue')).toBeTruthy();
    const lines = screen.getByRole('table', { name: 'Lines of BL-000001' });
    expect(rowsOf(lines)).toEqual([
      'LineAccountTaxQuantityUnit priceNetLine tax',
      'Blue PenOn PO-000007, ordered at $0.402100 Goods received not billedTax VAT 20%Quantity 5Unit price $0.50Net $2.50Tax $0.50',
      'Freight1500 EquipmentTax No taxQuantity 1Unit price $12.50Net $12.50Tax $0.00',
      'Net$15.00',
      'Tax$0.50',
      'Total$15.50',
      'Paid$10.00',
      'Open$5.50',
    ]);
    expect(within(lines).getByRole('link', { name: 'PO-000007' }).getAttribute('href')).toBe(
      '/admin-dashboard/purchase-orders/po1',
    );
    expect(rowsOf(screen.getByRole('table', { name: 'Payments allocated to BL-000001' }))).toEqual([
      'PaymentDateMethodPayment amountTo this bill',
      'PY-000001May 2, 2025Bank transfer$50.00$10.00',
    ]);
    expect(screen.getByRole('link', { name: 'Journal entry JE-000004' }).getAttribute('href')).toBe(
      '/admin-dashboard/accounting/journal/e4',
    );
    // Part paid: it can be paid, not voided, posted or changed.
    expect(screen.getByRole('link', { name: 'Pay' }).getAttribute('href')).toBe(
      '/admin-dashboard/bills/pay?supplier=s1',
    );
    expect(screen.queryByRole('button', { name: /Void|Post|Delete/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
  });

  it('a draft is edited, deleted or posted; Post asks first, then calls the server and shows its entry', async () => {
    const { handlers } = server(bill({ status: 'draft', postedAt: null, paid: 0 }));
    const { calls } = renderBills(PATH, handlers);
    expect((await screen.findByRole('link', { name: 'Edit' })).getAttribute('href')).toBe(`${PATH}/edit`);
    expect(screen.queryByRole('button', { name: 'Void' })).toBeNull();
    expect(screen.queryByRole('table', { name: /Payments allocated/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Post BL-000001?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Not yet' }));
    expect(writes(calls)).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Post' }));
    expect(await screen.findByText('BL-000001 is posted: Acme is owed it.')).toBeTruthy();
    expect(writes(calls).map((call) => `${call.method} ${call.path}`)).toEqual(['POST /api/bills/b1/post']);
    expect(writes(calls)[0]?.headers['Idempotency-Key']).toBeTruthy();
    expect(screen.getByText('Posted', { selector: '[data-status]' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Journal entry JE-000009' })).toBeTruthy();
    // Posted with nothing paid: Void is offered now.
    expect(screen.getByRole('button', { name: 'Void' })).toBeTruthy();
  });

  it('Void asks first, then voids: the void entry is linked and nothing is offered any more', async () => {
    const { handlers } = server(bill({ entry: { _id: 'e4', number: 'JE-000004' } }));
    const { calls } = renderBills(PATH, handlers);
    await userEvent.click(await screen.findByRole('button', { name: 'Void' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Void' }));
    expect(await screen.findByText('BL-000001 is void: its entry is reversed.')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/bills/b1/void')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Void entry JE-000010' }).getAttribute('href')).toBe(
      '/admin-dashboard/accounting/journal/e10',
    );
    expect(screen.queryByRole('button', { name: 'Void' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Pay' })).toBeNull();
  });

  it('shows the server’s refusal beside the actions', async () => {
    const { handlers } = server(bill({ status: 'draft', postedAt: null }));
    renderBills(PATH, {
      ...handlers,
      'POST /api/bills/b1/post': () =>
        refusal(409, 'BILL_OVER_RECEIVED', 'Blue Pen on PO-000007: 2 received and not billed, not 5.'),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Post' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Post' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Blue Pen on PO-000007: 2 received and not billed, not 5.',
    );
    expect(screen.getByText('Draft', { selector: '[data-status]' })).toBeTruthy();
  });

  it('Delete draft asks first, then deletes and goes back to the list', async () => {
    const { handlers } = server(bill({ status: 'draft', postedAt: null }));
    const { calls, router } = renderBills(PATH, handlers);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete draft' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete draft' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-dashboard/bills'));
    expect(callsTo(calls, 'DELETE', '/api/bills/b1')).toHaveLength(1);
  });

  it('says why a bill could not be loaded, and that a missing one does not exist', async () => {
    renderBills(PATH, {
      'GET /api/bills/b1': () => ({
        status: 500,
        body: { success: false, error: 'An internal error occurred.' },
      }),
    });
    expect(await screen.findByText('The bill could not be loaded: An internal error occurred.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('a bill that does not exist says so, without Try again', async () => {
    renderBills(PATH, {
      'GET /api/bills/b1': () => ({ status: 404, body: { success: false, error: 'Bill not found.' } }),
    });
    expect(await screen.findByText('This bill does not exist (a draft may have been deleted).')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
