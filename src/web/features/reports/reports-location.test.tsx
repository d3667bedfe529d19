import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { StockByLocationResponse } from '../../../shared/reports';
import { formatMoney } from '../../lib/format';
import {
  callsTo,
  categoriesAnswer,
  dailySales,
  MAIN,
  ROOM,
  renderReports,
  stockAnswer,
} from './reports-test-data';

const byLocation = (location?: string) =>
  StockByLocationResponse.parse({
    success: true,
    locations: [
      { location: { _id: MAIN, name: 'Main store' }, active: true, products: 3, units: 100, value: 150 },
      { location: { _id: ROOM, name: 'Back room' }, active: true, products: 1, units: 24, value: 30.5 },
    ].filter((row) => !location || row.location._id === location),
    totals: location ? { products: 1, units: 24, value: 30.5 } : { products: 4, units: 124, value: 180.5 },
  });

describe('the reports by location', () => {
  it('asks every report at the chosen location, keeps it in the address, and the CSV carries it', async () => {
    const { calls, router } = renderReports('/admin-dashboard/reports?tab=categories', {
      'GET /api/reports/categories': (call) => ({ body: categoriesAnswer(call.query) }),
    });
    await screen.findByRole('heading', { name: 'Sales by category' });
    await waitFor(() => expect(screen.getByRole('option', { name: 'Back room' })).toBeTruthy());
    await userEvent.selectOptions(screen.getByLabelText('Location'), ROOM);
    await waitFor(() => expect(callsTo(calls, '/api/reports/categories').at(-1)?.query.location).toBe(ROOM));
    expect(new URLSearchParams(router.state.location.search).get('location')).toBe(ROOM);
    const download = await screen.findByRole('button', { name: /CSV/ });
    await userEvent.click(download);
    await waitFor(() => {
      const csv = callsTo(calls, '/api/reports/categories').find((c) => c.query.format === 'csv');
      expect(csv?.query.location).toBe(ROOM);
    });
  });

  it('opened with a location, the sales report asks that location’s figures', async () => {
    const { calls } = renderReports(`/admin-dashboard/reports?location=${ROOM}`, {
      'GET /api/reports/sales': (call) => ({ body: dailySales(call.query) }),
    });
    await waitFor(() => expect(callsTo(calls, '/api/reports/sales').length).toBeGreaterThan(0));
    expect(callsTo(calls, '/api/reports/sales').every((c) => c.query.location === ROOM)).toBe(true);
  });

  it('the stock tab shows the stock value by location in a small table, and one location when chosen', async () => {
    const { calls } = renderReports('/admin-dashboard/reports?tab=stock', {
      'GET /api/reports/stock': () => ({ body: stockAnswer() }),
      'GET /api/reports/stock/locations': (call) => ({ body: byLocation(call.query.location) }),
    });
    const table = await screen.findByRole('table', { name: /Stock value by location/ });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Location'),
      expect.stringContaining('Main store'),
      expect.stringContaining('Back room'),
      expect.stringContaining('Total'),
    ]);
    expect(within(table).getByText(formatMoney(30.5))).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('option', { name: 'Back room' })).toBeTruthy());
    await userEvent.selectOptions(screen.getByLabelText('Location'), ROOM);
    await waitFor(() =>
      expect(callsTo(calls, '/api/reports/stock/locations').at(-1)?.query.location).toBe(ROOM),
    );
    expect(callsTo(calls, '/api/reports/stock').at(-1)?.query.location).toBe(ROOM);
  });

  it('says so when the stock value by location cannot be loaded, and when there is none', async () => {
    renderReports('/admin-dashboard/reports?tab=stock', {
      'GET /api/reports/stock': () => ({ body: stockAnswer() }),
      'GET /api/reports/stock/locations': () => ({
        status: 500,
        body: {
          success: false,
          error: 'Something went wrong on our side; please try again.',
          code: 'INTERNAL',
        },
      }),
    });
    expect(await screen.findByText(/stock value by location/i, { selector: 'p, div, span' })).toBeTruthy();
  });
});
