import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { centsNumber, isCartProblem, priceCart } from '../../../shared/money';
import type { Product } from '../../../shared/products';
import type { User } from '../../../shared/users';
import { product, sale } from '../../test/fixtures';
import { userOf } from '../../test/helpers';
import type { CounterStore } from './sales-api';
import {
  callsOf,
  codeAnswer,
  type Handler,
  productsAnswer,
  renderSales,
  settingsAnswer,
} from './sales-test-data';

const standard = { _id: 't1', name: 'Standard', rate: 8.875 };
const reduced = { _id: 't2', name: 'Reduced', rate: 5 };
const tea = product('p1', 'Green Tea', { price: 2.99, stock: 20, barcode: '111', taxRate: standard });
const bread = product('p2', 'Rye Bread', { price: 1.25, stock: 20, barcode: '222', taxRate: reduced });
const cola = product('p3', 'Cola Can', { price: 0.2, stock: 2, barcode: '333', taxRate: null });
const catalogue = [tea, bread, cola];

type User_ = ReturnType<typeof userEvent.setup>;

function openCounter(
  options: { me?: User; store?: Partial<CounterStore>; handlers?: Record<string, Handler> } = {},
  products: readonly Product[] = catalogue,
) {
  const me = options.me ?? userOf('salesRep');
  const home = me.role === 'admin' ? '/admin-dashboard' : '/salesRep-dashboard';
  const view = renderSales(
    `${home}/sales/new`,
    {
      'GET /api/settings/store': settingsAnswer(options.store),
      'GET /api/products': productsAnswer(products),
      'GET /api/products/code/*': codeAnswer(products),
      ...options.handlers,
    },
    me,
  );
  return { ...view, user: userEvent.setup() };
}

const searchBox = () => screen.getByRole('combobox', { name: 'Scan or search a product' });
const quantityBox = (name: string) => screen.getByLabelText(`Quantity of ${name}`) as HTMLInputElement;
const cart = () => screen.getByRole('list', { name: 'Cart' });
const line = (name: string) => within(cart()).getByRole('listitem', { name: new RegExp(`^${name},`) });
const completeButton = () => screen.getByRole('button', { name: /Complete sale/ }) as HTMLButtonElement;

/** The totals as shown: each term and its amount, in order. */
function totals(): [string, string][] {
  const total = screen.getByText('Total', { selector: 'dt' });
  const list = total.closest('dl') as HTMLElement;
  return Array.from(list.querySelectorAll('dt')).map((term) => [
    term.textContent ?? '',
    term.nextElementSibling?.textContent ?? '',
  ]);
}

async function scan(user: User_, code: string, name: string, quantity = '1') {
  await user.type(searchBox(), `${code}{Enter}`);
  await waitFor(() => expect(quantityBox(name).value).toBe(quantity));
}

async function setQuantity(user: User_, name: string, quantity: string) {
  await user.clear(quantityBox(name));
  await user.type(quantityBox(name), quantity);
}

/** Opens a discount editor, picks the type, types the value and presses Enter. */
async function discount(user: User_, what: string, type: 'Percent' | 'Amount', value: string) {
  await user.click(screen.getByRole('button', { name: new RegExp(`^Discount on ${what}`) }));
  const editor = screen.getByRole('group', { name: `Discount on ${what}` });
  await user.click(within(editor).getByLabelText(type));
  const box = within(editor).getByLabelText(`Discount ${type.toLowerCase()} on ${what}`);
  await user.clear(box);
  await user.type(box, `${value}{Enter}`);
}

/** Tea × 3 ($8.97, Standard 8.875 %) and bread × 2 ($2.50, Reduced 5 %). */
async function teaAndBread(user: User_) {
  await waitFor(() => expect(totals().at(-1)?.[1]).toBe('$0.00'));
  await scan(user, '111', 'Green Tea');
  await setQuantity(user, 'Green Tea', '3');
  await scan(user, '222', 'Rye Bread');
  await setQuantity(user, 'Rye Bread', '2');
}

/** What the shared computation says of that cart, to hold the screen to it. */
function expected(pricesIncludeTax: boolean) {
  const priced = priceCart({
    lines: [
      { unitPrice: 2.99, quantity: 3, taxRate: standard, discount: { type: 'percent', value: 10 } },
      { unitPrice: 1.25, quantity: 2, taxRate: reduced },
    ],
    discount: { type: 'amount', value: 1 },
    pricesIncludeTax,
  });
  if (isCartProblem(priced)) throw new Error('The cart should price.');
  return priced;
}

describe('money at the counter', () => {
  it('a line percent and amount discount change the line and the totals exactly as the shared computation does', async () => {
    const { user } = openCounter();
    await teaAndBread(user);
    expect(totals()).toEqual([
      ['Items', '5'],
      ['Subtotal', '$11.47'],
      ['Standard 8.875% on $8.97', '$0.80'],
      ['Reduced 5% on $2.50', '$0.13'],
      ['Total', '$12.40'],
    ]);

    await discount(user, 'Green Tea', 'Percent', '10');
    // round(897 × 10 %) = 90 cents off the tea.
    expect(within(line('Green Tea')).getByText(/^Discount 10%/, { selector: 'p' }).textContent).toBe(
      'Discount 10%: −$0.90',
    );
    expect(
      within(line('Green Tea')).getByText('Line total', { exact: false }).parentElement?.textContent,
    ).toBe('Line total $8.07');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Discount on Green Tea: 10%' }));

    await discount(user, 'Rye Bread', 'Amount', '0.5');
    expect(within(line('Rye Bread')).getByText(/^Discount/, { selector: 'p' }).textContent).toBe(
      'Discount $0.50: −$0.50',
    );
    // Tea: 807 + round(807 × 8.875 %) = 807 + 72; bread: 200 + 10.
    expect(totals()).toEqual([
      ['Items', '5'],
      ['Subtotal', '$11.47'],
      ['Discounts', '−$1.40'],
      ['Standard 8.875% on $8.07', '$0.72'],
      ['Reduced 5% on $2.00', '$0.10'],
      ['Total', '$10.89'],
    ]);
    const priced = priceCart({
      lines: [
        { unitPrice: 2.99, quantity: 3, taxRate: standard, discount: { type: 'percent', value: 10 } },
        { unitPrice: 1.25, quantity: 2, taxRate: reduced, discount: { type: 'amount', value: 0.5 } },
      ],
      pricesIncludeTax: false,
    });
    expect(!isCartProblem(priced) && centsNumber(priced.total)).toBe(10.89);
  });

  it('a discount on the sale is shared over the lines, and the tax by rate follows (prices without tax)', async () => {
    const { user } = openCounter();
    await teaAndBread(user);
    await discount(user, 'Green Tea', 'Percent', '10');
    await discount(user, 'the sale', 'Amount', '1');
    const priced = expected(false);
    // The dollar is shared 76 / 24 cents over 807 and 250 (largest remainder to the bread).
    expect(priced.lines.map((one) => one.cartShare)).toEqual([76n, 24n]);
    expect(totals()).toEqual([
      ['Items', '5'],
      ['Subtotal', '$11.47'],
      ['Discounts', '−$1.90'],
      ['Standard 8.875% on $7.31', '$0.65'],
      ['Reduced 5% on $2.26', '$0.11'],
      ['Total', '$10.33'],
    ]);
    expect(centsNumber(priced.total)).toBe(10.33);
    expect(screen.getByRole('button', { name: 'Discount on the sale: $1.00' })).toBeTruthy();
  });

  it('with prices that include tax, the tax is the part of the total and the total is the amount', async () => {
    const { user } = openCounter({ store: { pricesIncludeTax: true } });
    await teaAndBread(user);
    await discount(user, 'Green Tea', 'Percent', '10');
    await discount(user, 'the sale', 'Amount', '1');
    const priced = expected(true);
    expect(totals()).toEqual([
      ['Items', '5'],
      ['Subtotal', '$11.47'],
      ['Discounts', '−$1.90'],
      ['Incl. Standard 8.875% on $6.71', '$0.60'],
      ['Incl. Reduced 5% on $2.15', '$0.11'],
      ['Total', '$9.57'],
    ]);
    expect(centsNumber(priced.total)).toBe(9.57);
    expect(priced.taxes.map((tax) => centsNumber(tax.tax))).toEqual([0.6, 0.11]);
  });

  it("says what is wrong with a discount in the editor, and Escape leaves the line's discount as it was", async () => {
    const { user } = openCounter();
    await waitFor(() => expect(totals().at(-1)?.[1]).toBe('$0.00'));
    await scan(user, '222', 'Rye Bread');
    await discount(user, 'Rye Bread', 'Amount', '1.26');
    const editor = screen.getByRole('group', { name: 'Discount on Rye Bread' });
    expect(within(editor).getByRole('alert').textContent).toBe(
      "A discount can be at most the line's amount.",
    );
    await user.click(within(editor).getByLabelText('Percent'));
    const box = within(editor).getByLabelText('Discount percent on Rye Bread');
    await user.clear(box);
    await user.type(box, '150{Enter}');
    expect(within(editor).getByRole('alert').textContent).toBe('A percent discount must be at most 100.');
    await user.clear(box);
    await user.type(box, 'abc{Enter}');
    expect(within(editor).getByRole('alert').textContent).toBe('A percent discount must be a number.');
    // Typing + or − in the editor does not change the quantity.
    await user.type(box, '+-');
    expect(quantityBox('Rye Bread').value).toBe('1');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Discount on Rye Bread' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Discount on Rye Bread' }));
    expect(totals().at(-1)).toEqual(['Total', '$1.31']);
    // Enter in the sale's editor applies the discount; it does not complete the sale.
    await discount(user, 'the sale', 'Percent', '20');
    expect(totals().at(-1)).toEqual(['Total', '$1.05']);
    // Removing the last line takes the sale's discount with it.
    await user.click(screen.getByRole('button', { name: 'Remove Rye Bread' }));
    await scan(user, '222', 'Rye Bread');
    expect(screen.getByRole('button', { name: 'Discount on the sale' })).toBeTruthy();
    expect(totals().at(-1)).toEqual(['Total', '$1.31']);
  });

  it('keeps the discounts with the sale: after a reload they are there and the totals the same', async () => {
    const first = openCounter();
    await teaAndBread(first.user);
    await discount(first.user, 'Green Tea', 'Percent', '10');
    await discount(first.user, 'the sale', 'Amount', '1');
    first.unmount();

    openCounter();
    expect(screen.getByRole('button', { name: 'Discount on Green Tea: 10%' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Discount on the sale: $1.00' })).toBeTruthy();
    await waitFor(() => expect(totals().at(-1)).toEqual(['Total', '$10.33']));
  });

  it('sends the discounts with the sale; within the limit no approval is asked', async () => {
    const { user, calls } = openCounter({
      handlers: { 'POST /api/sales': () => ({ status: 201, body: { success: true, sale: sale() } }) },
    });
    await waitFor(() => expect(totals().at(-1)?.[1]).toBe('$0.00'));
    await scan(user, '111', 'Green Tea');
    // 5 % of $2.99 is 15 cents (10 % would round to 30 cents, just above a 10 % limit).
    await discount(user, 'Green Tea', 'Percent', '5');
    await user.click(screen.getByLabelText('Card'));
    await user.click(completeButton());
    expect(await screen.findByText('Sale S-000123 completed')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(callsOf(calls, 'POST', '/api/sales')[0]?.body).toEqual({
      lines: [{ productId: 'p1', quantity: 1, discount: { type: 'percent', value: 5 } }],
      payments: [{ method: 'card', amount: 3.09 }],
      session: 'session1',
      total: 3.09,
    });
  });

  it("asks a manager's approval above the limit, shows a refusal in the dialog keeping the sale, and sends the approval", async () => {
    let attempt = 0;
    const { user, calls } = openCounter({
      handlers: {
        'POST /api/sales': () => {
          attempt += 1;
          return attempt === 1
            ? {
                status: 403,
                body: {
                  success: false,
                  error: 'That PIN is not right for boss@example.com.',
                  code: 'WRONG_PIN',
                },
              }
            : { status: 201, body: { success: true, sale: sale({ _id: 's7', number: 7 }) } };
        },
      },
    });
    await waitFor(() => expect(totals().at(-1)?.[1]).toBe('$0.00'));
    await scan(user, '111', 'Green Tea');
    await discount(user, 'Green Tea', 'Percent', '15');
    await discount(user, 'the sale', 'Amount', '0.5');
    await user.click(screen.getByLabelText('Card'));
    await user.click(completeButton());

    const dialog = screen.getByRole('dialog', { name: 'Manager approval' });
    expect(within(dialog).getByText(/The discount on Green Tea is more than 10%/)).toBeTruthy();
    expect(callsOf(calls, 'POST', '/api/sales')).toHaveLength(0);
    const pin = within(dialog).getByLabelText('PIN') as HTMLInputElement;
    expect(pin.type).toBe('password');
    expect(pin.inputMode).toBe('numeric');
    await user.click(within(dialog).getByRole('button', { name: 'Approve and complete sale' }));
    expect(within(dialog).getByText("Enter the manager's email.")).toBeTruthy();
    expect(within(dialog).getByText('A PIN is 4 to 8 digits.')).toBeTruthy();
    expect(callsOf(calls, 'POST', '/api/sales')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText("Manager's email"), 'boss@example.com');
    await user.type(pin, '1234');
    await user.click(within(dialog).getByRole('button', { name: 'Approve and complete sale' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'That PIN is not right for boss@example.com.',
    );
    expect(screen.getByRole('dialog', { name: 'Manager approval' })).toBeTruthy();
    expect(quantityBox('Green Tea').value).toBe('1');

    await user.clear(pin);
    await user.type(pin, '4321');
    await user.click(within(dialog).getByRole('button', { name: 'Approve and complete sale' }));
    expect(await screen.findByText('Sale S-000007 completed')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const [first, second] = callsOf(calls, 'POST', '/api/sales');
    expect(first?.body).toEqual({
      lines: [{ productId: 'p1', quantity: 1, discount: { type: 'percent', value: 15 } }],
      discount: { type: 'amount', value: 0.5 },
      approval: { email: 'boss@example.com', pin: '1234' },
      payments: [{ method: 'card', amount: 2.22 }],
      session: 'session1',
      total: 2.22,
    });
    expect(second?.body).toMatchObject({ approval: { email: 'boss@example.com', pin: '4321' } });
    // The PIN is not kept in the browser with the unanswered submit.
    expect(JSON.stringify({ ...localStorage })).not.toContain('1234');
  });

  it('too many wrong PINs: the 429 is said in the dialog, and Cancel leaves the sale on the counter', async () => {
    const { user } = openCounter({
      handlers: {
        'POST /api/sales': () => ({
          status: 429,
          body: {
            success: false,
            error: 'Too many wrong PINs for boss@example.com; try again in 15 minutes.',
            code: 'TOO_MANY_PINS',
          },
        }),
      },
    });
    await waitFor(() => expect(totals().at(-1)?.[1]).toBe('$0.00'));
    await scan(user, '111', 'Green Tea');
    await discount(user, 'Green Tea', 'Amount', '1');
    await user.click(completeButton());
    const dialog = screen.getByRole('dialog', { name: 'Manager approval' });
    await user.type(within(dialog).getByLabelText("Manager's email"), 'boss@example.com');
    await user.type(within(dialog).getByLabelText('PIN'), '0000');
    await user.click(within(dialog).getByRole('button', { name: 'Approve and complete sale' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Too many wrong PINs for boss@example.com; try again in 15 minutes.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(quantityBox('Green Tea').value).toBe('1');
    expect(screen.getByRole('button', { name: 'Discount on Green Tea: $1.00' })).toBeTruthy();
  });

  it('a 403 the counter did not expect (the limit was lowered meanwhile) opens the approval with its sentence', async () => {
    const { user, calls } = openCounter({
      handlers: {
        'POST /api/sales': () => ({
          status: 403,
          body: {
            success: false,
            error: "This discount needs a manager's approval",
            code: 'APPROVAL_NEEDED',
          },
        }),
      },
    });
    await waitFor(() => expect(totals().at(-1)?.[1]).toBe('$0.00'));
    await scan(user, '111', 'Green Tea');
    await discount(user, 'Green Tea', 'Percent', '5');
    await user.click(completeButton());
    const dialog = await screen.findByRole('dialog', { name: 'Manager approval' });
    expect(within(dialog).getByRole('alert').textContent).toBe("This discount needs a manager's approval");
    expect(callsOf(calls, 'POST', '/api/sales')[0]?.body).not.toHaveProperty('approval');
    expect(quantityBox('Green Tea').value).toBe('1');
  });

  it('a 403 of another kind (a role not allowed) is said on the counter, not asked of a manager: the code decides', async () => {
    const { user } = openCounter({
      handlers: {
        'POST /api/sales': () => ({
          status: 403,
          body: { success: false, error: 'Your role is not allowed to do that.', code: 'FORBIDDEN' },
        }),
      },
    });
    await waitFor(() => expect(totals().at(-1)?.[1]).toBe('$0.00'));
    await scan(user, '111', 'Green Tea');
    await user.click(completeButton());
    expect(await screen.findByText('Your role is not allowed to do that.')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Manager approval' })).toBeNull();
    expect(quantityBox('Green Tea').value).toBe('1');
  });

  it('an admin is not limited: the same discount is sent without asking', async () => {
    const { user, calls } = openCounter({
      me: userOf('admin'),
      handlers: { 'POST /api/sales': () => ({ status: 201, body: { success: true, sale: sale() } }) },
    });
    await waitFor(() => expect(totals().at(-1)?.[1]).toBe('$0.00'));
    await scan(user, '111', 'Green Tea');
    await discount(user, 'Green Tea', 'Percent', '50');
    await user.click(completeButton());
    expect(await screen.findByText('Sale S-000123 completed')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(callsOf(calls, 'POST', '/api/sales')[0]?.body).not.toHaveProperty('approval');
  });

  it('short of stock (409): "Sell anyway" asks a manager and sends that line with overrideStock and the approval', async () => {
    let attempt = 0;
    const { user, calls } = openCounter({
      handlers: {
        'POST /api/sales': () => {
          attempt += 1;
          return attempt === 1
            ? { status: 409, body: { success: false, error: 'Not enough stock of Cola Can: 1 left.' } }
            : { status: 201, body: { success: true, sale: sale({ _id: 's8', number: 8 }) } };
        },
        'GET /api/products/p1': () => ({ body: { success: true, product: tea } }),
        'GET /api/products/p3': () => ({ body: { success: true, product: { ...cola, stock: 1 } } }),
      },
    });
    await waitFor(() => expect(totals().at(-1)?.[1]).toBe('$0.00'));
    await scan(user, '111', 'Green Tea');
    await scan(user, '333', 'Cola Can');
    await scan(user, '333', 'Cola Can', '2');
    await user.click(screen.getByLabelText('Card'));
    await user.click(completeButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Not enough stock of Cola Can: 1 left.');
    await waitFor(() => expect(within(line('Cola Can')).getByText('Only 1 in stock.')).toBeTruthy());
    expect(completeButton().disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Sell anyway (manager approval)' }));
    const dialog = screen.getByRole('dialog', { name: 'Manager approval' });
    expect(within(dialog).getByText(/Cola Can: more than the stock the system knows is sold/)).toBeTruthy();
    await user.type(within(dialog).getByLabelText("Manager's email"), 'boss@example.com');
    await user.type(within(dialog).getByLabelText('PIN'), '2468');
    await user.click(within(dialog).getByRole('button', { name: 'Approve and complete sale' }));
    expect(await screen.findByText('Sale S-000008 completed')).toBeTruthy();
    expect(callsOf(calls, 'POST', '/api/sales')[1]?.body).toEqual({
      lines: [
        { productId: 'p1', quantity: 1 },
        { productId: 'p3', quantity: 2, overrideStock: true },
      ],
      approval: { email: 'boss@example.com', pin: '2468' },
      payments: [{ method: 'card', amount: 3.66 }],
      session: 'session1',
      total: 3.66,
    });
  });

  it("writes money in the store's currency, and says when the settings cannot be read, with Try again", async () => {
    let attempt = 0;
    const { user } = openCounter({
      handlers: {
        'GET /api/settings/store': () => {
          attempt += 1;
          return attempt === 1
            ? { status: 503, body: { success: false, error: 'The database is resting.' } }
            : settingsAnswer({ currency: 'EUR' })();
        },
      },
    });
    expect(
      (await screen.findByText(/The store's prices and taxes could not be loaded/)).textContent,
    ).toContain('The database is resting.');
    await scan(user, '111', 'Green Tea');
    expect(completeButton().disabled).toBe(true);
    expect(screen.getByText("Waiting for the store's prices and taxes.")).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(totals().at(-1)).toEqual(['Total', '€3.26']));
    expect(completeButton().disabled).toBe(false);
  });
});
