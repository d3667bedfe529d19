import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { DashboardResponse } from '../../../shared/dashboard';
import { formatMoney } from '../../lib/format';
import { type FetchCall, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { AdminDashboardPage } from './admin-dashboard-page';

const ROOM = '22222222-2222-4222-8222-222222222222';
const locations = {
  success: true,
  locations: [
    {
      _id: '11111111-1111-4111-8111-111111111111',
      name: 'Main store',
      kind: 'store',
      address: '',
      active: true,
    },
    { _id: ROOM, name: 'Back room', kind: 'stockroom', address: '', active: true },
  ],
};

function answer(call: FetchCall): DashboardResponse {
  const at = call.query.location === ROOM;
  return {
    success: true,
    totalProducts: 10,
    totalStock: at ? 25 : 100,
    ordersToday: 1,
    revenue: 50,
    today: { sales: 1, revenue: 10, averageBasket: 10 },
    outOfStock: [],
    highestSaleProduct: { message: 'No sales yet.' },
    toReorder: 0,
    expiringSoon: { count: 0, value: 0 },
    lowStock: at ? [{ _id: 'p1', name: 'Blue Pen', stock: 2, category: { name: 'Stationery' } }] : [],
    ...(at
      ? { location: { _id: ROOM, name: 'Back room' }, stockValue: { products: 3, units: 25, value: 61.5 } }
      : {}),
  };
}

function renderAt(path: string, dashboard: (call: FetchCall) => { status?: number; body: unknown }) {
  signIn(userOf('admin'));
  const mock = mockFetch({
    'GET /api/dashboard': dashboard,
    'GET /api/locations': () => ({ body: locations }),
  });
  const router = createMemoryRouter([{ path: '/admin-dashboard', element: <AdminDashboardPage /> }], {
    initialEntries: [path],
  });
  renderWithClient(<RouterProvider router={router} />);
  return { ...mock, router };
}

describe('the dashboard by location', () => {
  it('asks the chosen location’s figures, keeps the choice in the address and shows its stock value', async () => {
    const { calls, router } = renderAt('/admin-dashboard', (call) => ({ body: answer(call) }));
    expect(await screen.findByText('100')).toBeTruthy();
    expect(screen.queryByRole('region', { name: /Stock value at/ })).toBeNull();
    const picker = screen.getByLabelText('Location');
    await waitFor(() => expect(screen.getByRole('option', { name: 'Back room' })).toBeTruthy());
    await userEvent.selectOptions(picker, ROOM);
    const strip = await screen.findByRole('region', { name: 'Stock value at Back room' });
    expect(strip.textContent).toContain(formatMoney(61.5));
    expect(strip.textContent).toContain('25 units of 3 products');
    expect(screen.getByText('Blue Pen')).toBeTruthy();
    expect(router.state.location.search).toBe(`?location=${ROOM}`);
    expect(calls.filter((c) => c.path === '/api/dashboard').map((c) => c.query.location ?? '')).toEqual([
      '',
      ROOM,
    ]);
  });

  it('opened with a location in the address, asks that one; All locations goes back to the store', async () => {
    const { calls, router } = renderAt(`/admin-dashboard?location=${ROOM}`, (call) => ({
      body: answer(call),
    }));
    expect(await screen.findByRole('region', { name: 'Stock value at Back room' })).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/dashboard')?.query.location).toBe(ROOM);
    await userEvent.selectOptions(screen.getByLabelText('Location'), '');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByText('100')).toBeTruthy();
  });

  it('says so when the location’s dashboard cannot be loaded', async () => {
    renderAt(`/admin-dashboard?location=${ROOM}`, () => ({
      status: 404,
      body: { success: false, error: 'Location not found.', code: 'NOT_FOUND' },
    }));
    expect(await screen.findByText(/Location not found\.|could not be loaded|Couldn/i)).toBeTruthy();
  });
});
