import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { linesTotal, type PurchaseOrder, type PurchaseOrderInput } from '../../../shared/purchasing';
import type { FetchCall } from '../../test/helpers';
import {
  ACME,
  answerOrder,
  callsTo,
  GLOBEX,
  type Handler,
  line,
  MAIN,
  product,
  purchaseOrder,
  ROOM,
  renderPurchasing,
} from './purchasing-test-data';

const catalogue = [
  product('p1', 'Blue Pen', { cost: 0.1 }),
  product('p2', 'Red Pen', { cost: null, supplier: GLOBEX }),
  product('p3', 'Stapler', { cost: 4.5 }),
];

/** GET /api/products: the catalogue's names containing the search, ten at most. */
const searchProducts: Handler = ({ query }) => {
  const matches = catalogue.filter((one) =>
    one.name.toLowerCase().includes((query.search ?? '').toLowerCase()),
  );
  return {
    body: { success: true, products: matches.slice(0, 10), total: matches.length, page: 1, pageSize: 10 },
  };
};

/** A fake server holding one purchase order that saves, orders and cancels as the real one does. */
function server(start: PurchaseOrder | null) {
  const state = { order: start };
  const linesFrom = (input: PurchaseOrderInput) =>
    input.lines.map((one, index) =>
      line(one.product, catalogue.find((known) => known._id === one.product)?.name ?? one.product, {
        _id: `line-${index}`,
        quantity: Number(one.quantity),
        unitCost: Number(one.unitCost),
      }),
    );
  const written = (input: PurchaseOrderInput, base: PurchaseOrder) => {
    const lines = linesFrom(input);
    const supplier = [ACME, GLOBEX].find((one) => one._id === input.supplier) ?? ACME;
    const location = [MAIN, ROOM].find((one) => one._id === input.location) ?? MAIN;
    state.order = { ...base, supplier, location, note: input.note ?? '', lines, total: linesTotal(lines) };
    return state.order;
  };
  const handlers: Record<string, Handler> = {
    'GET /api/products': searchProducts,
    'GET /api/purchase-orders/po1': () =>
      state.order ? answerOrder(state.order) : { status: 404, body: { success: false, error: 'Not found' } },
    'POST /api/purchase-orders': ({ body }) =>
      answerOrder(written(body as PurchaseOrderInput, purchaseOrder({ lines: [], total: 0 })), 201),
    'PUT /api/purchase-orders/po1': ({ body }) =>
      answerOrder(written(body as PurchaseOrderInput, state.order ?? purchaseOrder())),
    'POST /api/purchase-orders/po1/order': () => {
      if (state.order?.status !== 'draft')
        return {
          status: 409,
          body: { success: false, error: 'PO-000001 is ordered; only a draft can be marked ordered.' },
        };
      state.order = { ...state.order, status: 'ordered', orderedAt: '2025-05-02T09:00:00.000Z' };
      return answerOrder(state.order);
    },
    'POST /api/purchase-orders/po1/cancel': () => {
      if (!state.order) return { status: 404, body: { success: false, error: 'Not found' } };
      const somethingIn = state.order.lines.some((one) => one.received > 0);
      state.order = { ...state.order, status: somethingIn ? 'closed' : 'cancelled' };
      return answerOrder(state.order);
    },
  };
  return { state, handlers };
}

const posts = (calls: FetchCall[]) => calls.filter((call) => call.method !== 'GET');
const linesTable = () => screen.getByRole('table', { name: 'Lines of the purchase order' });
const totalShown = (table: HTMLElement) =>
  within(table).getByRole('rowheader', { name: 'Total' }).nextSibling?.textContent;

async function addBySearch(text: string, pick: 'keyboard' | 'mouse', option: string) {
  const box = screen.getByRole('combobox', { name: 'Add a product' });
  await userEvent.clear(box);
  await userEvent.type(box, text);
  const list = await screen.findByRole('listbox', { name: 'Matching products' });
  const choice = await within(list).findByRole('option', { name: new RegExp(option) });
  if (pick === 'mouse') {
    await userEvent.click(choice);
    return;
  }
  // The first match is active; ArrowDown moves to the next one, ArrowUp back.
  const options = within(list).getAllByRole('option');
  const steps = options.indexOf(choice);
  await userEvent.keyboard(`${'{ArrowDown}'.repeat(steps + 1)}{ArrowUp}`);
  expect(box.getAttribute('aria-activedescendant')).toBe(choice.id);
  await userEvent.keyboard('{Enter}');
}

async function setBox(label: string, value: string) {
  const box = screen.getByLabelText(label);
  await userEvent.clear(box);
  if (value) await userEvent.type(box, value);
}

describe('a new purchase order', () => {
  it('is delivered to the default location unless another active one is chosen', async () => {
    const { handlers, state } = server(null);
    const { calls, router } = renderPurchasing('/admin-dashboard/purchase-orders/new', handlers);
    const picker = (await screen.findByLabelText('Deliver to')) as HTMLSelectElement;
    await waitFor(() =>
      expect(Array.from(picker.options).map((option) => option.textContent)).toEqual([
        'The default location',
        MAIN.name,
        ROOM.name,
      ]),
    );
    expect(picker.value).toBe('');
    await addBySearch('pen', 'mouse', 'Blue Pen');
    await userEvent.selectOptions(picker, ROOM.name);
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-dashboard/purchase-orders/po1'));
    expect(posts(calls)[0]?.body).toMatchObject({ supplier: 's1', location: ROOM._id });
    expect(state.order?.location).toEqual(ROOM);
    // The draft's own location is chosen; "the default" is no longer offered.
    expect(await screen.findByRole('heading', { name: 'PO-000001', level: 1 })).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByLabelText('Deliver to') as HTMLSelectElement).value).toBe(ROOM._id),
    );
    expect(
      Array.from((screen.getByLabelText('Deliver to') as HTMLSelectElement).options).map(
        (o) => o.textContent,
      ),
    ).toEqual([MAIN.name, ROOM.name]);
  });

  it('shows the server’s refusal of an inactive location and stays on the form', async () => {
    const { handlers } = server(null);
    const { router } = renderPurchasing('/admin-dashboard/purchase-orders/new', {
      ...handlers,
      'POST /api/purchase-orders': () => ({
        status: 409,
        body: {
          success: false,
          code: 'LOCATION_INACTIVE',
          error: 'Back room is inactive: choose an active location.',
        },
      }),
    });
    await waitFor(() => expect(screen.getByRole('option', { name: ROOM.name })).toBeTruthy());
    await addBySearch('pen', 'mouse', 'Blue Pen');
    await userEvent.selectOptions(screen.getByLabelText('Deliver to'), ROOM.name);
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    // Said in the form (and in a notification).
    expect(
      (await screen.findAllByText('Back room is inactive: choose an active location.')).length,
    ).toBeGreaterThan(0);
    expect(router.state.location.pathname).toBe('/admin-dashboard/purchase-orders/new');
  });

  it('adds two products found by search, sums the lines exactly, and saves the draft it shows', async () => {
    const { handlers, state } = server(null);
    const { calls, router } = renderPurchasing('/admin-dashboard/purchase-orders/new', handlers);
    expect(await screen.findByRole('heading', { name: 'New purchase order', level: 1 })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('option', { name: 'Acme' })).toBeTruthy());

    await addBySearch('pen', 'keyboard', 'Blue Pen');
    // The first product's supplier is chosen for an order without one; the cost is the product's.
    expect((screen.getByLabelText('Supplier') as HTMLSelectElement).value).toBe('s1');
    expect((screen.getByLabelText('Unit cost of Blue Pen') as HTMLInputElement).value).toBe('0.10');
    await addBySearch('red', 'mouse', 'Red Pen');
    expect((screen.getByLabelText('Unit cost of Red Pen') as HTMLInputElement).value).toBe('0.00');
    expect((screen.getByLabelText('Quantity of Red Pen') as HTMLInputElement).value).toBe('1');

    await setBox('Quantity of Blue Pen', '3');
    await setBox('Unit cost of Red Pen', '0.20');
    const table = linesTable();
    const rows = within(table).getAllByRole('row').slice(1, 3);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('$0.30'),
      expect.stringContaining('$0.20'),
    ]);
    // 3 × 0.10 + 1 × 0.20 is 0.50 exactly, not 0.5000000000000001.
    expect(totalShown(table)).toBe('$0.50');

    await userEvent.type(screen.getByLabelText('Note'), 'Deliver before noon');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-dashboard/purchase-orders/po1'));
    const [create] = posts(calls);
    expect(create?.method).toBe('POST');
    expect(create?.body).toEqual({
      supplier: 's1',
      note: 'Deliver before noon',
      lines: [
        { product: 'p1', quantity: 3, unitCost: 0.1 },
        { product: 'p2', quantity: 1, unitCost: 0.2 },
      ],
    });
    expect(create?.headers['Idempotency-Key']).toMatch(/^[\x21-\x7e]{1,200}$/);
    expect(state.order?.total).toBe(0.5);
    expect(await screen.findByText('PO-000001 saved as a draft.')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'PO-000001', level: 1 })).toBeTruthy();
    expect((screen.getByLabelText('Quantity of Blue Pen') as HTMLInputElement).value).toBe('3');
  });

  it('picking a product already on the order moves to its quantity instead of adding it twice', async () => {
    const { handlers } = server(null);
    renderPurchasing('/admin-dashboard/purchase-orders/new', handlers);
    await screen.findByRole('combobox', { name: 'Add a product' });
    await addBySearch('blue', 'keyboard', 'Blue Pen');
    await addBySearch('blue', 'mouse', 'Blue Pen \\(on this order\\)');
    expect(screen.getAllByRole('spinbutton', { name: /^Quantity of/ })).toHaveLength(1);
    expect(document.activeElement).toBe(screen.getByLabelText('Quantity of Blue Pen'));
  });

  it('refuses to save with the shared rules: a supplier, a line, whole quantities and cents', async () => {
    const { handlers } = server(null);
    const { calls } = renderPurchasing('/admin-dashboard/purchase-orders/new', handlers);
    await userEvent.click(await screen.findByRole('button', { name: 'Save draft' }));
    expect(screen.getByText('Choose a supplier.')).toBeTruthy();
    expect(screen.getByText('Add at least one line.')).toBeTruthy();

    await addBySearch('stapler', 'keyboard', 'Stapler');
    await setBox('Quantity of Stapler', '0');
    await setBox('Unit cost of Stapler', '1.234');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(screen.getByText('Quantity must be at least 1.')).toBeTruthy();
    expect(screen.getByText('Unit cost must have at most 2 decimals.')).toBeTruthy();
    expect(screen.getByLabelText('Quantity of Stapler').getAttribute('aria-invalid')).toBe('true');
    await setBox('Quantity of Stapler', '');
    await userEvent.click(screen.getByRole('button', { name: 'Mark ordered' }));
    expect(screen.getByText('Quantity must be a number.')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
  });

  it("shows the server's sentence when it refuses the draft", async () => {
    const { handlers } = server(null);
    renderPurchasing('/admin-dashboard/purchase-orders/new', {
      ...handlers,
      'POST /api/purchase-orders': () => ({
        status: 400,
        body: { success: false, error: 'Choose existing products for every line.' },
      }),
    });
    await addBySearch('blue', 'keyboard', 'Blue Pen');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Choose existing products for every line.');
  });

  it('Mark ordered creates the draft, orders it, and shows it read only', async () => {
    const { handlers, state } = server(null);
    const { calls, router } = renderPurchasing('/admin-dashboard/purchase-orders/new', handlers);
    await addBySearch('blue', 'keyboard', 'Blue Pen');
    await userEvent.click(screen.getByRole('button', { name: 'Mark ordered' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-dashboard/purchase-orders/po1'));
    expect(posts(calls).map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /api/purchase-orders',
      'POST /api/purchase-orders/po1/order',
    ]);
    expect(state.order?.status).toBe('ordered');
    expect(await screen.findByText('PO-000001 is ordered from Acme.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Receive' })).toBeTruthy();
  });
});

describe('a draft', () => {
  it('Mark ordered saves the changes first, then orders; the lines then show ordered, received and open', async () => {
    const { handlers } = server(purchaseOrder());
    const { calls } = renderPurchasing('/admin-dashboard/purchase-orders/po1', handlers);
    expect(await screen.findByRole('heading', { name: 'PO-000001', level: 1 })).toBeTruthy();
    await setBox('Quantity of Blue Pen', '4');
    await userEvent.selectOptions(screen.getByLabelText('Supplier'), 'Globex');
    await userEvent.click(screen.getByRole('button', { name: 'Mark ordered' }));
    const table = await screen.findByRole('table', { name: 'Lines of PO-000001' });
    expect(posts(calls).map((call) => `${call.method} ${call.path}`)).toEqual([
      'PUT /api/purchase-orders/po1',
      'POST /api/purchase-orders/po1/order',
    ]);
    expect(posts(calls)[0]?.body).toEqual({
      supplier: 's2',
      note: '',
      location: 'l1',
      lines: [{ product: 'p1', quantity: 4, unitCost: 0.1 }],
    });
    expect(posts(calls)[1]?.headers['Idempotency-Key']).toBeTruthy();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Product', 'Ordered', 'Received', 'Billed', 'Open', 'Unit cost', 'Line total']);
    expect(within(table).getAllByRole('row')[1]?.textContent).toBe(
      'Blue PenOrdered 4Received 0Billed 0Open 4Unit cost $0.10$0.40',
    );
    expect(screen.queryByRole('spinbutton')).toBeNull();
    expect(screen.getByText('Globex')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save draft' })).toBeNull();
  });

  it('Mark ordered on an unchanged draft sends no save', async () => {
    const { handlers } = server(purchaseOrder());
    const { calls } = renderPurchasing('/admin-dashboard/purchase-orders/po1', handlers);
    await userEvent.click(await screen.findByRole('button', { name: 'Mark ordered' }));
    await screen.findByRole('button', { name: 'Receive' });
    expect(posts(calls).map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /api/purchase-orders/po1/order',
    ]);
  });

  it('a 409 shows the sentence and the order as it is now', async () => {
    const { handlers, state } = server(purchaseOrder());
    const { calls } = renderPurchasing('/admin-dashboard/purchase-orders/po1', {
      ...handlers,
      'PUT /api/purchase-orders/po1': () => {
        // Someone else ordered it meanwhile.
        state.order = { ...purchaseOrder(), status: 'ordered' };
        return {
          status: 409,
          body: { success: false, error: 'PO-000001 is ordered; only a draft can be changed.' },
        };
      },
    });
    await screen.findByLabelText('Quantity of Blue Pen');
    await setBox('Quantity of Blue Pen', '9');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await screen.findByRole('button', { name: 'Receive' });
    expect(screen.getByText('PO-000001 is ordered; only a draft can be changed.')).toBeTruthy();
    expect(callsTo(calls, 'GET', '/api/purchase-orders/po1')).toHaveLength(2);
    expect(screen.getByText('Ordered', { selector: '[data-status]' })).toBeTruthy();
  });

  it('Cancel asks first, and then the draft is cancelled and read only', async () => {
    const { handlers } = server(purchaseOrder());
    const { calls } = renderPurchasing('/admin-dashboard/purchase-orders/po1', handlers);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel purchase order' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel PO-000001?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep the draft' }));
    expect(posts(calls)).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel purchase order' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel purchase order' }),
    );
    expect(await screen.findByText('Cancelled', { selector: '[data-status]' })).toBeTruthy();
    expect(posts(calls).map((call) => call.path)).toEqual(['/api/purchase-orders/po1/cancel']);
    expect(screen.queryByRole('button', { name: /Cancel|Receive|Close|Mark ordered/ })).toBeNull();
  });
});

describe('an order on its way', () => {
  const partly = purchaseOrder({
    status: 'partially_received',
    orderedAt: '2025-05-02T09:00:00.000Z',
    lines: [
      line('p1', 'Blue Pen', { quantity: 10, received: 4, unitCost: 0.1 }),
      line('p3', 'Stapler', { quantity: 2, received: 0, unitCost: 4.5 }),
    ],
    total: 10,
  });

  it('closes a partly received order once the admin confirms the rest is no longer expected', async () => {
    const { handlers, state } = server(partly);
    const { calls } = renderPurchasing('/admin-dashboard/purchase-orders/po1', handlers);
    expect(await screen.findByRole('button', { name: 'Receive' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel purchase order' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Close purchase order' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Close PO-000001?' });
    expect(dialog.textContent).toContain(
      'What was received stays in stock. The rest (8 units) will no longer be expected from Acme.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep it open' }));
    expect(posts(calls)).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Close purchase order' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Close purchase order' }),
    );
    expect(await screen.findByText('PO-000001 is closed.')).toBeTruthy();
    expect(state.order?.status).toBe('closed');
    expect(screen.getByText('Closed', { selector: '[data-status]' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Receive' })).toBeNull();
    expect(posts(calls)[0]?.headers['Idempotency-Key']).toBeTruthy();
  });

  it('a received order is read only, with Print', async () => {
    const { handlers } = server(
      purchaseOrder({ status: 'received', receivedAt: '2025-05-03T09:00:00.000Z' }),
    );
    renderPurchasing('/admin-dashboard/purchase-orders/po1', handlers);
    await screen.findByRole('table', { name: 'Lines of PO-000001' });
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(screen.getByText('Delivered to').nextSibling?.textContent).toBe(MAIN.name);
    expect(screen.getByRole('link', { name: 'Print' }).getAttribute('href')).toBe(
      '/admin-dashboard/purchase-orders/po1/print',
    );
  });

  it('shows what posted bills billed of each line, and Bill this while something received is not billed', async () => {
    const { handlers, state } = server(
      purchaseOrder({
        status: 'received',
        receivedAt: '2025-05-03T09:00:00.000Z',
        lines: [
          line('p1', 'Blue Pen', { quantity: 10, received: 10, billed: 4, unitCost: 0.1 }),
          line('p3', 'Stapler', { quantity: 2, received: 2, billed: 2, unitCost: 4.5 }),
        ],
        total: 10,
      }),
    );
    const first = renderPurchasing('/admin-dashboard/purchase-orders/po1', handlers);
    const table = await screen.findByRole('table', { name: 'Lines of PO-000001' });
    expect(within(table).getAllByRole('row')[1]?.textContent).toBe(
      'Blue PenOrdered 10Received 10Billed 4Open 0Unit cost $0.10$1.00',
    );
    expect(screen.getByRole('link', { name: 'Bill this' }).getAttribute('href')).toBe(
      '/admin-dashboard/bills/new?purchaseOrder=po1',
    );
    first.router.dispose();
    cleanup();
    // Once every unit received is on a posted bill, there is nothing left to bill.
    state.order = purchaseOrder({
      status: 'received',
      lines: [line('p1', 'Blue Pen', { quantity: 10, received: 10, billed: 10, unitCost: 0.1 })],
    });
    renderPurchasing('/admin-dashboard/purchase-orders/po1', handlers);
    await screen.findByRole('table', { name: 'Lines of PO-000001' });
    expect(screen.queryByRole('link', { name: 'Bill this' })).toBeNull();
  });

  it('says why a purchase order could not be loaded', async () => {
    const { handlers } = server(null);
    renderPurchasing('/admin-dashboard/purchase-orders/po1', handlers);
    expect(await screen.findByText('The purchase order could not be loaded: Not found')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('the printable purchase order', () => {
  it("shows the supplier's address, the lines and the total, and prints on request", async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const { handlers } = server(
      purchaseOrder({
        status: 'ordered',
        orderedAt: '2025-05-02T09:00:00.000Z',
        note: 'Back door',
        lines: [
          line('p1', 'Blue Pen', { quantity: 3, unitCost: 0.1 }),
          line('p3', 'Stapler', { _id: 'line-2', quantity: 1, unitCost: 0.2 }),
        ],
        total: 0.5,
      }),
    );
    renderPurchasing('/admin-dashboard/purchase-orders/po1/print', {
      ...handlers,
      'GET /api/supplier': () => ({
        body: {
          success: true,
          suppliers: [{ ...ACME, email: 'orders@acme.test', phone: '555-0100', address: '1 Dock Road' }],
        },
      }),
    });
    expect(await screen.findByRole('heading', { name: 'Purchase order PO-000001', level: 1 })).toBeTruthy();
    const address = await screen.findByText('orders@acme.test');
    expect(address.closest('address')?.textContent).toBe('Acme1 Dock Roadorders@acme.test555-0100');
    const table = screen.getByRole('table', { name: 'Lines of PO-000001' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['ProductQuantityUnit costAmount', 'Blue Pen3$0.10$0.30', 'Stapler1$0.20$0.20', 'Total$0.50']);
    expect(screen.getByText('Back door')).toBeTruthy();
    // Where to deliver, with the location's address once the locations are known.
    const deliverTo = screen.getByRole('region', { name: 'Deliver to' });
    await waitFor(() => expect(within(deliverTo).getByText('1 High Street')).toBeTruthy());
    expect(deliverTo.querySelector('address')?.textContent).toBe('Main store1 High Street');
    await userEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
  });
});
