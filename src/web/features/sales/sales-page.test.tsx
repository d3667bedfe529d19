import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../../shared/roles';
import type { SaleSummary } from '../../../shared/sales';
import { homePathFor } from '../../lib/role-home';
import { SignedInContext } from '../../lib/signed-in';
import { listCalls, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { SalesPage } from './sales-page';

function summary(number: number, overrides: Partial<SaleSummary> = {}): SaleSummary {
  return {
    _id: `sale-${number}`,
    number,
    createdAt: '2025-06-01T12:00:00.000Z',
    seller: { _id: 'rep', name: 'Rita Rep' },
    customer: { _id: 'ada', name: 'Ada Lovelace' },
    subtotal: 1234.5,
    discount: 0,
    tax: 0,
    total: 1234.5,
    payment: { method: 'card', tendered: null },
    change: null,
    lineCount: 3,
    returnedQuantity: 0,
    returnedTotal: 0,
    ...overrides,
  };
}

function renderAt(role: Role, entry: string, handlers: Parameters<typeof mockFetch>[0]) {
  const me = userOf(role);
  signIn(me);
  const mock = mockFetch(handlers);
  const router = createMemoryRouter([{ path: `${homePathFor(role)}/sales`, element: <SalesPage /> }], {
    initialEntries: [entry],
  });
  renderWithClient(
    <SignedInContext value={me}>
      <RouterProvider router={router} />
    </SignedInContext>,
  );
  return { ...mock, router };
}

const list =
  (sales: SaleSummary[], total = sales.length) =>
  () => ({
    body: { success: true, sales, total, page: 1, pageSize: 50 },
  });

describe('the sales view', () => {
  it('shows one row per sale: receipt link, seller, customer, lines, total and what came back', async () => {
    renderAt('admin', '/admin-dashboard/sales', {
      'GET /api/sales': list([
        summary(715, { returnedQuantity: 2, returnedTotal: 20 }),
        summary(714, { customer: null, lineCount: 1 }),
      ]),
    });
    await screen.findByRole('link', { name: 'S-000715' });
    const table = screen.getByRole('table', { name: 'Sales, newest first' });
    const rows = within(table).getAllByRole('row').slice(1);
    const cells = rows.map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
    expect(cells[0]?.[0]).toBe('S-000715');
    expect(cells[0]?.slice(2)).toEqual([
      'Sold by Rita Rep',
      'Ada Lovelace',
      '3 lines',
      '$1,234.50',
      'Returned $20.00 (2 units)',
    ]);
    expect(cells[1]?.slice(3)).toEqual(['—', '1 line', '$1,234.50', '—']);
    expect(within(table).getByRole('link', { name: 'S-000715' }).getAttribute('href')).toBe(
      '/admin-dashboard/sales/sale-715',
    );
    expect(screen.getByRole('link', { name: 'New sale' }).getAttribute('href')).toBe(
      '/admin-dashboard/sales/new',
    );
    // DESIGN §21: only an admin reviews the offline sales.
    expect(screen.getByRole('link', { name: 'Offline sales to review' }).getAttribute('href')).toBe(
      '/admin-dashboard/sales/offline-review',
    );
  });

  it('searches by receipt number or customer and filters by days, keeping the view in the address', async () => {
    const { calls, router } = renderAt('admin', '/admin-dashboard/sales?from=2025-06-01', {
      'GET /api/sales': list([summary(715)]),
    });
    await screen.findByRole('link', { name: 'S-000715' });
    expect(listCalls(calls, '/api/sales')[0]?.query).toMatchObject({ from: '2025-06-01', page: '1' });
    await userEvent.type(screen.getByLabelText('Search'), 'S-000715');
    await waitFor(() => expect(router.state.location.search).toContain('q=S-000715'));
    await waitFor(() =>
      expect(listCalls(calls, '/api/sales').at(-1)?.query).toMatchObject({
        search: 'S-000715',
        from: '2025-06-01',
      }),
    );
    await userEvent.type(screen.getByLabelText('To'), '2025-05-01');
    expect(await screen.findByText('Choose a From date on or before the To date.')).toBeTruthy();
  });

  it('says when nothing matches, and a seller sees the same view of their own sales', async () => {
    renderAt('salesRep', '/salesRep-dashboard/sales?q=nobody', { 'GET /api/sales': list([]) });
    expect(await screen.findByText('No sales match these filters.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New sale' }).getAttribute('href')).toBe(
      '/salesRep-dashboard/sales/new',
    );
    expect(screen.queryByRole('link', { name: 'Offline sales to review' })).toBeNull();
  });
});
