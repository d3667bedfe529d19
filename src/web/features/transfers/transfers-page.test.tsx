import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TRANSFER_STATUSES, type TransferSummary } from '../../../shared/transfers';
import { atViewport } from '../../test/viewport';
import {
  answerList,
  BACK,
  callsTo,
  line,
  MAIN,
  renderTransfers,
  summary,
  transfer,
} from './transfers-test-data';

/** 25 transfers, newest first, statuses taking turns, every third one from the stockroom. */
const all: TransferSummary[] = Array.from({ length: 25 }, (_, i) =>
  summary(
    transfer({
      _id: `t${25 - i}`,
      number: `TR-${String(25 - i).padStart(6, '0')}`,
      status: TRANSFER_STATUSES[i % TRANSFER_STATUSES.length] ?? 'draft',
      ...(i % 3 === 0 ? { from: BACK, to: MAIN } : {}),
      lines: [
        line('p1', 'Blue Pen', { quantity: 4, sent: 4, received: 1 }),
        line('p2', 'Red Pen', { quantity: 2, sent: 2 }),
      ],
    }),
  ),
);

/** GET /api/transfers as the server answers it, from `rows`. */
const listFrom =
  (rows: TransferSummary[]) =>
  ({ query }: { query: Record<string, string> }) =>
    answerList(
      rows.filter(
        (one) =>
          (!query.status || one.status === query.status) &&
          (!query.location || one.from._id === query.location || one.to._id === query.location),
      ),
      query,
    );

const table = () => screen.findByRole('table', { name: 'Transfers, newest first' });
const bodyRows = (element: HTMLElement) => within(element).getAllByRole('row').slice(1);
const listQueries = (calls: Parameters<typeof callsTo>[0]) =>
  callsTo(calls, 'GET', '/api/transfers').map((call) => call.query);

describe('the transfers list', () => {
  it('says it is loading, then shows number (a link), from → to, status, lines, units, in transit, created', async () => {
    renderTransfers('/admin-dashboard/transfers', { 'GET /api/transfers': listFrom(all) });
    const list = await table();
    expect(within(list).getByText('Loading transfers...')).toBeTruthy();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(20));
    expect(
      within(list)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Number', 'From → to', 'Status', 'Lines', 'Units', 'In transit', 'Created']);
    const [first, second] = bodyRows(list);
    expect(
      within(first as HTMLElement)
        .getByRole('link', { name: 'TR-000025' })
        .getAttribute('href'),
    ).toBe('/admin-dashboard/transfers/t25');
    expect(first?.textContent).toBe(
      'TR-000025Stockroom →to Main storeDraftLines 2Units 6In transit 5May 1, 2025',
    );
    expect(second?.textContent).toMatch(/Main store →to StockroomIn transit/);
    expect(screen.getByRole('link', { name: 'New transfer' }).getAttribute('href')).toBe(
      '/admin-dashboard/transfers/new',
    );
    expect(screen.getByText('Showing 1–20 of 25')).toBeTruthy();
  });

  it('sends the status and location filters and the page, and keeps them in the address', async () => {
    const { calls, router } = renderTransfers('/admin-dashboard/transfers', {
      'GET /api/transfers': listFrom(all),
    });
    const list = await table();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(20));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(() => expect(bodyRows(list)).toHaveLength(5));
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'In transit');
    await waitFor(() => expect(router.state.location.search).toBe('?status=inTransit'));
    await waitFor(() => expect(screen.getByLabelText('From or to')).toHaveProperty('disabled', false));
    await userEvent.selectOptions(screen.getByLabelText('From or to'), 'Stockroom');
    await waitFor(() => expect(router.state.location.search).toBe('?status=inTransit&location=l2'));
    await waitFor(() =>
      expect(bodyRows(list).every((row) => /In transit/.test(row.textContent ?? ''))).toBe(true),
    );
    // The inactive location is not offered as a filter.
    expect(within(screen.getByLabelText('From or to')).queryByText('Old shop')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(listQueries(calls)).toEqual([
      { page: '1', pageSize: '20' },
      { page: '2', pageSize: '20' },
      { status: 'inTransit', page: '1', pageSize: '20' },
      { status: 'inTransit', location: 'l2', page: '1', pageSize: '20' },
      { page: '1', pageSize: '20' },
    ]);
  });

  it('opens on the filters the address names', async () => {
    const { calls } = renderTransfers('/admin-dashboard/transfers?status=received&location=l1', {
      'GET /api/transfers': listFrom(all),
    });
    await table();
    await waitFor(() => expect(listQueries(calls)).toHaveLength(1));
    expect(listQueries(calls)[0]).toEqual({ status: 'received', location: 'l1', page: '1', pageSize: '20' });
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('received');
    await waitFor(() => expect((screen.getByLabelText('From or to') as HTMLSelectElement).value).toBe('l1'));
  });

  it('says there are none yet, with a link to make one, and says so apart when filters match none', async () => {
    renderTransfers('/admin-dashboard/transfers', { 'GET /api/transfers': listFrom([]) });
    const list = await table();
    expect(await within(list).findByText('No transfers yet.')).toBeTruthy();
    expect(
      within(list).getByRole('link', { name: 'Move stock between locations' }).getAttribute('href'),
    ).toBe('/admin-dashboard/transfers/new');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Closed');
    expect(await within(list).findByText('No transfers match these filters.')).toBeTruthy();
  });

  it('shows why the list could not be loaded (never as an empty list), and tries again on request', async () => {
    let failures = 1;
    renderTransfers('/admin-dashboard/transfers', {
      'GET /api/transfers': (call) =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'An internal error occurred.' } }
          : listFrom(all.slice(0, 2))(call),
    });
    const list = await table();
    expect((await within(list).findByRole('alert')).textContent).toBe(
      'The transfers could not be loaded: An internal error occurred.',
    );
    expect(within(list).queryByText('No transfers yet.')).toBeNull();
    await userEvent.click(within(list).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(bodyRows(list)).toHaveLength(2));
  });

  it('stacks each row as a card on a phone, the headers kept for screen readers', async () => {
    atViewport(375);
    renderTransfers('/admin-dashboard/transfers', { 'GET /api/transfers': listFrom(all.slice(0, 1)) });
    const list = await table();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(1));
    expect(list.querySelector('thead')?.className).toContain('max-sm:sr-only');
    expect(bodyRows(list)[0]?.textContent).toContain('In transit');
  });
});
