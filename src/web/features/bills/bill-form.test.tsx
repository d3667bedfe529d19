import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Bill, BillInput } from '../../../shared/bills';
import { storeOf } from '../../test/helpers';
import { figuresOf, type LineDraft } from './bill-form';
import {
  answerAccounts,
  answerBill,
  answerOrder,
  bill,
  billLine,
  callsTo,
  FREIGHT,
  type Handler,
  purchaseOrder,
  REDUCED,
  refusal,
  renderBills,
  VAT,
  writes,
} from './bills-test-data';

const NEW = '/admin-dashboard/bills/new';
const lineBox = (n: number) => screen.getByRole('group', { name: new RegExp(`^Line ${n}\\b`) });
const totals = () =>
  within(screen.getByLabelText('Totals'))
    .getAllByRole('definition')
    .map((dd) => dd.textContent);

/** A fake server that keeps the bill it is sent as a draft, and posts it. */
function server(extra: Record<string, Handler> = {}) {
  const state: { bill: Bill | null } = { bill: null };
  const handlers: Record<string, Handler> = {
    'GET /api/accounting/accounts': () => answerAccounts(),
    'GET /api/purchase-orders/po1': () => answerOrder(purchaseOrder()),
    'POST /api/bills': ({ body }) => {
      const input = body as BillInput;
      state.bill = bill({
        _id: 'b9',
        number: 'BL-000009',
        status: 'draft',
        reference: input.reference,
        postedAt: null,
      });
      return answerBill(state.bill, 201);
    },
    'GET /api/bills/b9': () => answerBill(state.bill ?? bill()),
    'POST /api/bills/b9/post': () => {
      state.bill = { ...(state.bill ?? bill()), status: 'posted' };
      return answerBill(state.bill);
    },
    ...extra,
  };
  return { state, handlers };
}

async function typeInto(box: HTMLElement, text: string) {
  await userEvent.clear(box);
  await userEvent.type(box, text);
}

describe('a new bill from a purchase order', () => {
  it('fills the supplier and a line per line received and not billed, at the order’s cost', async () => {
    const { handlers } = server();
    renderBills(`${NEW}?purchaseOrder=po1`, handlers);
    await screen.findByRole('group', { name: /^Line 1/ });
    const supplier = screen.getByLabelText('Supplier') as HTMLSelectElement;
    expect(supplier.value).toBe('s1');
    expect(supplier.disabled).toBe(true);
    // Blue Pen: 8 received, 3 billed; the Stapler is billed in full and the Red Pen not received.
    expect(screen.getAllByRole('group', { name: /^Line \d/ })).toHaveLength(1);
    expect(lineBox(1).querySelector('legend')?.textContent).toBe('Line 1 · Blue Pen on PO-000007');
    expect((within(lineBox(1)).getByLabelText('Quantity of Blue Pen') as HTMLInputElement).value).toBe('5');
    expect(within(lineBox(1)).getByText('5 received, not billed')).toBeTruthy();
    expect((within(lineBox(1)).getByLabelText('Unit price of Blue Pen') as HTMLInputElement).value).toBe(
      '0.40',
    );
    expect((within(lineBox(1)).getByLabelText('Description') as HTMLInputElement).value).toBe('Blue Pen');
    expect(within(lineBox(1)).queryByLabelText('Account')).toBeNull();
    expect(totals()).toEqual(['$2.00', '$0.00', '$2.00']);
  });

  it('adds a freight line on an account, totals with the tax, and saves the draft with the right body', async () => {
    const { handlers } = server();
    const { calls, router } = renderBills(`${NEW}?purchaseOrder=po1`, handlers);
    await screen.findByRole('group', { name: /^Line 1/ });
    await userEvent.type(screen.getByLabelText('Supplier’s reference'), ' INV-9 ');
    fireEvent.change(screen.getByLabelText('Bill date'), { target: { value: '2025-05-02' } });
    fireEvent.change(screen.getByLabelText('Due date'), { target: { value: '2025-06-01' } });
    await userEvent.selectOptions(within(lineBox(1)).getByLabelText('Tax'), 'VAT 20%');
    await userEvent.click(screen.getByRole('button', { name: 'Add a line' }));
    const freight = lineBox(2);
    await userEvent.type(within(freight).getByLabelText('Description'), 'Freight');
    await typeInto(within(freight).getByLabelText('Unit price of Freight'), '12.50');
    // Only active expense and asset accounts are offered.
    const accounts = within(within(freight).getByLabelText('Account')).getAllByRole('option');
    expect(accounts.map((option) => option.textContent)).toEqual([
      'Choose an account',
      '6400 Freight in',
      '6900 General expenses',
      '1500 Equipment',
    ]);
    await userEvent.selectOptions(within(freight).getByLabelText('Account'), '6400 Freight in');
    expect(within(freight).getByText('$12.50')).toBeTruthy();
    expect(totals()).toEqual(['$14.50', '$0.40', '$14.90']);
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-dashboard/bills/b9'));
    expect(writes(calls).map((call) => `${call.method} ${call.path}`)).toEqual(['POST /api/bills']);
    expect(writes(calls)[0]?.body).toEqual({
      supplier: 's1',
      reference: 'INV-9',
      date: '2025-05-02',
      dueDate: '2025-06-01',
      note: '',
      lines: [
        { purchaseOrderLine: 'pol-p1', description: 'Blue Pen', quantity: 5, unitPrice: 0.4, taxRate: 't20' },
        { description: 'Freight', quantity: 1, unitPrice: 12.5, account: FREIGHT._id },
      ],
    });
    expect(writes(calls)[0]?.headers['Idempotency-Key']).toBeTruthy();
    expect(await screen.findByText('BL-000009 saved as a draft.')).toBeTruthy();
  });

  it('checks with the shared rules before sending: a line of its own needs an account, a line no more than is left', async () => {
    const { handlers } = server();
    const { calls } = renderBills(`${NEW}?purchaseOrder=po1`, handlers);
    await screen.findByRole('group', { name: /^Line 1/ });
    await userEvent.type(screen.getByLabelText('Supplier’s reference'), 'INV-9');
    await typeInto(within(lineBox(1)).getByLabelText('Quantity of Blue Pen'), '6');
    await userEvent.click(screen.getByRole('button', { name: 'Add a line' }));
    await typeInto(within(lineBox(2)).getByLabelText(/^Unit price/), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(within(lineBox(1)).getByText('Only 5 received and not billed.')).toBeTruthy();
    expect(
      within(lineBox(2)).getByText('A line not on a purchase order needs an account (freight, services).'),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Check the fields marked.');
    expect(writes(calls)).toEqual([]);
  });

  it('Save and post saves, then posts, and opens the bill', async () => {
    const { handlers } = server();
    const { calls, router } = renderBills(`${NEW}?purchaseOrder=po1`, handlers);
    await screen.findByRole('group', { name: /^Line 1/ });
    await userEvent.type(screen.getByLabelText('Supplier’s reference'), 'INV-9');
    await userEvent.click(screen.getByRole('button', { name: 'Save and post' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-dashboard/bills/b9'));
    expect(writes(calls).map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /api/bills',
      'POST /api/bills/b9/post',
    ]);
    expect(await screen.findByText('BL-000009 is posted: Acme is owed it.')).toBeTruthy();
  });

  it('a post refused after the save leaves the draft in its editor, the refusal beside the form', async () => {
    const { handlers } = server({
      'POST /api/bills/b9/post': () =>
        refusal(
          409,
          'DATE_IN_FUTURE',
          'BL-000009 is dated 2099-01-01, after today: post it on or after that day.',
        ),
    });
    const { router } = renderBills(NEW, handlers);
    await screen.findByRole('group', { name: /^Line 1/ });
    await userEvent.selectOptions(screen.getByLabelText('Supplier'), 'Acme');
    await userEvent.type(screen.getByLabelText('Supplier’s reference'), 'INV-9');
    await userEvent.type(within(lineBox(1)).getByLabelText('Description'), 'Rent');
    await typeInto(within(lineBox(1)).getByLabelText(/^Unit price/), '100');
    await userEvent.selectOptions(within(lineBox(1)).getByLabelText('Account'), '6900 General expenses');
    await userEvent.click(screen.getByRole('button', { name: 'Save and post' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-dashboard/bills/b9/edit'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'BL-000009 was saved as a draft but not posted: BL-000009 is dated 2099-01-01, after today: post it on or after that day.',
    );
    expect(screen.getByRole('heading', { name: 'Edit BL-000009', level: 1 })).toBeTruthy();
  });

  it('shows the server’s refusal of a reference the supplier has billed, next to the reference', async () => {
    const sentence = 'Acme has billed INV-9 already: BL-000003.';
    const { handlers } = server({ 'POST /api/bills': () => refusal(409, 'BILL_REFERENCE_TAKEN', sentence) });
    renderBills(`${NEW}?purchaseOrder=po1`, handlers);
    await screen.findByRole('group', { name: /^Line 1/ });
    await userEvent.type(screen.getByLabelText('Supplier’s reference'), 'INV-9');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect((await screen.findByRole('alert')).textContent).toBe(sentence);
    expect(screen.getByLabelText('Supplier’s reference').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByText(sentence)).toHaveLength(2);
  });

  it('says why it cannot start when the purchase order or the choices could not be loaded', async () => {
    let failures = 1;
    const { handlers } = server({
      'GET /api/purchase-orders/po1': () =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'An internal error occurred.' } }
          : answerOrder(purchaseOrder()),
    });
    renderBills(`${NEW}?purchaseOrder=po1`, handlers);
    expect(
      await screen.findByText(
        'The suppliers, accounts and tax rates, and the purchase order could not be loaded: An internal error occurred.',
      ),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('group', { name: /^Line 1/ })).toBeTruthy();
  });
});

describe('the store’s default tax rate', () => {
  const store = storeOf({ defaultTaxRate: REDUCED });
  const withDefault = (extra: Record<string, Handler> = {}) =>
    server({ 'GET /api/settings/store': () => ({ body: { success: true, store } }), ...extra }).handlers;
  const taxOf = (n: number) => (within(lineBox(n)).getByLabelText('Tax') as HTMLSelectElement).value;

  it('starts the lines filled from a purchase order, and the lines added, at it; No tax can still be chosen', async () => {
    const { calls } = renderBills(`${NEW}?purchaseOrder=po1`, withDefault(), { store });
    await screen.findByRole('group', { name: /^Line 1/ });
    expect(taxOf(1)).toBe(REDUCED._id);
    // 5 × 0.40 = 2.00 at 5%.
    expect(totals()).toEqual(['$2.00', '$0.10', '$2.10']);
    await userEvent.click(screen.getByRole('button', { name: 'Add a line' }));
    expect(taxOf(2)).toBe(REDUCED._id);
    await userEvent.selectOptions(within(lineBox(2)).getByLabelText('Tax'), 'No tax');
    await userEvent.type(within(lineBox(2)).getByLabelText('Description'), 'Freight');
    await typeInto(within(lineBox(2)).getByLabelText('Unit price of Freight'), '10');
    await userEvent.selectOptions(within(lineBox(2)).getByLabelText('Account'), '6400 Freight in');
    await userEvent.type(screen.getByLabelText('Supplier’s reference'), 'INV-9');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect((writes(calls)[0]?.body as BillInput | undefined)?.lines).toEqual([
      { purchaseOrderLine: 'pol-p1', description: 'Blue Pen', quantity: 5, unitPrice: 0.4, taxRate: 't5' },
      { description: 'Freight', quantity: 1, unitPrice: 10, account: FREIGHT._id },
    ]);
  });

  it('starts a new bill’s first line at it', async () => {
    renderBills(NEW, withDefault(), { store });
    await screen.findByRole('group', { name: /^Line 1/ });
    expect(taxOf(1)).toBe(REDUCED._id);
  });

  it('keeps a draft’s own rates, and starts a line added to it at the default', async () => {
    const draft = bill({ status: 'draft', postedAt: null, lines: [billLine({ taxRate: { ...VAT } })] });
    renderBills(
      '/admin-dashboard/bills/b1/edit',
      withDefault({
        'GET /api/bills/b1': () => answerBill(draft),
        'GET /api/accounting/accounts': () => answerAccounts(),
      }),
      { store },
    );
    await screen.findByRole('group', { name: /^Line 1/ });
    expect(taxOf(1)).toBe(VAT._id);
    await userEvent.click(screen.getByRole('button', { name: 'Add a line' }));
    expect(taxOf(2)).toBe(REDUCED._id);
  });

  it('without a default rate, or with one no longer offered, a line starts at No tax', async () => {
    renderBills(NEW, withDefault(), { store, taxRates: [VAT] });
    await screen.findByRole('group', { name: /^Line 1/ });
    expect(taxOf(1)).toBe('');
  });
});

describe('a draft bill', () => {
  it('opens with its fields and lines, and saves its changes with PUT', async () => {
    const draft = bill({
      status: 'draft',
      postedAt: null,
      dueDate: '2025-05-01',
      note: 'Call first',
      lines: [billLine({ taxRate: { ...VAT } })],
    });
    const { calls, router } = renderBills('/admin-dashboard/bills/b1/edit', {
      'GET /api/bills/b1': () => answerBill(draft),
      'GET /api/accounting/accounts': () => answerAccounts(),
      'PUT /api/bills/b1': () => answerBill(draft),
    });
    expect(await screen.findByRole('heading', { name: 'Edit BL-000001', level: 1 })).toBeTruthy();
    expect((screen.getByLabelText('Supplier’s reference') as HTMLInputElement).value).toBe('INV-77');
    // Due on its date: the box stays empty.
    expect((screen.getByLabelText('Due date') as HTMLInputElement).value).toBe('');
    expect(totals()).toEqual(['$12.50', '$2.50', '$15.00']);
    await typeInto(within(lineBox(1)).getByLabelText(/^Quantity/), '2');
    expect(totals()).toEqual(['$25.00', '$5.00', '$30.00']);
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-dashboard/bills/b1'));
    expect(callsTo(calls, 'PUT', '/api/bills/b1')[0]?.body).toEqual({
      supplier: 's1',
      reference: 'INV-77',
      date: '2025-05-01',
      note: 'Call first',
      lines: [{ description: 'Freight', quantity: 2, unitPrice: 12.5, taxRate: 't20', account: FREIGHT._id }],
    });
  });

  it('a posted bill is not changed here', async () => {
    renderBills('/admin-dashboard/bills/b1/edit', {
      'GET /api/bills/b1': () => answerBill(bill()),
      'GET /api/accounting/accounts': () => answerAccounts(),
    });
    expect(await screen.findByText(/BL-000001 is posted: only a draft can be changed\./)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save draft' })).toBeNull();
  });
});

describe('the bill’s live figures', () => {
  const draft = (quantity: string, unitPrice: string, taxRate = ''): LineDraft => ({
    key: 0,
    description: '',
    quantity,
    unitPrice,
    taxRate,
    account: '',
  });

  it('round each line’s tax half away from zero, and count a line not yet readable as nothing', () => {
    const figures = figuresOf(
      [draft('3', '0.35', 't5'), draft('1', '1.1', 't20'), draft('x', '2')],
      [VAT, { _id: 't5', name: 'Reduced', rate: 5 }],
    );
    // 1.05 × 5% = 0.0525 → 0.05; 1.10 × 20% = 0.22.
    expect(figures).toMatchObject({ net: 2.15, tax: 0.27, total: 2.42 });
    expect(figures.lines.map((line) => line.net)).toEqual([1.05, 1.1, 0]);
  });
});
