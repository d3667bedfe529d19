import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { DashboardResponse } from '../../../shared/dashboard';
import { formatMoney } from '../../lib/format';
import { mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { AdminDashboardPage } from './admin-dashboard-page';

const answer = (toReorder: number, extra: Partial<DashboardResponse> = {}): DashboardResponse => ({
  success: true,
  totalProducts: 1234,
  totalStock: 56789,
  ordersToday: 7,
  revenue: 110568.17,
  today: { sales: 7, revenue: 63.5, averageBasket: 9.07 },
  outOfStock: [],
  highestSaleProduct: { name: 'Blue Pen', category: 'Stationery', totalQuantity: 420 },
  toReorder,
  expiringSoon: { count: 0, value: 0 },
  lowStock: [],
  ...extra,
});

function renderDashboard(toReorder: number, extra: Partial<DashboardResponse> = {}) {
  signIn(userOf('admin'));
  const mock = mockFetch({
    'GET /api/dashboard': () => ({ body: answer(toReorder, extra) }),
    'GET /api/locations': () => ({ body: { success: true, locations: [] } }),
  });
  renderWithClient(
    <MemoryRouter>
      <AdminDashboardPage />
    </MemoryRouter>,
  );
  return mock;
}

/** The value (first description) and the other descriptions of the term named `label`. */
function described(scope: HTMLElement, label: string): string[] {
  const term = within(scope).getByText(label, { selector: 'dt' });
  const descriptions: string[] = [];
  for (let next = term.nextElementSibling; next?.tagName === 'DD'; next = next.nextElementSibling)
    descriptions.push(next.textContent ?? '');
  return descriptions;
}

describe('admin dashboard', () => {
  it('shows how many products to reorder, linking to the reorder suggestions, beside the tiles', async () => {
    renderDashboard(3);
    const link = await screen.findByRole('link', { name: /To reorder\s*3 products/ });
    expect(link.getAttribute('href')).toBe('/admin-dashboard/reorder');
    expect(screen.getByText('1,234')).toBeTruthy();
    expect(screen.getByText('56,789')).toBeTruthy();
    expect(screen.getByText('Revenue')).toBeTruthy();
    expect(screen.getByText('$110,568.17')).toBeTruthy();
  });

  it('says “1 product” for one', async () => {
    renderDashboard(1);
    expect(await screen.findByRole('link', { name: /To reorder\s*1 product$/ })).toBeTruthy();
  });

  it('says the revenue and the best seller are all time, and “Order Today” counts sales', async () => {
    renderDashboard(0);
    await screen.findByText('Revenue');
    const page = document.body;
    expect(described(page, 'Revenue')).toEqual([formatMoney(110568.17), 'all time']);
    expect(described(page, 'Order Today')).toEqual(['7', 'sales since midnight']);
    const best = screen.getByRole('region', { name: 'Highest Sale Product' });
    expect(within(best).getByText('all time')).toBeTruthy();
    expect(within(best).getByText('Blue Pen')).toBeTruthy();
  });

  it('shows today’s sales, revenue and average basket in the Today strip', async () => {
    renderDashboard(0);
    const today = await screen.findByRole('region', { name: 'Today' });
    expect(described(today, 'Sales today')).toEqual(['7']);
    expect(described(today, 'Revenue today')).toEqual([formatMoney(63.5)]);
    expect(described(today, 'Average basket')).toEqual([formatMoney(9.07)]);
  });

  it('shows the lots expiring soon and their value at cost, linking to the expiring list', async () => {
    renderDashboard(0, { expiringSoon: { count: 4, value: 1234.5 } });
    const link = await screen.findByRole('link', { name: /^Expiring soon/ });
    expect(link.getAttribute('href')).toBe('/admin-dashboard/lots/expiring');
    expect(link.textContent).toMatch(
      /Expiring soon4 lots \$1,234\.50 at costwithin 30 days, expired ones included/,
    );
    expect(link.className).toContain('border-red-300');
    // Reached from the keyboard like any link, after the reorder link.
    const reorder = screen.getByRole('link', { name: /To reorder/ });
    reorder.focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(link);
  });

  it('says “1 lot” for one', async () => {
    renderDashboard(0, { expiringSoon: { count: 1, value: 2 } });
    expect((await screen.findByRole('link', { name: /^Expiring soon/ })).textContent).toContain(
      '1 lot $2.00',
    );
  });

  it('shows 0 lots without the warning colour', async () => {
    renderDashboard(0, { expiringSoon: { count: 0, value: 0 } });
    const link = await screen.findByRole('link', { name: /^Expiring soon/ });
    expect(link.textContent).toContain('0 lots $0.00 at cost');
    expect(link.className).not.toContain('border-red-300');
  });

  it('says when the dashboard cannot be loaded, and Try again loads it', async () => {
    signIn(userOf('admin'));
    let attempt = 0;
    const { calls } = mockFetch({
      'GET /api/dashboard': () => {
        attempt += 1;
        return attempt === 1
          ? { status: 500, body: { success: false, error: 'The database is resting.' } }
          : { body: answer(0) };
      },
      'GET /api/locations': () => ({ body: { success: true, locations: [] } }),
    });
    renderWithClient(
      <MemoryRouter>
        <AdminDashboardPage />
      </MemoryRouter>,
    );
    const failed = await screen.findByText(/could not be loaded: The database is resting\./);
    expect(failed.getAttribute('role')).toBe('alert');
    expect(screen.queryByRole('region', { name: 'Today' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Today' })).toBeTruthy();
    expect(screen.queryByText(/could not be loaded/)).toBeNull();
    expect(calls.filter((call) => call.path === '/api/dashboard')).toHaveLength(2);
  });
});
