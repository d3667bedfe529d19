import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { centsNumber } from '../../../shared/money';
import { isPaymentProblem, settlePayments } from '../../../shared/till';
import { customer, product, sale } from '../../test/fixtures';
import { userOf } from '../../test/helpers';
import { callsOf, codeAnswer, type Handler, productsAnswer, renderSales } from './sales-test-data';

// Untaxed (the default store has no rate): the total is $2.50 + $4.99 = $7.49.
const crisps = product('p1', 'Salted Crisps', { price: 2.5, stock: 5, barcode: '111' });
const cola = product('p2', 'Cola Can', { price: 4.99, stock: 5, barcode: '222' });
const catalogue = [crisps, cola];
const carla = customer('cu1', 'Carla Customer', { phone: '555-0101' });
const clerk = userOf('salesRep');

function creditAnswer(balance: number): Handler {
  return () => ({ body: { success: true, balance, entries: [], total: 0, page: 1, pageSize: 10 } });
}

function server(extra: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    'GET /api/products': productsAnswer(catalogue),
    'GET /api/products/code/*': codeAnswer(catalogue),
    'GET /api/products/*': ({ path }) => {
      const found = catalogue.find((one) => path.endsWith(`/${one._id}`));
      return found
        ? { body: { success: true, product: found } }
        : { status: 404, body: { success: false, error: 'Product not found.' } };
    },
    'GET /api/customers': () => ({
      body: { success: true, customers: [carla], total: 1, page: 1, pageSize: 10 },
    }),
    'GET /api/customers/cu1/credit': creditAnswer(3),
    ...extra,
  };
}

function openCounter(handlers: Record<string, Handler> = server()) {
  const view = renderSales('/salesRep-dashboard/sales/new', handlers, clerk);
  return { ...view, user: userEvent.setup() };
}
type User_ = ReturnType<typeof userEvent.setup>;

const searchBox = () => screen.getByRole('combobox', { name: 'Scan or search a product' });
const completeButton = () => screen.getByRole('button', { name: /Complete sale/ }) as HTMLButtonElement;
const splitButton = () => screen.getByRole('button', { name: 'Split payment' });
const amountBox = () =>
  screen.getByLabelText(/^(Cash tendered for this payment|Amount by .*)$/) as HTMLInputElement;
const addButton = () => screen.getByRole('button', { name: 'Add payment' }) as HTMLButtonElement;
const nextMethods = () =>
  within(screen.getByRole('radiogroup', { name: 'Method of the next payment' }))
    .getAllByRole('radio')
    .map((radio) => radio.closest('label')?.textContent);
const paymentList = () =>
  screen.queryByRole('list', { name: 'Payments' })
    ? within(screen.getByRole('list', { name: 'Payments' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent?.replace('Remove', ''))
    : [];
/** What the split editor shows under the payments: Paid, and Remaining or Change. */
function figures(): [string, string][] {
  const paid = screen.getByText('Paid', { selector: 'dt' }).closest('dl') as HTMLElement;
  return Array.from(paid.querySelectorAll('dt')).map((term) => [
    term.textContent ?? '',
    term.nextElementSibling?.textContent ?? '',
  ]);
}

async function fillCart(user: User_) {
  await user.type(searchBox(), '111{Enter}');
  await waitFor(() => expect(screen.getByLabelText('Quantity of Salted Crisps')).toBeTruthy());
  await user.type(searchBox(), '222{Enter}');
  await waitFor(() => expect(screen.getByLabelText('Quantity of Cola Can')).toBeTruthy());
  await waitFor(() =>
    expect(screen.getByText('Total', { selector: 'dt' }).nextElementSibling?.textContent).toBe('$7.49'),
  );
}

async function chooseCarla(user: User_) {
  await user.type(screen.getByRole('combobox', { name: 'Find a customer' }), 'carla');
  await user.click(await screen.findByRole('option', { name: /Carla Customer/ }));
}

async function addPayment(user: User_, method: string, amount: string) {
  await user.click(screen.getByRole('radio', { name: method }));
  await user.clear(amountBox());
  await user.type(amountBox(), `${amount}{Enter}`);
}

describe('split payments at the counter', () => {
  it('takes card and cash until the total is covered, with the change exactly as settlePayments gives it, and sends payments[]', async () => {
    const { user, calls } = openCounter(
      server({
        'POST /api/sales': () => ({
          status: 201,
          body: {
            success: true,
            sale: sale({
              number: 9,
              total: 7.49,
              payment: { method: 'split', tendered: null },
              payments: [
                { method: 'card', amount: 5, tendered: null },
                { method: 'cash', amount: 2.49, tendered: 10 },
              ],
              change: 7.51,
            }),
          },
        }),
      }),
    );
    await fillCart(user);
    await user.click(splitButton());
    expect(splitButton().getAttribute('aria-pressed')).toBe('true');
    // The quick single payment's boxes give way to the split editor.
    expect(screen.queryByLabelText('Cash tendered')).toBeNull();
    expect(figures()).toEqual([
      ['Paid', '$0.00'],
      ['Remaining', '$7.49'],
    ]);
    expect(completeButton().disabled).toBe(true);
    expect(screen.getByText('Add a payment: the sale is paid in several.')).toBeTruthy();

    await addPayment(user, 'Card', '5');
    expect(paymentList()).toEqual(['Card$5.00']);
    expect(figures()).toEqual([
      ['Paid', '$5.00'],
      ['Remaining', '$2.49'],
    ]);
    // Still short: the focus stays for the next payment, its amount suggested.
    expect(document.activeElement).toBe(amountBox());
    expect(screen.getByText('$2.49 is still to pay: add a payment.')).toBeTruthy();

    await addPayment(user, 'Cash', '10');
    expect(paymentList()).toEqual(['Card$5.00', 'Cash tendered$10.00']);
    const expected = settlePayments(749n, [
      { method: 'card', amount: 5 },
      { method: 'cash', amount: 10 },
    ]);
    if (isPaymentProblem(expected)) throw new Error('The payments should settle.');
    expect(centsNumber(expected.change)).toBe(7.51);
    expect(figures()).toEqual([
      ['Paid', '$15.00'],
      ['Change', '$7.51'],
    ]);
    // Covered: Complete sale is next, and Enter there completes the sale.
    expect(completeButton().disabled).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(completeButton()));
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Sale S-000009 completed')).toBeTruthy();
    expect(screen.getByText('$7.51')).toBeTruthy();
    expect(callsOf(calls, 'POST', '/api/sales')[0]?.body).toEqual({
      lines: [
        { productId: 'p1', quantity: 1 },
        { productId: 'p2', quantity: 1 },
      ],
      payments: [
        { method: 'card', amount: 5 },
        { method: 'cash', amount: 10 },
      ],
      session: 'session1',
      total: 7.49,
    });
    // The next sale starts with no payment.
    expect(screen.queryByRole('list', { name: 'Payments' })).toBeNull();
  });

  it('refuses card, other and store credit above the total, says why, and removes a payment with the focus kept', async () => {
    const { user, calls } = openCounter();
    await fillCart(user);
    await user.click(splitButton());
    await user.click(screen.getByRole('radio', { name: 'Card' }));
    await user.type(amountBox(), '7.50');
    expect(
      screen.getByText(
        'Card, other and store credit together can be at most the total ($7.49): only cash gives change. At most $7.49 more.',
      ),
    ).toBeTruthy();
    expect(amountBox().getAttribute('aria-invalid')).toBe('true');
    expect(addButton().disabled).toBe(true);
    // Enter adds nothing and does not complete the sale.
    await user.keyboard('{Enter}');
    expect(paymentList()).toEqual([]);

    await addPayment(user, 'Card', '4');
    // $3.49 of non-cash is left: other for $3.50 is refused, cash for any amount is not.
    await user.click(screen.getByRole('radio', { name: 'Other' }));
    await user.type(amountBox(), '3.5');
    expect(addButton().disabled).toBe(true);
    expect(screen.getByText(/At most \$3\.49 more\.$/)).toBeTruthy();
    for (const bad of ['abc', '1.234', '0']) {
      await user.clear(amountBox());
      await user.type(amountBox(), bad);
      expect(addButton().disabled).toBe(true);
      expect(amountBox().getAttribute('aria-invalid')).toBe('true');
    }
    await user.clear(amountBox());
    await user.type(amountBox(), '2{Enter}');
    expect(paymentList()).toEqual(['Card$4.00', 'Other$2.00']);

    await user.click(screen.getByRole('button', { name: 'Remove payment 1: Card $4.00' }));
    expect(paymentList()).toEqual(['Other$2.00']);
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: 'Remove payment 1: Other $2.00' }),
    );
    await user.keyboard('{Enter}');
    expect(paymentList()).toEqual([]);
    expect(document.activeElement).toBe(amountBox());
    // An empty amount adds what is left to pay.
    await user.click(screen.getByRole('radio', { name: 'Card' }));
    expect(amountBox().placeholder).toBe('7.49');
    await user.click(amountBox());
    await user.keyboard('{Enter}');
    expect(paymentList()).toEqual(['Card$7.49']);
    expect(callsOf(calls, 'POST', '/api/sales')).toHaveLength(0);
  });

  it('offers store credit only with a customer, shows their balance, never more than it or what is left, and keeps the cart on a 409', async () => {
    const { user, calls } = openCounter(
      server({
        'POST /api/sales': () => ({
          status: 409,
          body: { success: false, error: 'Carla Customer has only $2.00 of store credit.' },
        }),
      }),
    );
    await fillCart(user);
    await user.click(splitButton());
    expect(nextMethods()).toEqual(['Cash', 'Card', 'Other']);
    expect(callsOf(calls, 'GET', '/api/customers/cu1/credit')).toHaveLength(0);

    await chooseCarla(user);
    expect(await screen.findByText("Carla Customer's store credit: $3.00")).toBeTruthy();
    expect(nextMethods()).toEqual(['Cash', 'Card', 'Other', 'Store credit']);
    await user.click(screen.getByRole('radio', { name: 'Store credit' }));
    expect(amountBox().placeholder).toBe('3.00');
    await user.type(amountBox(), '3.01');
    expect(screen.getByText('Store credit can be at most the balance left: $3.00.')).toBeTruthy();
    expect(addButton().disabled).toBe(true);
    await user.clear(amountBox());
    await user.keyboard('{Enter}');
    expect(paymentList()).toEqual(['Store credit$3.00']);
    expect(screen.getByText("Carla Customer's store credit: $3.00, $0.00 left")).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'Store credit' }));
    expect(screen.getByText('Carla Customer has no store credit left.')).toBeTruthy();
    expect(addButton().disabled).toBe(true);

    await addPayment(user, 'Cash', '5');
    expect(figures()).toEqual([
      ['Paid', '$8.00'],
      ['Change', '$0.51'],
    ]);
    await user.click(completeButton());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Carla Customer has only $2.00 of store credit.',
    );
    expect(callsOf(calls, 'POST', '/api/sales')[0]?.body).toMatchObject({
      customer: 'cu1',
      payments: [
        { method: 'storeCredit', amount: 3 },
        { method: 'cash', amount: 5 },
      ],
    });
    // The cart, the customer and the payments stay for the cashier to change.
    expect(screen.getByLabelText('Quantity of Cola Can')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove customer Carla Customer' })).toBeTruthy();
    expect(paymentList()).toEqual(['Store credit$3.00', 'Cash tendered$5.00']);
    // The balance is read again after the refusal.
    await waitFor(() => expect(callsOf(calls, 'GET', '/api/customers/cu1/credit').length).toBeGreaterThan(1));

    // Without the customer, store credit cannot be offered nor used.
    await user.click(screen.getByRole('button', { name: 'Remove customer Carla Customer' }));
    expect(nextMethods()).toEqual(['Cash', 'Card', 'Other']);
    expect(
      screen.getByText(
        "Store credit needs the sale's customer: choose them, or remove the store credit payment.",
      ),
    ).toBeTruthy();
    expect(completeButton().disabled).toBe(true);
  });

  it('keeps the split payments with the sale over a reload', async () => {
    const first = openCounter();
    await fillCart(first.user);
    await first.user.click(splitButton());
    await addPayment(first.user, 'Card', '5');
    first.unmount();

    openCounter();
    expect(splitButton().getAttribute('aria-pressed')).toBe('true');
    expect(paymentList()).toEqual(['Card$5.00']);
    await waitFor(() =>
      expect(figures()).toEqual([
        ['Paid', '$5.00'],
        ['Remaining', '$2.49'],
      ]),
    );
  });

  it('the quick single payment sends one payment: the total by card, or the cash handed over', async () => {
    const { user, calls } = openCounter(
      server({ 'POST /api/sales': () => ({ status: 500, body: { success: false, error: 'Down.' } }) }),
    );
    await fillCart(user);
    await user.type(screen.getByLabelText('Cash tendered'), '20');
    await user.click(completeButton());
    await screen.findByRole('alert');
    await user.click(screen.getByRole('radio', { name: 'Card' }));
    await user.click(completeButton());
    await waitFor(() => expect(callsOf(calls, 'POST', '/api/sales')).toHaveLength(2));
    expect(
      callsOf(calls, 'POST', '/api/sales').map((call) => (call.body as { payments: unknown }).payments),
    ).toEqual([[{ method: 'cash', amount: 20 }], [{ method: 'card', amount: 7.49 }]]);
  });
});
