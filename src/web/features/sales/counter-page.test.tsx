import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../../shared/products';
import { customer, product, sale } from '../../test/fixtures';
import { callsOf, codeAnswer, type Handler, productsAnswer, renderSales } from './sales-test-data';

const crisps = product('p1', 'Salted Crisps', { price: 0.1, stock: 5, barcode: '4006381333931' });
const cola = product('p2', 'Cola Can', { price: 0.2, stock: 2, sku: 'COLA-1' });
const water = product('p3', 'Still Water', { price: 1.25, stock: 0, barcode: '5000112637922' });
const catalogue = [crisps, cola, water];

const carla = customer('cu1', 'Carla Customer', { phone: '555-0101' });

function openCounter(handlers: Record<string, Handler> = {}, products: readonly Product[] = catalogue) {
  const view = renderSales('/salesRep-dashboard/sales/new', {
    'GET /api/products': productsAnswer(products),
    'GET /api/products/code/*': codeAnswer(products),
    ...handlers,
  });
  return { ...view, user: userEvent.setup() };
}

function searchBox() {
  return screen.getByRole('combobox', { name: 'Scan or search a product' }) as HTMLInputElement;
}

function cart() {
  return screen.getByRole('list', { name: 'Cart' });
}

function line(name: string) {
  return within(cart()).getByRole('listitem', { name: new RegExp(`^${name},`) });
}

function quantityOf(name: string) {
  return (screen.getByLabelText(`Quantity of ${name}`) as HTMLInputElement).value;
}

function lineTotal(name: string) {
  return within(line(name)).getByText('Line total', { exact: false }).parentElement?.textContent;
}

function completeButton() {
  return screen.getByRole('button', { name: /Complete sale/ }) as HTMLButtonElement;
}

function grandTotal() {
  const term = screen.getByText('Total', { selector: 'dt' });
  return term.nextElementSibling?.textContent;
}

async function scan(user: ReturnType<typeof userEvent.setup>, code: string, name: string, quantity: string) {
  await user.type(searchBox(), `${code}{Enter}`);
  await waitFor(() => expect(quantityOf(name)).toBe(quantity));
}

describe('the sale counter', () => {
  it('opens with the search box focused, an empty-cart hint and Complete sale disabled with its reason', async () => {
    openCounter();
    expect(screen.getByRole('heading', { name: 'New sale', level: 1 })).toBeTruthy();
    // Where the sale takes stock from (DESIGN §17): the session's register and its location.
    expect(screen.getByText('Main store', { selector: 'strong' }).parentElement?.textContent).toBe(
      'Selling from Main store · Till 1',
    );
    expect(document.activeElement).toBe(searchBox());
    expect(screen.getByText('The cart is empty.')).toBeTruthy();
    expect(completeButton().disabled).toBe(true);
    expect(screen.getByText('Add a product to start the sale.')).toBeTruthy();
    await waitFor(() => expect(grandTotal()).toBe('$0.00'));
  });

  it('adds a scanned barcode at once, and the same barcode again as 1 more on its line', async () => {
    const { user, calls } = openCounter();
    await scan(user, '4006381333931', 'Salted Crisps', '1');
    expect(searchBox().value).toBe('');
    expect(document.activeElement).toBe(searchBox());
    expect(screen.getByText('Added Salted Crisps.')).toBeTruthy();
    await scan(user, '4006381333931', 'Salted Crisps', '2');
    expect(within(cart()).getAllByRole('listitem')).toHaveLength(1);
    // Each scan is one exact lookup of the code; no name search is needed for a code.
    expect(callsOf(calls, 'GET', '/api/products/code/4006381333931')).toHaveLength(2);
    // The one list read is the offline kit's (DESIGN §21): the location's whole catalogue, no search.
    expect(callsOf(calls, 'GET', '/api/products').map((call) => call.query)).toEqual([
      { active: 'true', location: 'main' },
    ]);
  });

  it('adds by SKU ignoring case, keeps scans in their order, and says when no product has the code', async () => {
    const { user } = openCounter();
    await user.type(searchBox(), 'cola-1{Enter}');
    await user.type(searchBox(), '4006381333931{Enter}');
    await waitFor(() => expect(within(cart()).getAllByRole('listitem')).toHaveLength(2));
    expect(
      within(cart())
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['Cola Can, quantity 1', 'Salted Crisps, quantity 1']);
    await user.type(searchBox(), '999999{Enter}');
    expect(await screen.findByText('No product has the code or name “999999”.')).toBeTruthy();
    expect(within(cart()).getAllByRole('listitem')).toHaveLength(2);
  });

  it('lists the products matching a name; the arrows and Enter add the highlighted one, a click adds too', async () => {
    const { user } = openCounter();
    await user.type(searchBox(), 'c');
    const list = await screen.findByRole('listbox');
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(2));
    await user.keyboard('{ArrowDown}');
    expect(within(list).getByRole('option', { selected: true }).textContent).toContain('Cola Can');
    await user.keyboard('{Enter}');
    expect(quantityOf('Cola Can')).toBe('1');
    expect(searchBox().value).toBe('');

    await user.type(searchBox(), 'salted');
    await user.click(await screen.findByRole('option', { name: /Salted Crisps/ }));
    expect(quantityOf('Salted Crisps')).toBe('1');
  });

  it('changes a focused line with + and −, removes it with Delete, and moves the focus on', async () => {
    const { user } = openCounter();
    await scan(user, '4006381333931', 'Salted Crisps', '1');
    await scan(user, 'COLA-1', 'Cola Can', '1');
    line('Salted Crisps').focus();
    await user.keyboard('+++');
    expect(quantityOf('Salted Crisps')).toBe('4');
    await user.keyboard('-');
    expect(quantityOf('Salted Crisps')).toBe('3');
    // In the quantity box too, + and − step rather than type.
    await user.click(screen.getByLabelText('Quantity of Salted Crisps'));
    await user.keyboard('+');
    expect(quantityOf('Salted Crisps')).toBe('4');
    line('Salted Crisps').focus();
    await user.keyboard('{Delete}');
    expect(within(cart()).queryByRole('listitem', { name: /^Salted Crisps,/ })).toBeNull();
    expect(document.activeElement).toBe(line('Cola Can'));
    await user.keyboard('{Delete}');
    expect(screen.getByText('The cart is empty.')).toBeTruthy();
    expect(document.activeElement).toBe(searchBox());
  });

  it('flags a line above the stock before sending, and Complete sale waits until it is lowered', async () => {
    const { user, calls } = openCounter();
    await scan(user, 'COLA-1', 'Cola Can', '1');
    await user.clear(screen.getByLabelText('Quantity of Cola Can'));
    await user.type(screen.getByLabelText('Quantity of Cola Can'), '3');
    expect(line('Cola Can').getAttribute('data-above-stock')).toBe('true');
    expect(within(line('Cola Can')).getByText('Only 2 in stock.')).toBeTruthy();
    expect(completeButton().disabled).toBe(true);
    expect(screen.getByText('Some lines ask for more than the stock: lower or remove them.')).toBeTruthy();
    line('Cola Can').focus();
    await user.keyboard('-');
    expect(line('Cola Can').getAttribute('data-above-stock')).toBeNull();
    expect(completeButton().disabled).toBe(false);
    // An out-of-stock product can be scanned, and is flagged at once.
    await scan(user, '5000112637922', 'Still Water', '1');
    expect(within(line('Still Water')).getByText('Out of stock.')).toBeTruthy();
    expect(completeButton().disabled).toBe(true);
    expect(callsOf(calls, 'POST', '/api/sales')).toHaveLength(0);
  });

  it('shows line totals and the grand total exactly (3 × $0.10 + 1 × $0.20 = $0.50)', async () => {
    const { user } = openCounter();
    await scan(user, '4006381333931', 'Salted Crisps', '1');
    await scan(user, 'COLA-1', 'Cola Can', '1');
    await user.clear(screen.getByLabelText('Quantity of Salted Crisps'));
    await user.type(screen.getByLabelText('Quantity of Salted Crisps'), '3');
    expect(lineTotal('Salted Crisps')).toBe('Line total $0.30');
    expect(lineTotal('Cola Can')).toBe('Line total $0.20');
    expect(grandTotal()).toBe('$0.50');
  });

  it('shows the change live for cash and refuses cash tendered below the total', async () => {
    const { user } = openCounter();
    await scan(user, '4006381333931', 'Salted Crisps', '1');
    await user.clear(screen.getByLabelText('Quantity of Salted Crisps'));
    await user.type(screen.getByLabelText('Quantity of Salted Crisps'), '3');
    const tendered = screen.getByLabelText('Cash tendered');
    const change = () => screen.getByRole('status', { name: 'Change' }).textContent;
    expect(change()).toBe('—');
    await user.type(tendered, '0.2');
    expect(screen.getByText('Cash tendered is less than the total.')).toBeTruthy();
    expect(completeButton().disabled).toBe(true);
    await user.clear(tendered);
    await user.type(tendered, '1');
    expect(change()).toBe('$0.70');
    expect(completeButton().disabled).toBe(false);
    // Card and other take no cash.
    await user.click(screen.getByLabelText('Card'));
    expect(screen.queryByLabelText('Cash tendered')).toBeNull();
  });

  it('completes the sale with an Idempotency-Key, empties the counter with the focus back in the scan box, and links the receipt', async () => {
    const done = sale({ _id: 'sale9', number: 9 });
    const { user, calls, router } = openCounter({
      'GET /api/customers': () => ({
        body: { success: true, customers: [carla], total: 1, page: 1, pageSize: 10 },
      }),
      'POST /api/sales': () => ({ status: 201, body: { success: true, sale: done } }),
    });
    await scan(user, '4006381333931', 'Salted Crisps', '1');
    await scan(user, '4006381333931', 'Salted Crisps', '2');
    await scan(user, 'COLA-1', 'Cola Can', '1');
    await user.type(screen.getByRole('combobox', { name: 'Find a customer' }), 'carla');
    await user.click(await screen.findByRole('option', { name: /Carla Customer/ }));
    expect(screen.getByRole('button', { name: 'Remove customer Carla Customer' })).toBeTruthy();
    await user.type(screen.getByLabelText('Cash tendered'), '5');
    await user.click(completeButton());

    // The counter is the next customer's: empty, the scan box focused (not <body>).
    expect(await screen.findByText('Sale S-000009 completed')).toBeTruthy();
    expect(screen.getByText('The cart is empty.')).toBeTruthy();
    expect(document.activeElement).toBe(searchBox());
    expect(screen.getByRole('combobox', { name: 'Find a customer' })).toBeTruthy();
    expect((screen.getByLabelText('Cash tendered') as HTMLInputElement).value).toBe('');
    const [post] = callsOf(calls, 'POST', '/api/sales');
    expect(post?.body).toEqual({
      lines: [
        { productId: 'p1', quantity: 2 },
        { productId: 'p2', quantity: 1 },
      ],
      customer: 'cu1',
      payments: [{ method: 'cash', amount: 5 }],
      session: 'session1',
      total: 0.4,
    });
    expect(post?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    await user.click(screen.getByRole('link', { name: 'Receipt S-000009' }));
    expect(await screen.findByRole('heading', { name: 'Receipt S-000009' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/salesRep-dashboard/sales/sale9');
    // The receipt came with the answer: it is not asked for again.
    expect(callsOf(calls, 'GET', '/api/sales/sale9')).toHaveLength(0);
  });

  it('keeps the cart after a 409, shows the message naming the product, and the stock as it is now', async () => {
    const { user, calls } = openCounter({
      'POST /api/sales': () => ({
        status: 409,
        body: { success: false, error: 'Not enough stock of Cola Can: 1 left.' },
      }),
      'GET /api/products/p1': () => ({ body: { success: true, product: crisps } }),
      'GET /api/products/p2': () => ({ body: { success: true, product: { ...cola, stock: 1 } } }),
    });
    await scan(user, '4006381333931', 'Salted Crisps', '1');
    await scan(user, 'COLA-1', 'Cola Can', '1');
    await scan(user, 'COLA-1', 'Cola Can', '2');
    await user.click(screen.getByLabelText('Card'));
    await user.click(completeButton());

    expect((await screen.findByRole('alert')).textContent).toBe('Not enough stock of Cola Can: 1 left.');
    expect(quantityOf('Salted Crisps')).toBe('1');
    await waitFor(() => expect(within(line('Cola Can')).getByText('Only 1 in stock.')).toBeTruthy());
    expect(completeButton().disabled).toBe(true);
    expect(callsOf(calls, 'POST', '/api/sales')[0]?.body).toMatchObject({
      payments: [{ method: 'card', amount: 0.5 }],
    });
  });

  it('shows any other failure clearly and lets the cashier try again with the same key', async () => {
    let attempt = 0;
    const { user, calls } = openCounter({
      'POST /api/sales': () => {
        attempt += 1;
        if (attempt === 1) throw new TypeError('Failed to fetch');
        return { status: 201, body: { success: true, sale: sale() } };
      },
    });
    await scan(user, 'COLA-1', 'Cola Can', '1');
    await user.click(completeButton());
    expect((await screen.findByRole('alert')).textContent).toContain('The server cannot be reached');
    expect(quantityOf('Cola Can')).toBe('1');
    await user.click(completeButton());
    expect(await screen.findByText('Sale S-000123 completed')).toBeTruthy();
    const [first, second] = callsOf(calls, 'POST', '/api/sales');
    expect(second?.headers['Idempotency-Key']).toBe(first?.headers['Idempotency-Key']);
  });

  it('adds a customer on the spot with a name and a phone, and removes them again', async () => {
    const added = customer('cu2', 'Nina New', { phone: '555-0199' });
    const { user, calls } = openCounter({
      'POST /api/customers': () => ({ status: 201, body: { success: true, customer: added } }),
    });
    await user.click(screen.getByRole('button', { name: 'Quick add a customer' }));
    await user.click(screen.getByRole('button', { name: 'Add customer' }));
    expect(screen.getByText('Customer name is required.')).toBeTruthy();
    await user.type(screen.getByLabelText('Customer name'), 'Nina New');
    await user.type(screen.getByLabelText('Phone'), '555-0199');
    await user.click(screen.getByRole('button', { name: 'Add customer' }));
    const remove = await screen.findByRole('button', { name: 'Remove customer Nina New' });
    expect(callsOf(calls, 'POST', '/api/customers')[0]?.body).toMatchObject({
      name: 'Nina New',
      phone: '555-0199',
    });
    expect(document.activeElement).toBe(remove);
    await user.click(remove);
    expect(screen.getByRole('combobox', { name: 'Find a customer' })).toBeTruthy();
  });

  it('a quick add of someone stored already says so and sells to the customer stored instead', async () => {
    const { user, calls } = openCounter({
      'POST /api/customers': () => ({
        status: 409,
        body: {
          success: false,
          error: 'A customer named Carla Customer with phone 555-0101 already exists.',
          code: 'CUSTOMER_TAKEN',
          existing: { _id: 'cu1', name: 'Carla Customer' },
        },
      }),
      'GET /api/customers/cu1': () => ({
        body: {
          success: true,
          customer: carla,
          summary: { sales: 3, totalSpent: 12, lastPurchaseAt: null, creditBalance: 0 },
        },
      }),
    });
    await user.click(screen.getByRole('button', { name: 'Quick add a customer' }));
    await user.type(screen.getByLabelText('Customer name'), 'carla  customer');
    await user.type(screen.getByLabelText('Phone'), '(555) 0101');
    await user.click(screen.getByRole('button', { name: 'Add customer' }));
    const form = screen.getByRole('form', { name: 'Quick add a customer' });
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'A customer named Carla Customer with phone 555-0101 already exists.',
    );
    await user.click(within(form).getByRole('button', { name: 'Use Carla Customer' }));
    expect(await screen.findByRole('button', { name: 'Remove customer Carla Customer' })).toBeTruthy();
    expect(screen.getByText('555-0101')).toBeTruthy();
    expect(callsOf(calls, 'POST', '/api/customers')).toHaveLength(1);
    expect(callsOf(calls, 'GET', '/api/customers/cu1')).toHaveLength(1);
  });
});
