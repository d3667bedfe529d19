import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ReorderSuggestionsResponse } from '../../../shared/purchasing';
import {
  ACME,
  callsTo,
  GLOBEX,
  type Handler,
  line,
  MAIN,
  purchaseOrder,
  ROOM,
  renderPurchasing,
} from './purchasing-test-data';

const suggestions: ReorderSuggestionsResponse = {
  success: true,
  suppliers: [
    {
      supplier: ACME,
      draft: null,
      lines: [
        {
          product: { _id: 'p1', name: 'Blue Pen' },
          stock: 2,
          onOrder: 0,
          reorderPoint: 5,
          suggested: 8,
          unitCost: 0.1,
        },
        {
          product: { _id: 'p3', name: 'Stapler' },
          stock: 0,
          onOrder: 1,
          reorderPoint: 2,
          suggested: 3,
          unitCost: 4.5,
        },
      ],
    },
    {
      supplier: GLOBEX,
      draft: null,
      lines: [
        {
          product: { _id: 'p2', name: 'Red Pen' },
          stock: 1,
          onOrder: 0,
          reorderPoint: 4,
          suggested: 7,
          unitCost: 0,
        },
      ],
    },
  ],
};

const drafted = [
  purchaseOrder({
    _id: 'po7',
    number: 'PO-000007',
    lines: [line('p1', 'Blue Pen', { quantity: 5 })],
    total: 0.5,
  }),
  purchaseOrder({ _id: 'po8', number: 'PO-000008', supplier: GLOBEX, total: 0 }),
];

function renderReorder(overrides: Record<string, Handler> = {}) {
  return renderPurchasing('/admin-dashboard/reorder', {
    'GET /api/reorder-suggestions': () => ({ body: suggestions }),
    'POST /api/reorder-suggestions/draft': ({ body }) => {
      const { supplier } = body as { supplier?: string };
      const purchaseOrders = supplier ? drafted.filter((one) => one.supplier._id === supplier) : drafted;
      return { status: 201, body: { success: true, purchaseOrders, existingDrafts: [] } };
    },
    ...overrides,
  });
}

const section = (name: string) => screen.findByRole('region', { name });
const subtotal = (region: HTMLElement) =>
  within(region).getByRole('rowheader', { name: 'Subtotal' }).nextSibling?.textContent;
const drafts = (calls: Parameters<typeof callsTo>[0]) =>
  callsTo(calls, 'POST', '/api/reorder-suggestions/draft');

describe('the reorder page', () => {
  it('shows a table per supplier with each product, its numbers, a line total and a subtotal', async () => {
    renderReorder();
    const acme = await section('Acme');
    const table = within(acme).getByRole('table', { name: 'Reorder suggestions from Acme' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Product', 'Stock', 'On order', 'Reorder point', 'Order quantity', 'Unit cost', 'Line total']);
    const blue = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(within(blue).getByRole('link', { name: 'Blue Pen' }).getAttribute('href')).toBe(
      '/admin-dashboard/products/p1/stock',
    );
    expect(
      within(blue)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Blue Pen',
      '2',
      '0',
      'Stock 2, on order 0, reorder point 5',
      '',
      'Unit cost $0.10',
      'Line total $0.80',
    ]);
    expect((within(blue).getByLabelText('Quantity of Blue Pen to order') as HTMLInputElement).value).toBe(
      '8',
    );
    // 8 × 0.10 + 3 × 4.50
    expect(subtotal(acme)).toBe('$14.30');
    expect(subtotal(await section('Globex'))).toBe('$0.00');
  });

  it('sends the edited quantities (0 leaves a product out) and links to the drafts it created', async () => {
    const { calls } = renderReorder();
    const acme = await section('Acme');
    const blue = within(acme).getByLabelText('Quantity of Blue Pen to order');
    await userEvent.clear(blue);
    await userEvent.type(blue, '5');
    const stapler = within(acme).getByLabelText('Quantity of Stapler to order');
    await userEvent.clear(stapler);
    await userEvent.type(stapler, '0');
    expect(subtotal(acme)).toBe('$0.50');
    await userEvent.click(screen.getByRole('button', { name: 'Create draft purchase orders' }));
    expect(await screen.findByText('2 draft purchase orders created.')).toBeTruthy();
    expect(drafts(calls).map((call) => call.body)).toEqual([{ quantities: { p1: 5, p3: 0, p2: 7 } }]);
    expect(drafts(calls)[0]?.headers['Idempotency-Key']).toMatch(/^[\x21-\x7e]{1,200}$/);
    const created = screen.getByText('Draft purchase orders created:').parentElement as HTMLElement;
    expect(within(created).getByRole('link', { name: 'PO-000007' }).getAttribute('href')).toBe(
      '/admin-dashboard/purchase-orders/po7',
    );
    expect(within(created).getByRole('link', { name: 'PO-000008' }).getAttribute('href')).toBe(
      '/admin-dashboard/purchase-orders/po8',
    );
    expect(within(created).getByRole('link', { name: 'See every draft' }).getAttribute('href')).toBe(
      '/admin-dashboard/purchase-orders?status=draft',
    );
  });

  it("drafts one supplier's order with that supplier's quantities only", async () => {
    const { calls } = renderReorder();
    const globex = await section('Globex');
    await userEvent.click(within(globex).getByRole('button', { name: 'Draft for this supplier (Globex)' }));
    expect(await screen.findByText('1 draft purchase order created.')).toBeTruthy();
    expect(drafts(calls).map((call) => call.body)).toEqual([{ supplier: 's2', quantities: { p2: 7 } }]);
  });

  it('refuses a quantity that is not a whole number of 0 or more, and all zeros, without calling', async () => {
    const { calls } = renderReorder();
    const acme = await section('Acme');
    const blue = within(acme).getByLabelText('Quantity of Blue Pen to order');
    await userEvent.clear(blue);
    await userEvent.type(blue, '2.5');
    await userEvent.click(within(acme).getByRole('button', { name: 'Draft for this supplier (Acme)' }));
    expect(within(acme).getByText('Quantity must be a whole number.')).toBeTruthy();
    expect(blue.getAttribute('aria-invalid')).toBe('true');
    expect(within(acme).getByRole('alert').textContent).toBe('Correct the quantities marked above.');
    await userEvent.clear(blue);
    await userEvent.type(blue, '0');
    const stapler = within(acme).getByLabelText('Quantity of Stapler to order');
    await userEvent.clear(stapler);
    await userEvent.type(stapler, '0');
    await userEvent.click(within(acme).getByRole('button', { name: 'Draft for this supplier (Acme)' }));
    expect(within(acme).getByRole('alert').textContent).toBe(
      'Every quantity is 0: there is nothing to draft.',
    );
    expect(drafts(calls)).toHaveLength(0);
  });

  it('says when there is nothing to reorder', async () => {
    renderReorder({ 'GET /api/reorder-suggestions': () => ({ body: { success: true, suppliers: [] } }) });
    expect(
      await screen.findByText('Nothing to reorder: every product is above its reorder point.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create draft purchase orders' })).toBeNull();
  });

  it('shows why the suggestions could not be loaded, and tries again on request', async () => {
    let failures = 1;
    renderReorder({
      'GET /api/reorder-suggestions': () =>
        failures-- > 0
          ? { status: 503, body: { success: false, error: 'Try later.' } }
          : { body: suggestions },
    });
    expect(await screen.findByText('The suggestions could not be loaded: Try later.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Acme' })).toBeTruthy());
  });

  it('a supplier with a draft already says so and links to it instead of drafting another', async () => {
    const withDraft: ReorderSuggestionsResponse = {
      ...suggestions,
      suppliers: suggestions.suppliers.map((group) =>
        group.supplier._id === 's1' ? { ...group, draft: { _id: 'po11', number: 'PO-000011' } } : group,
      ),
    };
    const { calls } = renderReorder({
      'GET /api/reorder-suggestions': () => ({ body: withDraft }),
      'POST /api/reorder-suggestions/draft': () => ({
        status: 201,
        body: { success: true, purchaseOrders: [drafted[1]], existingDrafts: [] },
      }),
    });
    const acme = await section('Acme');
    expect(
      within(acme).getByText(
        'Draft PO-000011 exists for Acme: change its lines there rather than drafting another.',
      ),
    ).toBeTruthy();
    expect(within(acme).getByRole('link', { name: 'Open draft PO-000011 (Acme)' }).getAttribute('href')).toBe(
      '/admin-dashboard/purchase-orders/po11',
    );
    expect(within(acme).queryByRole('button', { name: /Draft for this supplier/ })).toBeNull();
    // Drafting for every supplier asks only for those without a draft.
    await userEvent.click(screen.getByRole('button', { name: 'Create draft purchase orders' }));
    expect(await screen.findByText('1 draft purchase order created.')).toBeTruthy();
    expect(drafts(calls).map((call) => call.body)).toEqual([{ quantities: { p2: 7 } }]);
  });

  it('once drafted, the supplier links to its draft: a second press makes no second draft', async () => {
    let made: { _id: string; number: string } | null = null;
    const { calls } = renderReorder({
      'GET /api/reorder-suggestions': () => ({
        body: {
          ...suggestions,
          suppliers: suggestions.suppliers.map((group) =>
            group.supplier._id === 's2' ? { ...group, draft: made } : group,
          ),
        },
      }),
      'POST /api/reorder-suggestions/draft': () => {
        if (made)
          return {
            status: 409,
            body: {
              success: false,
              error: 'Drafted twice.',
              code: 'DRAFT_EXISTS',
              existing: { _id: made._id, name: made.number },
            },
          };
        made = { _id: 'po8', number: 'PO-000008' };
        return { status: 201, body: { success: true, purchaseOrders: [drafted[1]], existingDrafts: [] } };
      },
    });
    const globex = await section('Globex');
    await userEvent.click(within(globex).getByRole('button', { name: 'Draft for this supplier (Globex)' }));
    const open = await within(globex).findByRole('link', { name: 'Open draft PO-000008 (Globex)' });
    expect(open.getAttribute('href')).toBe('/admin-dashboard/purchase-orders/po8');
    expect(within(globex).queryByRole('button', { name: /Draft for this supplier/ })).toBeNull();
    expect(within(globex).getByText(/^Draft PO-000008 exists for Globex/)).toBeTruthy();
    // Still so once the suggestions were asked again (the server names the draft).
    await waitFor(() => expect(callsTo(calls, 'GET', '/api/reorder-suggestions').length).toBeGreaterThan(1));
    expect(
      within(await section('Globex')).getByRole('link', { name: 'Open draft PO-000008 (Globex)' }),
    ).toBeTruthy();
    expect(drafts(calls)).toHaveLength(1);
  });

  it('a refusal naming a draft made elsewhere (another tab) shows the sentence and links to that draft', async () => {
    renderReorder({
      'POST /api/reorder-suggestions/draft': () => ({
        status: 409,
        body: {
          success: false,
          error:
            'Acme already has a draft purchase order, PO-000011: open it to change it rather than drafting another.',
          code: 'DRAFT_EXISTS',
          existing: { _id: 'po11', name: 'PO-000011' },
        },
      }),
    });
    const acme = await section('Acme');
    await userEvent.click(within(acme).getByRole('button', { name: 'Draft for this supplier (Acme)' }));
    expect((await within(acme).findByRole('alert')).textContent).toBe(
      'Acme already has a draft purchase order, PO-000011: open it to change it rather than drafting another.',
    );
    expect(within(acme).getByRole('link', { name: 'Open draft PO-000011 (Acme)' }).getAttribute('href')).toBe(
      '/admin-dashboard/purchase-orders/po11',
    );
  });

  describe('at one location', () => {
    /** The suggestions at Main store: Blue Pen from the back room in full, the Stapler in part, Red Pen bought. */
    const atMain: ReorderSuggestionsResponse = {
      success: true,
      location: MAIN,
      suppliers: [
        {
          supplier: ACME,
          draft: null,
          lines: [
            {
              product: { _id: 'p1', name: 'Blue Pen' },
              stock: 2,
              onOrder: 0,
              reorderPoint: 5,
              suggested: 0,
              unitCost: 0.1,
              transferFrom: { location: ROOM, available: 20, quantity: 8 },
            },
            {
              product: { _id: 'p3', name: 'Stapler' },
              stock: 0,
              onOrder: 1,
              reorderPoint: 2,
              suggested: 2,
              unitCost: 4.5,
              transferFrom: { location: ROOM, available: 1, quantity: 1 },
            },
          ],
        },
        {
          supplier: GLOBEX,
          draft: null,
          lines: [
            {
              product: { _id: 'p2', name: 'Red Pen' },
              stock: 1,
              onOrder: 0,
              reorderPoint: 4,
              suggested: 7,
              unitCost: 0,
              transferFrom: null,
            },
          ],
        },
      ],
    };
    const byLocation: Handler = ({ query }) => ({ body: query.location ? atMain : suggestions });

    it('the picker asks the suggestions there and the address keeps it', async () => {
      const { calls, router } = renderReorder({ 'GET /api/reorder-suggestions': byLocation });
      await section('Acme');
      const picker = screen.getByLabelText('Location') as HTMLSelectElement;
      await waitFor(() =>
        expect(Array.from(picker.options).map((option) => option.textContent)).toEqual([
          'The whole store',
          MAIN.name,
          ROOM.name,
        ]),
      );
      expect(screen.queryByRole('columnheader', { name: 'Transfer first' })).toBeNull();
      await userEvent.selectOptions(picker, MAIN.name);
      await waitFor(() => expect(router.state.location.search).toBe(`?location=${MAIN._id}`));
      expect(await screen.findAllByRole('columnheader', { name: 'Transfer first' })).toHaveLength(2);
      expect(callsTo(calls, 'GET', '/api/reorder-suggestions').map((call) => call.query.location)).toEqual([
        undefined,
        MAIN._id,
      ]);
      // The picker keeps its place (and the focus) as the suggestions change.
      expect(screen.getByLabelText('Location')).toBe(picker);
      await userEvent.selectOptions(picker, 'The whole store');
      await waitFor(() => expect(router.state.location.search).toBe(''));
    });

    it('shows "Transfer N from …" with a link to the new transfer, before the quantity to buy', async () => {
      renderPurchasing(`/admin-dashboard/reorder?location=${MAIN._id}`, {
        'GET /api/reorder-suggestions': byLocation,
      });
      const acme = await section('Acme');
      const table = within(acme).getByRole('table', { name: 'Reorder suggestions from Acme' });
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((th) => th.textContent),
      ).toEqual([
        'Product',
        'Stock',
        'On order',
        'Reorder point',
        'Transfer first',
        'Order quantity',
        'Unit cost',
        'Line total',
      ]);
      const blue = within(table).getByRole('link', { name: 'Transfer 8 from Back room (Blue Pen)' });
      expect(blue.getAttribute('href')).toBe(
        `/admin-dashboard/transfers/new?from=${ROOM._id}&to=${MAIN._id}&product=p1&quantity=8`,
      );
      expect(blue.parentElement?.textContent).toContain('20 to spare there; nothing left to buy');
      expect((within(table).getByLabelText('Quantity of Blue Pen to order') as HTMLInputElement).value).toBe(
        '0',
      );
      const stapler = within(table).getByRole('link', { name: 'Transfer 1 from Back room (Stapler)' });
      expect(stapler.parentElement?.textContent).toContain('buy the other 2');
      expect((within(table).getByLabelText('Quantity of Stapler to order') as HTMLInputElement).value).toBe(
        '2',
      );
      // 0 × 0.10 + 2 × 4.50
      expect(subtotal(acme)).toBe('$9.00');
      const globex = await section('Globex');
      expect(within(globex).getByText('None to spare elsewhere')).toBeTruthy();
      expect(within(globex).queryByRole('link', { name: /^Transfer/ })).toBeNull();
    });

    it('drafts what transfers do not cover, delivered to that location', async () => {
      const { calls } = renderPurchasing(`/admin-dashboard/reorder?location=${MAIN._id}`, {
        'GET /api/reorder-suggestions': byLocation,
        'POST /api/reorder-suggestions/draft': () => ({
          status: 201,
          body: { success: true, purchaseOrders: [drafted[1]], existingDrafts: [] },
        }),
      });
      const globex = await section('Globex');
      await userEvent.click(within(globex).getByRole('button', { name: 'Draft for this supplier (Globex)' }));
      expect(await screen.findByText('1 draft purchase order created.')).toBeTruthy();
      expect(drafts(calls).map((call) => call.body)).toEqual([
        { supplier: 's2', location: MAIN._id, quantities: { p2: 7 } },
      ]);
    });

    it('says so when nothing is to reorder there, and why the suggestions could not be loaded', async () => {
      let fail = true;
      renderPurchasing(`/admin-dashboard/reorder?location=${ROOM._id}`, {
        'GET /api/reorder-suggestions': () =>
          fail
            ? { status: 404, body: { success: false, error: 'Location not found.' } }
            : { body: { success: true, location: ROOM, suppliers: [] } },
      });
      expect(await screen.findByText(/could not be loaded: Location not found\./)).toBeTruthy();
      fail = false;
      await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
      expect(
        await screen.findByText('Nothing to reorder: every product is above its reorder point.'),
      ).toBeTruthy();
    });
  });
});
