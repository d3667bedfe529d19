import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  answerBills,
  answerPayment,
  answerPayments,
  answerSessions,
  bill,
  callsTo,
  type Handler,
  openSession,
  payment,
  refusal,
  renderBills,
  writes,
} from './bills-test-data';

const PATH = '/admin-dashboard/bills/pay';

const late = bill({
  _id: 'b2',
  number: 'BL-000002',
  reference: 'INV-70',
  date: '2025-03-01',
  dueDate: '2025-03-31',
  status: 'partiallyPaid',
  total: 120,
  paid: 20,
  open: 100,
  overdueDays: 31,
});
const current = bill();

function server(extra: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    'GET /api/bills': ({ query }) =>
      answerBills(
        query.status === 'posted' ? [current] : query.status === 'partiallyPaid' ? [late] : [],
        query,
      ),
    'GET /api/supplier-payments': () => answerPayments([payment({ amount: 80, unallocated: 50 })]),
    'GET /api/register-sessions': () => answerSessions([openSession()]),
    'POST /api/supplier-payments': ({ body }) => {
      const sent = body as { amount: number };
      return answerPayment(
        payment({ _id: 'py2', number: 'PY-000002', amount: sent.amount, unallocated: 7.5 }),
        201,
      );
    },
    'POST /api/supplier-payments/py1/allocate': () => answerPayment(payment({ unallocated: 0 })),
    ...extra,
  };
}

const openBills = () => screen.getByRole('table', { name: 'Open bills of Acme, most overdue first' });

describe('pay bills', () => {
  it('asks for a supplier, then lists their open bills most overdue first, and the payments holding credit', async () => {
    const { calls, router } = renderBills(PATH, server());
    expect(await screen.findByText('Choose a supplier to see the bills you owe them.')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Supplier'), 'Acme');
    await waitFor(() => expect(router.state.location.search).toBe('?supplier=s1'));
    await screen.findByRole('table', { name: 'Open bills of Acme, most overdue first' });
    expect(
      within(openBills())
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.querySelector('th')?.textContent),
    ).toEqual(['BL-000002INV-70', 'BL-000001INV-77']);
    expect(within(openBills()).getByText('31 days overdue')).toBeTruthy();
    expect(callsTo(calls, 'GET', '/api/bills').map((call) => call.query)).toEqual([
      { supplier: 's1', status: 'posted', pageSize: '100' },
      { supplier: 's1', status: 'partiallyPaid', pageSize: '100' },
    ]);
    const credit = await screen.findByRole('table', { name: 'Payments to Acme with credit left' });
    expect(within(credit).getAllByRole('row')[1]?.textContent).toBe(
      'PY-000001May 2, 2025Bank transfer$80.00$50.00Allocate',
    );
  });

  it('pays the bills ticked with the amounts on each, cash from a till, the rest as credit', async () => {
    const { calls } = renderBills(`${PATH}?supplier=s1`, server());
    await screen.findByRole('table', { name: 'Open bills of Acme, most overdue first' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Pay BL-000002' }));
    const onLate = screen.getByLabelText('Amount on BL-000002') as HTMLInputElement;
    expect(onLate.value).toBe('100.00');
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('100.00');
    await userEvent.clear(onLate);
    await userEvent.type(onLate, '40');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Pay BL-000001' }));
    // The amount follows the sum put on the bills until it is changed.
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('52.50');
    fireEvent.change(screen.getByLabelText('Payment date'), { target: { value: '2025-05-02' } });
    await userEvent.selectOptions(screen.getByLabelText('Method'), 'Cash');
    const from = await screen.findByLabelText('Cash from');
    expect(screen.getByText('Without a till, the cash comes from the safe.')).toBeTruthy();
    await userEvent.selectOptions(from, 'Till 1 #4 (opened by Ann)');
    await userEvent.clear(screen.getByLabelText('Amount'));
    await userEvent.type(screen.getByLabelText('Amount'), '60');
    expect(
      screen.getByText(/more stays with Acme as credit, to allocate to a later bill\./).textContent,
    ).toContain('$7.50');
    await userEvent.click(screen.getByRole('button', { name: 'Pay $60.00' }));
    expect(await screen.findByText('PY-000002: $60.00 paid to Acme. $7.50 stays as credit.')).toBeTruthy();
    const sent = callsTo(calls, 'POST', '/api/supplier-payments');
    expect(sent.map((call) => call.body)).toEqual([
      {
        supplier: 's1',
        date: '2025-05-02',
        amount: 60,
        method: 'cash',
        session: 'ses1',
        allocations: [
          { bill: 'b2', amount: 40 },
          { bill: 'b1', amount: 12.5 },
        ],
      },
    ]);
    expect(sent[0]?.headers['Idempotency-Key']).toBeTruthy();
    // The form starts again for the next payment.
    expect((screen.getByRole('checkbox', { name: 'Pay BL-000002' }) as HTMLInputElement).checked).toBe(false);
  });

  it('refuses a payment below what is put on the bills, or more than a bill has open, without calling', async () => {
    const { calls } = renderBills(`${PATH}?supplier=s1`, server());
    await screen.findByRole('table', { name: 'Open bills of Acme, most overdue first' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Pay BL-000001' }));
    await userEvent.clear(screen.getByLabelText('Amount on BL-000001'));
    await userEvent.type(screen.getByLabelText('Amount on BL-000001'), '13');
    expect(screen.getByText('More than is open on this bill.')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Amount on BL-000001'));
    await userEvent.type(screen.getByLabelText('Amount on BL-000001'), '12.50');
    await userEvent.clear(screen.getByLabelText('Amount'));
    await userEvent.type(screen.getByLabelText('Amount'), '10');
    expect(screen.getByText('Less than the $12.50 put on the bills.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Pay $10.00' }));
    expect(writes(calls)).toEqual([]);
  });

  it('shows the server’s refusal beside the payment, and sends no till for a bank payment', async () => {
    const sentence = 'BL-000001 has $2.50 open, less than $12.50.';
    const { calls } = renderBills(
      `${PATH}?supplier=s1`,
      server({ 'POST /api/supplier-payments': () => refusal(409, 'ALLOCATION_TOO_MUCH', sentence) }),
    );
    await screen.findByRole('table', { name: 'Open bills of Acme, most overdue first' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Pay BL-000001' }));
    await userEvent.click(screen.getByRole('button', { name: 'Pay $12.50' }));
    expect((await screen.findByRole('alert')).textContent).toBe(sentence);
    expect(callsTo(calls, 'POST', '/api/supplier-payments')[0]?.body).toMatchObject({
      method: 'bank',
      amount: 12.5,
      allocations: [{ bill: 'b1', amount: 12.5 }],
    });
    expect(callsTo(calls, 'POST', '/api/supplier-payments')[0]?.body).not.toHaveProperty('session');
    expect(callsTo(calls, 'GET', '/api/register-sessions')).toEqual([]);
  });

  it('allocates a payment’s credit to open bills', async () => {
    const { calls } = renderBills(`${PATH}?supplier=s1`, server());
    await userEvent.click(await screen.findByRole('button', { name: 'Allocate PY-000001' }));
    const dialog = screen.getByRole('dialog', { name: 'Allocate PY-000001' });
    const allocate = within(dialog).getByRole('button', { name: 'Allocate' }) as HTMLButtonElement;
    expect(allocate.disabled).toBe(true);
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Allocate to BL-000002' }));
    // The bill takes what is left of the credit when that is less than it has open.
    expect((within(dialog).getByLabelText('Amount on BL-000002') as HTMLInputElement).value).toBe('50.00');
    expect(within(dialog).getByText('Allocated $50.00 of $50.00.')).toBeTruthy();
    await userEvent.click(allocate);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(calls, 'POST', '/api/supplier-payments/py1/allocate').map((call) => call.body)).toEqual([
      { allocations: [{ bill: 'b2', amount: 50 }] },
    ]);
    expect(await screen.findByText('PY-000001: $50.00 allocated.')).toBeTruthy();
  });

  it('says why the open bills could not be loaded, never that nothing is owed', async () => {
    let failures = 2;
    renderBills(
      `${PATH}?supplier=s1`,
      server({
        'GET /api/bills': ({ query }) =>
          failures-- > 0
            ? { status: 500, body: { success: false, error: 'An internal error occurred.' } }
            : answerBills(query.status === 'posted' ? [current] : [], query),
      }),
    );
    expect(
      await screen.findByText('The open bills could not be loaded: An internal error occurred.'),
    ).toBeTruthy();
    expect(screen.queryByText(/Nothing is owed to Acme/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('checkbox', { name: 'Pay BL-000001' })).toBeTruthy();
  });
});
