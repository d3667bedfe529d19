import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../../shared/orders';
import type { User } from '../../../shared/users';
import { formatDate } from '../../lib/format';
import { SignedInContext } from '../../lib/signed-in';
import { listCalls, mockFetch, pageAnswer, renderWithClient, signIn, userOf } from '../../test/helpers';
import { atViewport } from '../../test/viewport';
import { OrdersPage } from './orders-page';

function order(index: number, buyer: string): Order {
  return {
    _id: `o${index}`,
    user: { _id: 'u1', name: buyer, address: `${index} Harbour Lane` },
    product: { _id: 'p1', name: `Product ${String(index).padStart(3, '0')}`, category: { name: 'Drinks' } },
    quantity: 2,
    unitPrice: 667.08,
    unitCost: null,
    totalPrice: 1334.16,
    discount: 0,
    tax: 0,
    taxRate: null,
    netTotal: 1334.16,
    returnedTotal: 0,
    // May 1 on every clock from UTC−10 to UTC+13.
    orderDate: '2025-05-01T10:00:00.000Z',
    status: 'placed',
    returnedQuantity: 0,
    sale: null,
    customer: null,
    lots: [],
  };
}

function renderOrders(me: User, orders: Order[]) {
  signIn(me);
  const mock = mockFetch({
    [`GET /api/order/${me._id}`]: ({ query }) => {
      const { rows, ...info } = pageAnswer(orders, query, (o) => `${o.product.name} ${o.user.name}`);
      return { body: { success: true, orders: rows, ...info } };
    },
  });
  renderWithClient(
    <SignedInContext value={me}>
      <MemoryRouter>
        <OrdersPage />
      </MemoryRouter>
    </SignedInContext>,
  );
  return mock;
}

function table(name: string) {
  return screen.getByRole('table', { name });
}

function bodyRows(name: string) {
  return within(table(name)).getAllByRole('row').slice(1) as HTMLTableRowElement[];
}

describe('Orders', () => {
  it("admin: every order with the buyer's name and address, a page at a time, numbered across pages", async () => {
    const admin = userOf('admin');
    const { calls } = renderOrders(
      admin,
      Array.from({ length: 75 }, (_, i) => order(i + 1, i % 2 ? 'Rita Rep' : 'Eli Employee')),
    );
    expect(screen.getByRole('heading', { name: 'Orders', level: 1 })).toBeTruthy();
    await screen.findByText('Product 001');
    const headers = within(table('All orders'))
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual([
      'S NO',
      'Name',
      'Address',
      'Product Name',
      'Category',
      'Quantity',
      'Total Price',
      'Order Date',
      'Sale',
      'Actions',
    ]);
    expect(screen.getByText('Showing 1–50 of 75')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Product 051');
    const first = bodyRows('All orders')[0];
    expect(Array.from(first?.cells ?? [], (cell) => cell.textContent).slice(0, 8)).toEqual([
      '51',
      'Eli Employee',
      '51 Harbour Lane',
      'Product 051',
      'Drinks',
      '2',
      '$1,334.16',
      'May 1, 2025',
    ]);
    expect(screen.getByText('Showing 51–75 of 75')).toBeTruthy();
    expect(listCalls(calls, '/api/order/admin-id').at(-1)?.query).toEqual({ page: '2', pageSize: '50' });
  });

  it('admin: the search goes to the server once typing pauses and starts on page 1', async () => {
    const { calls } = renderOrders(
      userOf('admin'),
      Array.from({ length: 75 }, (_, i) => order(i + 1, i % 2 ? 'Rita Rep' : 'Eli Employee')),
    );
    await screen.findByText('Product 001');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Product 051');
    await userEvent.type(screen.getByPlaceholderText('Search orders by product or user...'), 'rita');
    await waitFor(() => expect(bodyRows('All orders')).toHaveLength(37));
    expect(bodyRows('All orders')[0]?.cells[1]?.textContent).toBe('Rita Rep');
    expect(bodyRows('All orders')[0]?.cells[0]?.textContent).toBe('1');
    expect(listCalls(calls, '/api/order/admin-id').map((call) => call.query.search)).toEqual([
      undefined,
      undefined,
      'rita',
    ]);
    expect(listCalls(calls, '/api/order/admin-id').at(-1)?.query.page).toBe('1');
  });

  it("a rep: 'My Orders' without names or addresses, and 'No orders found' when there are none", async () => {
    renderOrders(userOf('salesRep'), []);
    expect(screen.getByRole('heading', { name: 'My Orders', level: 1 })).toBeTruthy();
    expect(await screen.findByText('No orders found')).toBeTruthy();
    const headers = within(table('My orders'))
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual([
      'S NO',
      'Product Name',
      'Category',
      'Quantity',
      'Total Price',
      'Order Date',
      'Sale',
    ]);
    expect(screen.queryByRole('navigation', { name: 'Orders pages' })).toBeNull();
    // Exports are admin work (exports:read): a rep is offered no CSV.
    expect(screen.queryByRole('button', { name: 'Download CSV' })).toBeNull();
  });

  it('admin: returned and partly returned orders are marked, and only what can still come back offers Return', async () => {
    renderOrders(userOf('admin'), [
      order(1, 'Rita Rep'),
      { ...order(2, 'Rita Rep'), quantity: 5, returnedQuantity: 2 },
      { ...order(3, 'Rita Rep'), status: 'returned', returnedQuantity: 2 },
    ]);
    await screen.findByText('Product 003');
    const [whole, part, back] = bodyRows('All orders');
    const quantity = (row?: HTMLTableRowElement) => row?.cells[5]?.textContent;
    expect([quantity(whole), quantity(part), quantity(back)]).toEqual(['2', '52 of 5 returned', '2Returned']);
    expect(
      within(whole as HTMLElement).getByRole('button', { name: 'Return Product 001 ordered by Rita Rep' }),
    ).toBeTruthy();
    expect(within(part as HTMLElement).getByRole('button', { name: /^Return Product 002/ })).toBeTruthy();
    expect(within(back as HTMLElement).queryByRole('button')).toBeNull();
  });

  it('admin: Return opens the dialog for that order with what remains, and the list is asked again after it', async () => {
    let orders = [{ ...order(1, 'Rita Rep'), quantity: 5, returnedQuantity: 2 }];
    const admin = userOf('admin');
    signIn(admin);
    const { calls } = mockFetch({
      'GET /api/order/admin-id': ({ query }) => {
        const { rows, ...info } = pageAnswer(orders, query, (o) => o.product.name);
        return { body: { success: true, orders: rows, ...info } };
      },
      'POST /api/order/o1/return': ({ body }) => {
        const returned = 2 + (body as { quantity: number }).quantity;
        orders = [{ ...order(1, 'Rita Rep'), quantity: 5, returnedQuantity: returned, status: 'returned' }];
        return { body: { success: true, order: orders[0] } };
      },
    });
    renderWithClient(
      <SignedInContext value={admin}>
        <MemoryRouter>
          <OrdersPage />
        </MemoryRouter>
      </SignedInContext>,
    );
    await userEvent.click(await screen.findByRole('button', { name: /^Return Product 001/ }));
    const dialog = screen.getByRole('dialog', { name: 'Return: Product 001' });
    expect((within(dialog).getByLabelText('Quantity') as HTMLInputElement).value).toBe('3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Return to stock' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(bodyRows('All orders')[0]?.cells[5]?.textContent).toBe('5Returned'));
    expect(screen.queryByRole('button', { name: /^Return Product 001/ })).toBeNull();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ quantity: 3 });
  });

  it('a rep sees the same marks on their own orders, and no Return', async () => {
    renderOrders(userOf('salesRep'), [
      { ...order(1, 'Rita Rep'), quantity: 5, returnedQuantity: 1 },
      { ...order(2, 'Rita Rep'), status: 'returned', returnedQuantity: 2 },
    ]);
    await screen.findByText('Product 002');
    const rows = bodyRows('My orders');
    expect(rows.map((row) => row.cells[3]?.textContent)).toEqual(['51 of 5 returned', '2Returned']);
    expect(within(table('My orders')).queryByRole('button')).toBeNull();
  });

  it.each([
    ['admin', 'admin-dashboard', 'All orders'],
    ['salesRep', 'salesRep-dashboard', 'My orders'],
  ] as const)(
    '%s: an order of a sale shows its receipt number and customer, each a link inside %s',
    async (role, area, caption) => {
      renderOrders(userOf(role), [
        {
          ...order(1, 'Rita Rep'),
          sale: { _id: 'sale-7', number: 123 },
          customer: { _id: 'c9', name: 'Ada Lovelace' },
        },
        {
          ...order(2, 'Rita Rep'),
          sale: { _id: 'sale-8', number: 124 },
          customer: { _id: null, name: 'Gone Customer' },
        },
        { ...order(3, 'Rita Rep'), sale: { _id: 'sale-9', number: 125 }, customer: null },
        order(4, 'Rita Rep'),
      ]);
      await screen.findByText('Product 004');
      const sale = (row: HTMLTableRowElement | undefined) =>
        row?.cells[row.cells.length - (role === 'admin' ? 2 : 1)];
      const [named, gone, anonymous, alone] = bodyRows(caption).map(sale);

      expect(
        within(named as HTMLElement)
          .getByRole('link', { name: 'S-000123' })
          .getAttribute('href'),
      ).toBe(`/${area}/sales/sale-7`);
      expect(
        within(named as HTMLElement)
          .getByRole('link', { name: 'Ada Lovelace' })
          .getAttribute('href'),
      ).toBe(`/${area}/customers/c9`);
      // A deleted customer keeps the name the sale was made under, without a link.
      expect(gone?.textContent).toBe('S-000124 Gone Customer');
      expect(
        within(gone as HTMLElement)
          .getAllByRole('link')
          .map((link) => link.textContent),
      ).toEqual(['S-000124']);
      expect(anonymous?.textContent).toBe('S-000125');
      expect(alone?.textContent).toBe('—');
      expect(within(alone as HTMLElement).queryByRole('link')).toBeNull();
    },
  );
});

/** Each card's fields as [label, value] pairs, in the order shown. */
function cardFields(card: HTMLElement) {
  return Array.from(card.querySelectorAll('dt'), (term) => [
    term.textContent,
    term.nextElementSibling?.textContent,
  ]);
}

describe('Orders on a phone', () => {
  it('admin: each order is a card led by product, quantity, total, date, customer and receipt, then the staff member', async () => {
    atViewport(375);
    renderOrders(userOf('admin'), [
      {
        ...order(1, 'Rita Rep'),
        quantity: 5,
        returnedQuantity: 2,
        totalPrice: 12.5,
        discount: 0,
        tax: 0,
        taxRate: null,
        netTotal: 12.5,
        returnedTotal: 0,
        sale: { _id: 'sale-7', number: 123 },
        customer: { _id: 'c9', name: 'Ada Lovelace' },
      },
      { ...order(2, 'Rita Rep'), status: 'returned', returnedQuantity: 2 },
    ]);
    const list = await screen.findByRole('list', { name: 'All orders' });
    expect(screen.queryByRole('table')).toBeNull();
    const [sold, back] = within(list).getAllByRole('listitem') as HTMLElement[];
    expect(within(sold as HTMLElement).getByRole('heading', { name: 'Product 001' })).toBeTruthy();
    expect(cardFields(sold as HTMLElement)).toEqual([
      ['Quantity', '52 of 5 returned'],
      ['Total Price', '$12.50'],
      ['Order Date', formatDate('2025-05-01T10:00:00.000Z')],
      ['Customer', 'Ada Lovelace'],
      ['Receipt', 'S-000123'],
      ['Category', 'Drinks'],
      ['Ordered by', 'Rita Rep1 Harbour Lane'],
    ]);
    expect(
      within(sold as HTMLElement)
        .getByRole('link', { name: 'S-000123' })
        .getAttribute('href'),
    ).toBe('/admin-dashboard/sales/sale-7');
    expect(
      within(sold as HTMLElement)
        .getByRole('link', { name: 'Ada Lovelace' })
        .getAttribute('href'),
    ).toBe('/admin-dashboard/customers/c9');
    // No receipt for an order without a sale; the returned one offers no Return.
    expect(cardFields(back as HTMLElement).map(([label]) => label)).not.toContain('Receipt');
    expect(within(back as HTMLElement).queryByRole('button')).toBeNull();
    await userEvent.click(
      within(sold as HTMLElement).getByRole('button', { name: 'Return Product 001 ordered by Rita Rep' }),
    );
    expect(screen.getByRole('dialog', { name: 'Return: Product 001' })).toBeTruthy();
  });

  it('a rep: their own orders as cards, without the staff member and without Return', async () => {
    atViewport(375);
    renderOrders(userOf('salesRep'), [order(1, 'Rita Rep')]);
    const list = await screen.findByRole('list', { name: 'My orders' });
    const [card] = within(list).getAllByRole('listitem') as HTMLElement[];
    expect(cardFields(card as HTMLElement).map(([label]) => label)).toEqual([
      'Quantity',
      'Total Price',
      'Order Date',
      'Customer',
      'Category',
    ]);
    expect(within(list).queryByRole('button')).toBeNull();
  });
});
