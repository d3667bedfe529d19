import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { STOCKTAKE_STATUSES, type Stocktake } from '../../../shared/stocktakes';
import { atViewport } from '../../test/viewport';
import { answerList, BACK, callsTo, renderStocktakes, stocktake } from './stocktakes-test-data';

/** 25 stocktakes, newest first, statuses taking turns, every other one at the stockroom. */
const all: Stocktake[] = Array.from({ length: 25 }, (_, i) =>
  stocktake({
    _id: `s${25 - i}`,
    number: `ST-${String(25 - i).padStart(6, '0')}`,
    status: STOCKTAKE_STATUSES[i % STOCKTAKE_STATUSES.length] ?? 'counting',
    blind: i === 0,
    lines: 10 + i,
    ...(i % 2 === 0 ? { location: BACK } : {}),
  }),
);

const listFrom =
  (rows: Stocktake[]) =>
  ({ query }: { query: Record<string, string> }) =>
    answerList(
      rows.filter(
        (one) =>
          (!query.status || one.status === query.status) &&
          (!query.location || one.location._id === query.location),
      ),
      query,
    );

const table = () => screen.findByRole('table', { name: 'Stocktakes, newest first' });
const bodyRows = (element: HTMLElement) => within(element).getAllByRole('row').slice(1);
const listQueries = (calls: Parameters<typeof callsTo>[0]) =>
  callsTo(calls, 'GET', '/api/stocktakes').map((call) => call.query);

describe('the stocktakes list (admin)', () => {
  it('says it is loading, then shows number (a link), location, status, lines, created and by', async () => {
    renderStocktakes('/admin-dashboard/stocktakes', { 'GET /api/stocktakes': listFrom(all) });
    const list = await table();
    expect(within(list).getByText('Loading stocktakes...')).toBeTruthy();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(20));
    expect(
      within(list)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Number', 'Location', 'Status', 'Lines', 'Created', 'By']);
    const [first, second] = bodyRows(list);
    expect(
      within(first as HTMLElement)
        .getByRole('link', { name: 'ST-000025' })
        .getAttribute('href'),
    ).toBe('/admin-dashboard/stocktakes/s25');
    expect(first?.textContent).toBe('ST-000025BlindStockroomCountingLines 10May 1, 2025by Test admin');
    expect(second?.textContent).toBe('ST-000024Main storePostedLines 11May 1, 2025by Test admin');
    expect(screen.getByRole('link', { name: 'New stocktake' }).getAttribute('href')).toBe(
      '/admin-dashboard/stocktakes/new',
    );
    expect(screen.getByText('Showing 1–20 of 25')).toBeTruthy();
  });

  it('sends the status and location filters and the page, and keeps them in the address', async () => {
    const { calls, router } = renderStocktakes('/admin-dashboard/stocktakes', {
      'GET /api/stocktakes': listFrom(all),
    });
    const list = await table();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(20));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(() => expect(bodyRows(list)).toHaveLength(5));
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Posted');
    await waitFor(() => expect(router.state.location.search).toBe('?status=posted'));
    await waitFor(() => expect(screen.getByLabelText('Location')).toHaveProperty('disabled', false));
    await userEvent.selectOptions(screen.getByLabelText('Location'), 'Stockroom');
    await waitFor(() => expect(router.state.location.search).toBe('?status=posted&location=l2'));
    await waitFor(() =>
      expect(bodyRows(list).every((row) => /StockroomPosted/.test(row.textContent ?? ''))).toBe(true),
    );
    expect(within(screen.getByLabelText('Location')).queryByText('Old shop')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(listQueries(calls)).toEqual([
      { page: '1', pageSize: '20' },
      { page: '2', pageSize: '20' },
      { status: 'posted', page: '1', pageSize: '20' },
      { status: 'posted', location: 'l2', page: '1', pageSize: '20' },
      { page: '1', pageSize: '20' },
    ]);
  });

  it('says there are none yet, with a link to make one, and says so apart when filters match none', async () => {
    renderStocktakes('/admin-dashboard/stocktakes', { 'GET /api/stocktakes': listFrom([]) });
    const list = await table();
    expect(await within(list).findByText('No stocktakes yet.')).toBeTruthy();
    expect(within(list).getByRole('link', { name: 'Count a location' }).getAttribute('href')).toBe(
      '/admin-dashboard/stocktakes/new',
    );
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Cancelled');
    expect(await within(list).findByText('No stocktakes match these filters.')).toBeTruthy();
  });

  it('shows why the list could not be loaded (never as an empty list), and tries again on request', async () => {
    let failures = 1;
    renderStocktakes('/admin-dashboard/stocktakes', {
      'GET /api/stocktakes': (call) =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'An internal error occurred.' } }
          : listFrom(all.slice(0, 2))(call),
    });
    const list = await table();
    expect((await within(list).findByRole('alert')).textContent).toBe(
      'The stocktakes could not be loaded: An internal error occurred.',
    );
    expect(within(list).queryByText('No stocktakes yet.')).toBeNull();
    await userEvent.click(within(list).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(bodyRows(list)).toHaveLength(2));
  });

  it('stacks each row as a card on a phone, the headers kept for screen readers', async () => {
    atViewport(375);
    renderStocktakes('/admin-dashboard/stocktakes', { 'GET /api/stocktakes': listFrom(all.slice(0, 1)) });
    const list = await table();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(1));
    expect(list.querySelector('thead')?.className).toContain('max-sm:sr-only');
    expect(bodyRows(list)[0]?.className).toContain('max-sm:grid');
  });
});

describe('the counters’ Stocktake screen', () => {
  it('lists only the stocktakes counting, each with Count and its sheet in the counter’s own area', async () => {
    const { calls } = renderStocktakes(
      '/salesRep-dashboard/stocktakes',
      {
        'GET /api/stocktakes': listFrom(all),
      },
      'salesRep',
    );
    expect(await screen.findByRole('heading', { name: 'Stocktake' })).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Stocktakes being counted' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(9);
    expect(listQueries(calls)[0]).toEqual({ status: 'counting', page: '1', pageSize: '20' });
    const first = within(list).getAllByRole('listitem')[0] as HTMLElement;
    expect(first.textContent).toContain('ST-000025 · Stockroom');
    expect(within(first).getByRole('link', { name: 'Count ST-000025' }).getAttribute('href')).toBe(
      '/salesRep-dashboard/stocktakes/s25/count',
    );
    expect(within(first).getByRole('link', { name: 'Count sheet of ST-000025' }).getAttribute('href')).toBe(
      '/salesRep-dashboard/stocktakes/s25/sheet',
    );
  });

  it('says when nothing is being counted, and a failure is never that', async () => {
    let failures = 1;
    renderStocktakes(
      '/employee-dashboard/stocktakes',
      {
        'GET /api/stocktakes': (call) =>
          failures-- > 0
            ? { status: 503, body: { success: false, error: 'The database is resting.' } }
            : listFrom([])(call),
      },
      'user',
    );
    expect(
      await screen.findByText('The open stocktakes could not be loaded: The database is resting.'),
    ).toBeTruthy();
    expect(screen.queryByText('No stocktake is being counted now.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No stocktake is being counted now.')).toBeTruthy();
  });
});
