import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PURCHASE_ORDER_STATUSES, type PurchaseOrderSummary } from '../../../shared/purchasing';
import { ACME, callsTo, GLOBEX, MAIN, ROOM, renderPurchasing } from './purchasing-test-data';

/** 45 orders, newest first, statuses and suppliers taking turns. */
const orders: PurchaseOrderSummary[] = Array.from({ length: 45 }, (_, i) => ({
  _id: `po${45 - i}`,
  number: `PO-${String(45 - i).padStart(6, '0')}`,
  supplier: i % 2 === 0 ? ACME : GLOBEX,
  location: i % 3 === 0 ? ROOM : MAIN,
  status: PURCHASE_ORDER_STATUSES[i % PURCHASE_ORDER_STATUSES.length] ?? 'draft',
  total: 12.5 + i,
  createdAt: '2025-05-01T10:00:00.000Z',
}));

/** GET /api/purchase-orders as the server answers it, from `all`. */
const listFrom =
  (all: PurchaseOrderSummary[]) =>
  ({ query }: { query: Record<string, string> }) => {
    const matches = all.filter(
      (order) =>
        (!query.status || order.status === query.status) &&
        (!query.supplier || order.supplier._id === query.supplier) &&
        (!query.location || order.location._id === query.location),
    );
    const page = Number(query.page ?? 1);
    const pageSize = Number(query.pageSize ?? 20);
    return {
      body: {
        success: true,
        purchaseOrders: matches.slice((page - 1) * pageSize, page * pageSize),
        total: matches.length,
        page,
        pageSize,
      },
    };
  };

const table = () => screen.findByRole('table', { name: 'Purchase orders, newest first' });
const bodyRows = (element: HTMLElement) => within(element).getAllByRole('row').slice(1);
const listQueries = (calls: Parameters<typeof callsTo>[0]) =>
  callsTo(calls, 'GET', '/api/purchase-orders').map((call) => call.query);

describe('the purchase orders list', () => {
  it('shows number (a link), supplier, status in words, total, where it is delivered and date, twenty a page', async () => {
    renderPurchasing('/admin-dashboard/purchase-orders', { 'GET /api/purchase-orders': listFrom(orders) });
    const list = await table();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(20));
    expect(
      within(list)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Number', 'Supplier', 'Status', 'Total', 'Delivered to', 'Date']);
    const [first, second, third, fourth] = bodyRows(list);
    expect(
      within(first as HTMLElement)
        .getByRole('link', { name: 'PO-000045' })
        .getAttribute('href'),
    ).toBe('/admin-dashboard/purchase-orders/po45');
    expect(first?.textContent).toMatch(/PO-000045Acme.*Draft\$12\.50To Back room/);
    expect(second?.textContent).toMatch(/GlobexOrdered\$13\.50To Main store/);
    expect(third?.textContent).toContain('Partially received');
    expect(fourth?.textContent).toContain('Received');
    expect(screen.getByText('Showing 1–20 of 45')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New purchase order' }).getAttribute('href')).toBe(
      '/admin-dashboard/purchase-orders/new',
    );
    expect(screen.getByRole('link', { name: 'Reorder suggestions' }).getAttribute('href')).toBe(
      '/admin-dashboard/reorder',
    );
  });

  it('filters by where it is delivered, kept in the address', async () => {
    const { calls, router } = renderPurchasing('/admin-dashboard/purchase-orders', {
      'GET /api/purchase-orders': listFrom(orders),
    });
    const list = await table();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(20));
    // Only the active locations are offered, with "All locations".
    await waitFor(() =>
      expect(
        Array.from((screen.getByLabelText('Delivered to') as HTMLSelectElement).options).map(
          (option) => option.textContent,
        ),
      ).toEqual(['All locations', MAIN.name, ROOM.name]),
    );
    await userEvent.selectOptions(screen.getByLabelText('Delivered to'), ROOM.name);
    await waitFor(() => expect(router.state.location.search).toBe(`?location=${ROOM._id}`));
    // Every third of 45 is delivered to the back room: 15.
    await waitFor(() => expect(bodyRows(list)).toHaveLength(15));
    expect(bodyRows(list).every((row) => row.textContent?.includes('To Back room'))).toBe(true);
    expect(callsTo(calls, 'GET', '/api/purchase-orders').at(-1)?.query).toMatchObject({ location: ROOM._id });
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('sends the status and supplier filters and the page, and keeps them in the address', async () => {
    const { calls, router } = renderPurchasing('/admin-dashboard/purchase-orders', {
      'GET /api/purchase-orders': listFrom([...orders, ...orders.map((o) => ({ ...o, _id: `${o._id}b` }))]),
    });
    const list = await table();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(20));
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Draft');
    await waitFor(() => expect(router.state.location.search).toBe('?status=draft'));
    await userEvent.selectOptions(screen.getByLabelText('Supplier'), 'Acme');
    await waitFor(() => expect(router.state.location.search).toBe('?status=draft&supplier=s1'));
    // 90 orders, 16 drafts, every draft from Acme here: one page.
    await waitFor(() => expect(bodyRows(list)).toHaveLength(16));
    expect(bodyRows(list).every((row) => /Acme.*Draft/.test(row.textContent ?? ''))).toBe(true);

    await userEvent.selectOptions(screen.getByLabelText('Supplier'), 'Every supplier');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Ordered');
    await waitFor(() => expect(bodyRows(list)[0]?.textContent).toMatch(/Ordered/));
    expect(bodyRows(list)).toHaveLength(16);
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(screen.getByText('Showing 1–20 of 90')).toBeTruthy());
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(() => expect(screen.getByText('Showing 21–40 of 90')).toBeTruthy());
    // A filter goes back to page 1.
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Closed');
    await waitFor(() => expect(router.state.location.search).toBe('?status=closed'));
    expect(listQueries(calls)).toEqual([
      { page: '1', pageSize: '20' },
      { status: 'draft', page: '1', pageSize: '20' },
      { status: 'draft', supplier: 's1', page: '1', pageSize: '20' },
      { status: 'draft', page: '1', pageSize: '20' },
      { status: 'ordered', page: '1', pageSize: '20' },
      { page: '1', pageSize: '20' },
      { page: '2', pageSize: '20' },
      { status: 'closed', page: '1', pageSize: '20' },
    ]);
  });

  it('opens on the filters and page the address names', async () => {
    const { calls } = renderPurchasing('/admin-dashboard/purchase-orders?status=draft&supplier=s2&page=2', {
      'GET /api/purchase-orders': listFrom(orders),
    });
    await table();
    await waitFor(() => expect(listQueries(calls)).toHaveLength(1));
    expect(listQueries(calls)[0]).toEqual({ status: 'draft', supplier: 's2', page: '2', pageSize: '20' });
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('draft');
    await waitFor(() => expect((screen.getByLabelText('Supplier') as HTMLSelectElement).value).toBe('s2'));
  });

  it('says there are none yet, with links to create one and to the suggestions', async () => {
    renderPurchasing('/admin-dashboard/purchase-orders', { 'GET /api/purchase-orders': listFrom([]) });
    const list = await table();
    expect(await within(list).findByText('No purchase orders yet.')).toBeTruthy();
    expect(within(list).getByRole('link', { name: 'Create one' }).getAttribute('href')).toBe(
      '/admin-dashboard/purchase-orders/new',
    );
    expect(within(list).getByRole('link', { name: 'reorder suggestions' }).getAttribute('href')).toBe(
      '/admin-dashboard/reorder',
    );
  });

  it('says when no order matches the filters', async () => {
    renderPurchasing('/admin-dashboard/purchase-orders?status=closed&supplier=s2', {
      'GET /api/purchase-orders': listFrom([]),
    });
    expect(await screen.findByText('No purchase orders match these filters.')).toBeTruthy();
  });

  it('shows why the list could not be loaded, and tries again on request', async () => {
    let failures = 1;
    renderPurchasing('/admin-dashboard/purchase-orders', {
      'GET /api/purchase-orders': (call) =>
        failures-- > 0
          ? { status: 403, body: { success: false, error: 'Forbidden' } }
          : listFrom(orders.slice(0, 2))(call),
    });
    const list = await table();
    expect((await within(list).findByRole('alert')).textContent).toBe(
      'The purchase orders could not be loaded: Forbidden',
    );
    await userEvent.click(within(list).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(bodyRows(list)).toHaveLength(2));
  });
});
