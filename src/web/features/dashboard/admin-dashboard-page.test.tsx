import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { DashboardResponse } from '../../../shared/dashboard';
import { mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { AdminDashboardPage } from './admin-dashboard-page';

const answer = (toReorder: number): DashboardResponse => ({
  success: true,
  totalProducts: 1234,
  totalStock: 56789,
  ordersToday: 7,
  revenue: 1500.5,
  outOfStock: [],
  highestSaleProduct: { message: 'No sales yet.' },
  toReorder,
  lowStock: [],
});

function renderDashboard(toReorder: number) {
  signIn(userOf('admin'));
  mockFetch({ 'GET /api/dashboard': () => ({ body: answer(toReorder) }) });
  renderWithClient(
    <MemoryRouter>
      <AdminDashboardPage />
    </MemoryRouter>,
  );
}

describe('admin dashboard', () => {
  it('shows how many products to reorder, linking to the reorder suggestions, beside the tiles', async () => {
    renderDashboard(3);
    const link = await screen.findByRole('link', { name: /To reorder\s*3 products/ });
    expect(link.getAttribute('href')).toBe('/admin-dashboard/reorder');
    expect(screen.getByText('1,234')).toBeTruthy();
    expect(screen.getByText('56,789')).toBeTruthy();
    expect(screen.getByText('Revenue')).toBeTruthy();
    expect(screen.getByText('$1,500.50')).toBeTruthy();
  });

  it('says “1 product” for one', async () => {
    renderDashboard(1);
    expect(await screen.findByRole('link', { name: /To reorder\s*1 product$/ })).toBeTruthy();
  });
});
