import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Customer, CustomerSummary } from '../../../shared/customers';
import type { Role } from '../../../shared/roles';
import type { SaleSummary } from '../../../shared/sales';
import { formatDateTime } from '../../lib/format';
import { homePathFor } from '../../lib/role-home';
import { SignedInContext } from '../../lib/signed-in';
import { customer } from '../../test/fixtures';
import { listCalls, mockFetch, pageAnswer, renderWithClient, signIn, userOf } from '../../test/helpers';
import { CustomerPage } from './customer-page';

const ADA = customer('ada', 'Ada Lovelace', {
  phone: '555-1815',
  email: 'ada@example.com',
  address: '12 St James Sq',
  note: 'Prefers card.',
  createdAt: '2025-01-10T09:00:00.000Z',
});

const SUMMARY: CustomerSummary = {
  sales: 25,
  totalSpent: 1234.5,
  lastPurchaseAt: '2025-06-02T15:30:00.000Z',
  creditBalance: 0,
};

/** 25 sales, newest first: number 125 down to 101; the even ones made by the sales rep under test. */
const SALES: SaleSummary[] = Array.from({ length: 25 }, (_, i) => {
  const number = 125 - i;
  const mine = number % 2 === 0;
  return {
    _id: `sale-${number}`,
    number,
    createdAt: `2025-06-${String(25 - i).padStart(2, '0')}T12:00:00.000Z`,
    seller: mine ? { _id: 'salesRep-id', name: 'Test salesRep' } : { _id: 'other', name: 'Olga Other' },
    customer: { _id: 'ada', name: 'Ada Lovelace' },
    subtotal: number,
    discount: 0,
    tax: 0,
    total: number,
    payment: { method: number % 3 === 0 ? 'card' : 'cash', tendered: null },
    change: null,
    lineCount: (number % 4) + 1,
    returnedQuantity: 0,
    returnedTotal: 0,
  };
});

function renderAt(role: Role, entry: string, handlers: Parameters<typeof mockFetch>[0] = {}) {
  const me = userOf(role);
  signIn(me);
  const area = homePathFor(role);
  const mock = mockFetch({
    'GET /api/customers/ada': () => ({ body: { success: true, customer: ADA, summary: SUMMARY } }),
    'GET /api/customers/ada/credit': () => ({
      body: { success: true, balance: 0, entries: [], total: 0, page: 1, pageSize: 10 },
    }),
    'GET /api/sales': ({ query }) => {
      const { rows, ...info } = pageAnswer(SALES, { ...query, search: '' }, (sale) => String(sale.number));
      return { body: { success: true, sales: rows, ...info } };
    },
    ...handlers,
  });
  const page = (
    <SignedInContext value={me}>
      <CustomerPage />
    </SignedInContext>
  );
  const router = createMemoryRouter(
    [
      { path: `${area}/customers/:id`, element: page },
      { path: `${area}/customers`, element: <h1>The customers list</h1> },
    ],
    { initialEntries: [entry] },
  );
  renderWithClient(<RouterProvider router={router} />);
  return { ...mock, router, area };
}

const purchases = () => screen.getByRole('table', { name: 'Purchases, newest first' });
const purchaseRows = () => within(purchases()).getAllByRole('row').slice(1) as HTMLTableRowElement[];
const cells = (row?: HTMLTableRowElement) => Array.from(row?.cells ?? [], (cell) => cell.textContent);

/** The value a description list gives a term. */
function termValue(scope: HTMLElement, term: string) {
  const dt = within(scope).getByText(term, { selector: 'dt' });
  return dt.nextElementSibling?.textContent;
}

describe('a customer’s page', () => {
  it('shows who they are and what they bought in sum: sales, total spent net of returns, last purchase', async () => {
    renderAt('admin', '/admin-dashboard/customers/ada');
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace', level: 1 })).toBeTruthy();
    const details = screen.getByRole('region', { name: 'Details' });
    expect(termValue(details, 'Phone')).toBe('555-1815');
    expect(within(details).getByRole('link', { name: 'ada@example.com' }).getAttribute('href')).toBe(
      'mailto:ada@example.com',
    );
    expect(termValue(details, 'Address')).toBe('12 St James Sq');
    expect(termValue(details, 'Note')).toBe('Prefers card.');
    const summary = screen.getByRole('region', { name: 'Summary' });
    expect(termValue(summary, 'Sales')).toBe('25');
    expect(termValue(summary, 'Total spent')).toBe('$1,234.50');
    expect(termValue(summary, 'Last purchase')).toBe(formatDateTime('2025-06-02T15:30:00.000Z'));
    expect(screen.getByRole('link', { name: 'Back to Customers' }).getAttribute('href')).toBe(
      '/admin-dashboard/customers',
    );
  });

  it('lists their purchases newest first, each receipt number a link to the receipt', async () => {
    const { calls } = renderAt('admin', '/admin-dashboard/customers/ada');
    await screen.findByText('S-000125');
    expect(listCalls(calls, '/api/sales').map((call) => call.query)).toEqual([
      { customer: 'ada', page: '1', pageSize: '20' },
    ]);
    expect(
      within(purchases())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Receipt', 'Date', 'Sold by', 'Lines', 'Total', 'Payment']);
    const [first] = purchaseRows();
    expect(cells(first)).toEqual([
      'S-000125',
      formatDateTime('2025-06-25T12:00:00.000Z'),
      'Sold by Olga Other',
      '2 lines',
      '$125.00',
      'Cash',
    ]);
    expect(
      within(first as HTMLElement)
        .getByRole('link', { name: 'S-000125' })
        .getAttribute('href'),
    ).toBe('/admin-dashboard/sales/sale-125');
    expect(purchaseRows()).toHaveLength(20);
  });

  it('keeps the purchases page in the address: a shared link opens it, Next writes it', async () => {
    const { router, calls } = renderAt('admin', '/admin-dashboard/customers/ada?page=2');
    await screen.findByText('S-000105');
    expect(purchaseRows().map((row) => row.cells[0]?.textContent)).toEqual([
      'S-000105',
      'S-000104',
      'S-000103',
      'S-000102',
      'S-000101',
    ]);
    expect(listCalls(calls, '/api/sales').at(-1)?.query).toEqual({
      customer: 'ada',
      page: '2',
      pageSize: '20',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await screen.findByText('S-000125');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
  });

  it('a sales rep opens the receipts of the sales they made; the others are shown, not linked; no Edit or Delete', async () => {
    renderAt('salesRep', '/salesRep-dashboard/customers/ada');
    await screen.findByText('S-000125');
    const [others, mine] = purchaseRows();
    expect(within(others as HTMLElement).queryByRole('link')).toBeNull();
    expect(
      within(mine as HTMLElement)
        .getByRole('link', { name: 'S-000124' })
        .getAttribute('href'),
    ).toBe('/salesRep-dashboard/sales/sale-124');
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('a customer who bought nothing yet', async () => {
    renderAt('user', '/employee-dashboard/customers/ada', {
      'GET /api/customers/ada': () => ({
        body: {
          success: true,
          customer: { ...ADA, phone: '', email: '', note: '' },
          summary: { sales: 0, totalSpent: 0, lastPurchaseAt: null, creditBalance: 0 },
        },
      }),
      'GET /api/sales': () => ({ body: { success: true, sales: [], total: 0, page: 1, pageSize: 20 } }),
    });
    expect(await screen.findByText('No purchases yet.')).toBeTruthy();
    const summary = screen.getByRole('region', { name: 'Summary' });
    expect(termValue(summary, 'Sales')).toBe('0');
    expect(termValue(summary, 'Total spent')).toBe('$0.00');
    expect(termValue(summary, 'Last purchase')).toBe('None yet');
    expect(termValue(screen.getByRole('region', { name: 'Details' }), 'Phone')).toBe('—');
  });

  it('says so when the customer does not exist', async () => {
    renderAt('admin', '/admin-dashboard/customers/ada', {
      'GET /api/customers/ada': () => ({
        status: 404,
        body: { success: false, error: 'Customer not found.' },
      }),
    });
    const alert = (await screen.findByText(/No such customer/)).closest('[role="alert"]');
    expect(alert?.textContent).toBe('No such customer: they may have been deleted.');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('an admin edits the customer here, and a delete goes back to the list', async () => {
    let current = ADA;
    const { router, calls } = renderAt('admin', '/admin-dashboard/customers/ada', {
      'GET /api/customers/ada': () => ({ body: { success: true, customer: current, summary: SUMMARY } }),
      'PUT /api/customers/ada': ({ body }) => {
        current = { ...ADA, ...(body as Partial<Customer>) };
        return { body: { success: true, customer: current } };
      },
      'DELETE /api/customers/ada': () => ({ body: { success: true, message: 'Customer deleted.' } }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Customer' });
    await userEvent.clear(within(dialog).getByLabelText('Phone'));
    await userEvent.type(within(dialog).getByLabelText('Phone'), '555-0000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(termValue(screen.getByRole('region', { name: 'Details' }), 'Phone')).toBe('555-0000'),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { name: 'The customers list' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin-dashboard/customers');
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });
});
