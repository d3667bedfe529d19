import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answerBills, bill, callsTo, GLOBEX, renderBills } from './bills-test-data';

const PATH = '/admin-dashboard/bills';
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => row.textContent);

const late = bill({
  _id: 'b2',
  number: 'BL-000002',
  supplier: GLOBEX,
  reference: 'G-19',
  date: '2025-03-01',
  dueDate: '2025-03-31',
  status: 'partiallyPaid',
  total: 120,
  paid: 20,
  open: 100,
  overdueDays: 31,
});
const current = bill();

describe('the bills list', () => {
  it('shows each bill with its figures, the overdue ones first and marked with their days', async () => {
    renderBills(PATH, { 'GET /api/bills': ({ query }) => answerBills([late, current], query) });
    expect(screen.getByText('Loading bills...')).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Bills, overdue first' });
    await within(table).findByText('BL-000002');
    expect(rowsOf(table)).toEqual([
      'NumberSupplierReferenceDateDueTotalPaidOpenStatus',
      'BL-000002GlobexRef. G-19Mar 1, 2025Due Mar 31, 202531 days overdueTotal $120.00Paid $20.00Open $100.00Partly paid',
      'BL-000001AcmeRef. INV-77May 1, 2025Due May 31, 2025Total $12.50Paid $0.00Open $12.50Posted',
    ]);
    expect(within(table).getByRole('link', { name: 'BL-000002' }).getAttribute('href')).toBe(`${PATH}/b2`);
    expect(screen.getByRole('link', { name: 'New bill' }).getAttribute('href')).toBe(`${PATH}/new`);
    expect(screen.getByRole('link', { name: 'Pay bills' }).getAttribute('href')).toBe(`${PATH}/pay`);
  });

  it('filters by status, supplier and overdue, kept in the address and sent to the server', async () => {
    const { calls, router } = renderBills(PATH, {
      'GET /api/bills': ({ query }) =>
        answerBills(query.overdue === 'true' ? [late] : [late, current], query),
    });
    await screen.findByText('BL-000001');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Partly paid');
    await userEvent.selectOptions(screen.getByLabelText('Supplier'), 'Globex');
    await userEvent.click(screen.getByLabelText('Overdue only'));
    await waitFor(() =>
      expect(router.state.location.search).toBe('?status=partiallyPaid&supplier=s2&overdue=true'),
    );
    await waitFor(() => expect(screen.queryByText('BL-000001')).toBeNull());
    expect(callsTo(calls, 'GET', '/api/bills').at(-1)?.query).toEqual({
      status: 'partiallyPaid',
      supplier: 's2',
      overdue: 'true',
      page: '1',
      pageSize: '20',
    });
    // Pay bills carries the supplier chosen.
    expect(screen.getByRole('link', { name: 'Pay bills' }).getAttribute('href')).toBe(
      `${PATH}/pay?supplier=s2`,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('says when there are no bills, and a failure is never the empty list', async () => {
    let failures = 1;
    renderBills(PATH, {
      'GET /api/bills': ({ query }) =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'An internal error occurred.' } }
          : answerBills([], query),
    });
    expect(
      await screen.findByText('The bills could not be loaded: An internal error occurred.'),
    ).toBeTruthy();
    expect(screen.queryByText('No bills yet.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No bills yet.')).toBeTruthy();
  });
});
