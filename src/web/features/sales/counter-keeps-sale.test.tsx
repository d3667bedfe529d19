import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../../shared/products';
import type { User } from '../../../shared/users';
import { clearSession } from '../../lib/session';
import { customer, product, sale } from '../../test/fixtures';
import { userOf } from '../../test/helpers';
import { EMPTY_DRAFT, MAX_PARKED, writeParked } from './counter-drafts';
import { callsOf, codeAnswer, type Handler, productsAnswer, renderSales } from './sales-test-data';

const crisps = product('p1', 'Salted Crisps', { price: 0.1, stock: 5, barcode: '4006381333931' });
const cola = product('p2', 'Cola Can', { price: 0.2, stock: 2, sku: 'COLA-1' });
const catalogue = [crisps, cola];
const carla = customer('cu1', 'Carla Customer', { phone: '555-0101' });
const clerk = userOf('salesRep');

/** The server: the catalogue, each product by id as it is now, and Carla among the customers. */
function server(products: readonly Product[] = catalogue, extra: Record<string, Handler> = {}) {
  return {
    'GET /api/products': productsAnswer(catalogue),
    'GET /api/products/code/*': codeAnswer(catalogue),
    'GET /api/products/*': ({ path }: { path: string }) => {
      const found = products.find((one) => path.endsWith(`/${one._id}`));
      return found
        ? { body: { success: true, product: found } }
        : { status: 404, body: { success: false, error: 'Product not found.' } };
    },
    'GET /api/customers': () => ({
      body: { success: true, customers: [carla], total: 1, page: 1, pageSize: 10 },
    }),
    ...extra,
  } satisfies Record<string, Handler>;
}

function openCounter(me: User = clerk, handlers: Record<string, Handler> = server()) {
  const view = renderSales('/salesRep-dashboard/sales/new', handlers, me);
  return { ...view, user: userEvent.setup() };
}

const searchBox = () =>
  screen.getByRole('combobox', { name: 'Scan or search a product' }) as HTMLInputElement;
const cartLines = () =>
  screen.queryByRole('list', { name: 'Cart' })
    ? within(screen.getByRole('list', { name: 'Cart' }))
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label'))
    : [];
const quantityOf = (name: string) => (screen.getByLabelText(`Quantity of ${name}`) as HTMLInputElement).value;
const tendered = () => (screen.getByLabelText('Cash tendered') as HTMLInputElement).value;
const grandTotal = () => screen.getByText('Total', { selector: 'dt' }).nextElementSibling?.textContent;

/** Two crisps and a cola for Carla, paid in cash with 5 handed over. */
async function fillSale(user: ReturnType<typeof userEvent.setup>) {
  await user.type(searchBox(), '4006381333931{Enter}');
  await waitFor(() => expect(quantityOf('Salted Crisps')).toBe('1'));
  await user.type(searchBox(), '4006381333931{Enter}');
  await waitFor(() => expect(quantityOf('Salted Crisps')).toBe('2'));
  await user.type(searchBox(), 'COLA-1{Enter}');
  await waitFor(() => expect(quantityOf('Cola Can')).toBe('1'));
  await user.type(screen.getByRole('combobox', { name: 'Find a customer' }), 'carla');
  await user.click(await screen.findByRole('option', { name: /Carla Customer/ }));
  await user.type(screen.getByLabelText('Cash tendered'), '5');
}

async function expectFilledSale() {
  expect(cartLines()).toEqual(['Salted Crisps, quantity 2', 'Cola Can, quantity 1']);
  expect(screen.getByRole('button', { name: 'Remove customer Carla Customer' })).toBeTruthy();
  expect(tendered()).toBe('5');
  // The total waits for the store's settings (how prices and taxes are written).
  await waitFor(() => expect(grandTotal()).toBe('$0.40'));
}

describe('the counter keeps an unfinished sale', () => {
  it('shows the cart, the customer and the cash typed again after a reload, with the products as the server has them now', async () => {
    const first = openCounter();
    await fillSale(first.user);
    first.unmount();

    // The page is loaded anew: the cola costs more now.
    const again = openCounter(clerk, server([crisps, { ...cola, price: 0.3 }]));
    expect(cartLines()).toEqual(['Salted Crisps, quantity 2', 'Cola Can, quantity 1']);
    expect(screen.getByRole('button', { name: 'Remove customer Carla Customer' })).toBeTruthy();
    expect(tendered()).toBe('5');
    expect(document.activeElement).toBe(searchBox());
    await waitFor(() => expect(grandTotal()).toBe('$0.50'));
    expect(callsOf(again.calls, 'GET', '/api/products/p1')).toHaveLength(1);
    expect(callsOf(again.calls, 'GET', '/api/products/p2')).toHaveLength(1);
  });

  it('is there again after going to Orders and Back', async () => {
    const { user, router } = openCounter();
    await fillSale(user);
    await act(() => router.navigate('/salesRep-dashboard/orders'));
    expect(screen.getByText('Elsewhere')).toBeTruthy();
    await act(() => router.navigate(-1));
    await expectFilledSale();
  });

  it('is there again when the same user signs out and in on this browser, and not for another user', async () => {
    const first = openCounter();
    await fillSale(first.user);
    first.unmount();
    clearSession();

    const other = openCounter(userOf('salesRep', { _id: 'someone-else', name: 'Sam Second' }));
    expect(screen.getByText('The cart is empty.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Parked (0)' })).toBeTruthy();
    expect(callsOf(other.calls, 'GET', '/api/products/p1')).toHaveLength(0);
    other.unmount();
    clearSession();

    openCounter(clerk);
    await expectFilledSale();
  });

  it('is forgotten once the sale completes: a reload then shows an empty counter', async () => {
    const first = openCounter(
      clerk,
      server(catalogue, {
        'POST /api/sales': () => ({
          status: 201,
          body: { success: true, sale: sale({ _id: 's7', number: 7 }) },
        }),
      }),
    );
    await fillSale(first.user);
    await first.user.click(screen.getByRole('button', { name: 'Complete sale' }));
    expect(await screen.findByText('Sale S-000007 completed')).toBeTruthy();
    first.unmount();

    openCounter();
    expect(screen.getByText('The cart is empty.')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Find a customer' })).toBeTruthy();
    expect(tendered()).toBe('');
  });

  it('sends a sale that got no answer before the reload with the same Idempotency-Key, so it is made once', async () => {
    const first = openCounter(
      clerk,
      server(catalogue, {
        'POST /api/sales': () => {
          throw new TypeError('Failed to fetch');
        },
      }),
    );
    await fillSale(first.user);
    await first.user.click(screen.getByRole('button', { name: 'Complete sale' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The server cannot be reached');
    const [lost] = callsOf(first.calls, 'POST', '/api/sales');
    first.unmount();

    const again = openCounter(
      clerk,
      server(catalogue, {
        'POST /api/sales': () => ({
          status: 201,
          body: { success: true, sale: sale({ _id: 's8', number: 8 }) },
        }),
      }),
    );
    await again.user.click(screen.getByRole('button', { name: 'Complete sale' }));
    expect(await screen.findByText('Sale S-000008 completed')).toBeTruthy();
    const [retry] = callsOf(again.calls, 'POST', '/api/sales');
    expect(retry?.body).toEqual(lost?.body);
    expect(retry?.headers['Idempotency-Key']).toBe(lost?.headers['Idempotency-Key']);
  });

  it('takes out a product deleted meanwhile and says so, keeping the rest', async () => {
    const first = openCounter();
    await fillSale(first.user);
    first.unmount();

    openCounter(clerk, server([crisps]));
    expect(await screen.findByText('Cola Can is no longer sold and was taken out of the sale.')).toBeTruthy();
    expect(cartLines()).toEqual(['Salted Crisps, quantity 2']);
    await waitFor(() => expect(grandTotal()).toBe('$0.20'));
  });

  it('keeps the lines as they were when the products cannot be read now', async () => {
    const first = openCounter();
    await fillSale(first.user);
    first.unmount();

    const again = openCounter(clerk, {
      ...server(),
      'GET /api/products/*': () => ({
        status: 503,
        body: { success: false, error: 'The database is resting.' },
      }),
    });
    await waitFor(() => expect(callsOf(again.calls, 'GET', '/api/products/p2')).toHaveLength(1));
    await expectFilledSale();
    expect(screen.queryByText(/no longer sold/)).toBeNull();
  });

  it('ignores a stored cart it cannot read and opens empty', () => {
    localStorage.setItem(`ims_counter_cart:${clerk._id}`, '{"version":1,"draft":{"lines":"lots"}}');
    localStorage.setItem(`ims_counter_parked:${clerk._id}`, 'not json');
    const { calls } = openCounter();
    expect(screen.getByText('The cart is empty.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Parked (0)' })).toBeTruthy();
    // Nothing of a cart is read: only the store's settings and the till's open session, which
    // every counter reads.
    expect(calls.map((call) => call.path).sort()).toEqual(['/api/register-sessions', '/api/settings/store']);
  });
});

describe('parking a sale', () => {
  it('parks the sale with its customer and total, empties the counter, and Resume brings it back', async () => {
    const { user } = openCounter();
    expect((screen.getByRole('button', { name: 'Park sale' }) as HTMLButtonElement).disabled).toBe(true);
    await fillSale(user);
    await user.click(screen.getByRole('button', { name: 'Park sale' }));

    expect(screen.getByText('The sale for Carla Customer is parked.')).toBeTruthy();
    expect(screen.getByText('The cart is empty.')).toBeTruthy();
    expect(tendered()).toBe('');
    expect(document.activeElement).toBe(searchBox());
    const parkedButton = screen.getByRole('button', { name: 'Parked (1)' });
    expect(parkedButton.getAttribute('aria-expanded')).toBe('false');

    await user.click(parkedButton);
    const list = screen.getByRole('list', { name: 'Parked sales' });
    const [entry] = within(list).getAllByRole('listitem');
    expect(entry?.textContent).toContain('Carla Customer');
    expect(entry?.textContent).toContain('3 items');
    expect(entry?.textContent).toContain('$0.40');
    expect(entry?.querySelector('time')?.getAttribute('dateTime')).toMatch(/^\d{4}-\d\d-\d\dT/);

    await user.click(within(list).getByRole('button', { name: /^Resume Carla Customer, parked / }));
    await expectFilledSale();
    expect(screen.getByRole('button', { name: 'Parked (0)' })).toBeTruthy();
    expect(document.activeElement).toBe(searchBox());
  });

  it('keeps parked sales over a reload, and only for the user who parked them', async () => {
    const first = openCounter();
    await fillSale(first.user);
    await first.user.click(screen.getByRole('button', { name: 'Park sale' }));
    first.unmount();

    const other = openCounter(userOf('salesRep', { _id: 'someone-else' }));
    expect(screen.getByRole('button', { name: 'Parked (0)' })).toBeTruthy();
    other.unmount();

    const { user } = openCounter();
    expect(screen.getByText('The cart is empty.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Parked (1)' }));
    await user.click(screen.getByRole('button', { name: /^Resume Carla Customer, parked / }));
    await expectFilledSale();
  });

  it('never drops the sale in progress: resuming another parks it first', async () => {
    const { user } = openCounter();
    await fillSale(user);
    await user.click(screen.getByRole('button', { name: 'Park sale' }));
    // A second customer, without a name, buys one cola.
    await user.type(searchBox(), 'COLA-1{Enter}');
    await waitFor(() => expect(quantityOf('Cola Can')).toBe('1'));

    await user.click(screen.getByRole('button', { name: 'Parked (1)' }));
    await user.click(screen.getByRole('button', { name: /^Resume Carla Customer, parked / }));
    await expectFilledSale();
    expect(screen.getByText(/The sale in progress was parked\.$/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Parked (1)' }));
    const [entry] = within(screen.getByRole('list', { name: 'Parked sales' })).getAllByRole('listitem');
    expect(entry?.getAttribute('aria-label')).toMatch(/^No customer, parked /);
    expect(entry?.textContent).toContain('1 item ·');
    expect(entry?.textContent).toContain('$0.20');
  });

  it('refuses to park more than it keeps, saying why, and the sale stays on the counter', async () => {
    const full = Array.from({ length: MAX_PARKED }, (_, at) => ({
      id: `parked-${at}`,
      parkedAt: '2025-05-01T10:00:00.000Z',
      draft: { ...EMPTY_DRAFT, lines: [{ product: crisps, quantity: '1' }] },
    }));
    writeParked(clerk._id, full);
    const { user } = openCounter();
    await user.type(searchBox(), 'COLA-1{Enter}');
    await waitFor(() => expect(quantityOf('Cola Can')).toBe('1'));
    await user.click(screen.getByRole('button', { name: 'Park sale' }));
    expect(
      screen.getByText(`At most ${MAX_PARKED} sales can be parked: resume or discard one first.`),
    ).toBeTruthy();
    expect(cartLines()).toEqual(['Cola Can, quantity 1']);
    expect(screen.getByRole('button', { name: `Parked (${MAX_PARKED})` })).toBeTruthy();
  });

  it('discards a parked sale only after asking', async () => {
    const { user, calls } = openCounter();
    await fillSale(user);
    await user.click(screen.getByRole('button', { name: 'Park sale' }));
    await user.type(searchBox(), 'COLA-1{Enter}');
    await waitFor(() => expect(quantityOf('Cola Can')).toBe('1'));
    await user.click(screen.getByRole('button', { name: 'Parked (1)' }));

    await user.click(screen.getByRole('button', { name: /^Discard Carla Customer, parked / }));
    const dialog = screen.getByRole('alertdialog', { name: 'Discard the parked sale?' });
    // The counter's shortcuts leave an open dialog alone: F9 does not complete the sale behind it.
    await user.keyboard('{F9}');
    expect(callsOf(calls, 'POST', '/api/sales')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(screen.getByRole('button', { name: 'Parked (1)' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /^Discard Carla Customer, parked / }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Discard the parked sale?' })).getByRole('button', {
        name: 'Discard',
      }),
    );
    expect(screen.getByRole('button', { name: 'Parked (0)' })).toBeTruthy();
    expect(screen.getByText('No parked sales.')).toBeTruthy();
    expect(localStorage.getItem(`ims_counter_parked:${clerk._id}`)).toBeNull();
  });
});
