import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/format';
import { userOf } from '../../test/helpers';
import { atViewport } from '../../test/viewport';
import { callsOf } from '../sales/sales-test-data';
import {
  byNumberAnswer,
  openSession,
  refund,
  renderRefunds,
  sale,
  saleLine,
  sessionsAnswer,
} from './refunds-test-data';

const PAGE = '/salesRep-dashboard/refunds';

/** A sale of 3 units at 10.00 with 1.00 off the line: 29.00 paid, so one unit is 9.67 back. */
function discounted(overrides: Parameters<typeof saleLine>[4] = {}) {
  return sale({
    lines: [
      saleLine('p1', 'Green Tea', 3, 10, {
        order: { _id: 'o1' },
        discount: 1,
        total: 29,
        net: 29,
        ...overrides,
      }),
      saleLine('p2', 'Cola', 1, 2.4, { order: { _id: 'o2' } }),
    ],
    subtotal: 32.4,
    discount: 1,
    total: 31.4,
    payment: { method: 'card', tendered: null },
    payments: [{ method: 'card', amount: 31.4, tendered: null }],
    change: null,
  });
}

async function find(user: ReturnType<typeof userEvent.setup>, typed: string) {
  const box = screen.getByRole('textbox', { name: 'Receipt number' });
  await user.clear(box);
  await user.type(box, `${typed}{Enter}`);
}

function lineRows() {
  const table = screen.getByRole('table', { name: 'Lines of sale S-000123 to refund' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
}

const units = (name: string) =>
  screen.getByRole('spinbutton', { name: new RegExp(`^Units of ${name} to refund`) }) as HTMLInputElement;

const moneyBack = () => screen.getByRole('status', { name: 'Money back' }).textContent;

describe('finding the receipt', () => {
  it('finds a sale by its number as a scanner types it (Enter), shows it and moves the focus to it', async () => {
    const { calls, router } = renderRefunds(PAGE, {
      'GET /api/sales/by-number/*': byNumberAnswer(
        sale({
          lines: [
            saleLine('p1', 'Crisps', 3, 0.1, {
              order: { _id: 'o1' },
              returnedQuantity: 1,
              returnedTotal: 0.1,
            }),
            saleLine('p2', 'Cola', 1, 2.4, { order: { _id: 'o2' } }),
          ],
        }),
      ),
    });
    const user = userEvent.setup();
    expect(document.title).toBe('Refunds · Inventory MS');
    expect(screen.getByText("Find the sale by the number on the customer's receipt.")).toBeTruthy();
    // The box has the focus from the start: a scan goes straight into it.
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Receipt number' }));
    await find(user, 'S-000123');
    const heading = await screen.findByRole('heading', { name: 'Sale S-000123', level: 2 });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(router.state.location.search).toBe('?receipt=123');
    expect(callsOf(calls, 'GET', '/api/sales/by-number/123')).toHaveLength(1);
    expect(screen.getByText(formatDateTime('2025-05-01T10:30:00.000Z'))).toBeTruthy();
    expect(screen.getByText('Seller').nextElementSibling?.textContent).toBe('Test salesRep');
    expect(screen.getByText('Customer').nextElementSibling?.textContent).toBe('Carla Customer');
    expect(lineRows()).toEqual([
      ['Crisps$0.30 for 3', 'Sold 3', 'Refunded 1', 'Left 2', '−+', 'Money back $0.00'],
      ['Cola$2.40 for 1', 'Sold 1', 'Refunded 0', 'Left 1', '−+', 'Money back $0.00'],
    ]);
    expect(screen.getByRole('link', { name: 'Receipt S-000123' }).getAttribute('href')).toBe(
      '/salesRep-dashboard/sales/sale1',
    );
  });

  it('takes a bare number too, and says when no receipt has it (the box is ready for the next scan)', async () => {
    const { calls } = renderRefunds(PAGE, { 'GET /api/sales/by-number/*': byNumberAnswer() });
    const user = userEvent.setup();
    await find(user, '999');
    expect(
      await screen.findByText('No receipt S-000999 was found. Check the number and try again.'),
    ).toBeTruthy();
    expect(screen.queryByRole('heading', { name: /^Sale / })).toBeNull();
    const box = screen.getByRole('textbox', { name: 'Receipt number' }) as HTMLInputElement;
    expect(box.value).toBe('S-000999');
    await waitFor(() => expect(document.activeElement).toBe(box));
    // No notification: a wrong number is an answer, not a failure.
    expect(screen.queryAllByRole('alert').map((one) => one.textContent)).toEqual([
      'No receipt S-000999 was found. Check the number and try again.',
    ]);
    await find(user, '123');
    expect(await screen.findByRole('heading', { name: 'Sale S-000123' })).toBeTruthy();
    expect(callsOf(calls, 'GET', '/api/sales/by-number/999')).toHaveLength(1);
  });

  it('asks for a number when the text is not one, without asking the server', async () => {
    const { calls } = renderRefunds(PAGE, { 'GET /api/sales/by-number/*': byNumberAnswer() });
    const user = userEvent.setup();
    await find(user, 'crisps');
    expect(screen.getByText('Type a receipt number, like S-000123 or 123.')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Receipt number' }).getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((call) => call.path.startsWith('/api/sales'))).toEqual([]);
  });

  it('offers a retry when the receipt could not be read', async () => {
    let attempt = 0;
    renderRefunds(`${PAGE}?receipt=123`, {
      'GET /api/sales/by-number/*': (call) => {
        attempt += 1;
        if (attempt === 1) throw new TypeError('Failed to fetch');
        return byNumberAnswer()(call);
      },
    });
    const user = userEvent.setup();
    const alert = await screen.findByText(/Receipt S-000123 could not be loaded/);
    expect(alert.textContent).toContain('The server cannot be reached');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Sale S-000123' })).toBeTruthy();
  });

  it("opens on the sale the receipt page's Refund names", async () => {
    const { router } = renderRefunds('/salesRep-dashboard/sales/sale1', {
      'GET /api/sales/sale1': () => ({ body: { success: true, sale: sale() } }),
      'GET /api/sales/by-number/*': byNumberAnswer(),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Refund' }));
    expect(router.state.location.pathname).toBe(PAGE);
    expect(router.state.location.search).toBe('?receipt=123');
    expect(await screen.findByRole('heading', { name: 'Sale S-000123' })).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Receipt number' }) as HTMLInputElement).value).toBe(
      'S-000123',
    );
  });
});

describe('choosing what comes back', () => {
  it('keeps each line between 0 and what is left, by stepper, typing and Refund all', async () => {
    renderRefunds(`${PAGE}?receipt=123`, {
      'GET /api/sales/by-number/*': byNumberAnswer(
        sale({
          lines: [
            saleLine('p1', 'Crisps', 3, 0.1, {
              order: { _id: 'o1' },
              returnedQuantity: 1,
              returnedTotal: 0.1,
            }),
            saleLine('p2', 'Cola', 1, 2.4, { order: { _id: 'o2' }, returnedQuantity: 1, returnedTotal: 2.4 }),
            saleLine('p3', 'Gum', 4, 0.5, { order: { _id: 'o3' } }),
          ],
        }),
      ),
    });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Sale S-000123' });
    expect(units('Crisps').max).toBe('2');
    expect((screen.getByRole('button', { name: 'One less Crisps' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await user.click(screen.getByRole('button', { name: 'One more Crisps' }));
    await user.click(screen.getByRole('button', { name: 'One more Crisps' }));
    expect(units('Crisps').value).toBe('2');
    expect((screen.getByRole('button', { name: 'One more Crisps' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await user.click(screen.getByRole('button', { name: 'One less Crisps' }));
    expect(units('Crisps').value).toBe('1');
    // Typed past what is left: held at what is left.
    await user.clear(units('Gum'));
    await user.type(units('Gum'), '9');
    expect(units('Gum').value).toBe('4');
    // A line that came back whole has nothing to pick.
    expect(screen.queryByRole('spinbutton', { name: /Units of Cola/ })).toBeNull();
    expect(screen.getByText('All refunded')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(units('Crisps').value).toBe('0');
    expect(moneyBack()).toBe('Money back: $0.00');
    await user.click(screen.getByRole('button', { name: 'Refund all' }));
    expect([units('Crisps').value, units('Gum').value]).toEqual(['2', '4']);
    expect(moneyBack()).toBe('Money back for 6 units: $2.20');
  });

  it('previews the money back by the server’s rule, exact to the cent on a discounted 3-unit line', async () => {
    renderRefunds(`${PAGE}?receipt=123`, { 'GET /api/sales/by-number/*': byNumberAnswer(discounted()) });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Sale S-000123' });
    const more = screen.getByRole('button', { name: 'One more Green Tea' });
    await user.click(more);
    expect(lineRows()[0]?.[5]).toBe('Money back $9.67');
    expect(moneyBack()).toBe('Money back for 1 unit: $9.67');
    expect(screen.getByRole('button', { name: 'Refund $9.67' })).toBeTruthy();
    await user.click(more);
    expect(moneyBack()).toBe('Money back for 2 units: $19.33');
    await user.click(more);
    // Every unit: exactly what was paid.
    expect(moneyBack()).toBe('Money back for 3 units: $29.00');
    await user.click(screen.getByRole('button', { name: 'One more Cola' }));
    expect(moneyBack()).toBe('Money back for 4 units: $31.40');
  });

  it('previews what is left of a line part of which came back already (9.67 given, the next unit 9.66)', async () => {
    renderRefunds(`${PAGE}?receipt=123`, {
      'GET /api/sales/by-number/*': byNumberAnswer(discounted({ returnedQuantity: 1, returnedTotal: 9.67 })),
    });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Sale S-000123' });
    await user.click(screen.getByRole('button', { name: 'One more Green Tea' }));
    expect(moneyBack()).toBe('Money back for 1 unit: $9.66');
    await user.click(screen.getByRole('button', { name: 'One more Green Tea' }));
    expect(moneyBack()).toBe('Money back for 2 units: $19.33');
  });

  it('asks for a unit before sending anything', async () => {
    const { calls } = renderRefunds(`${PAGE}?receipt=123`, {
      'GET /api/sales/by-number/*': byNumberAnswer(discounted()),
    });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Sale S-000123' });
    await user.click(screen.getByRole('button', { name: 'Refund $0.00' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose at least one unit to refund.');
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });
});

describe('how the money goes back', () => {
  const methodNames = () =>
    within(screen.getByRole('group', { name: 'Money back by' }))
      .queryAllByRole('radio')
      .map((radio) => radio.closest('label')?.textContent);

  it("offers the sale's own methods, and store credit when the sale has a customer", async () => {
    const split = sale({
      payments: [
        { method: 'card', amount: 2, tendered: null },
        { method: 'cash', amount: 0.7, tendered: 1 },
        { method: 'card', amount: 0, tendered: null },
      ],
    });
    renderRefunds(
      `${PAGE}?receipt=123`,
      {
        'GET /api/sales/by-number/*': byNumberAnswer(split),
        'GET /api/register-sessions': sessionsAnswer([openSession()]),
      },
      { register: true },
    );
    await screen.findByRole('heading', { name: 'Sale S-000123' });
    await waitFor(() => expect(methodNames()).toEqual(['Card', 'Cash', 'Store credit for Carla Customer']));
    // The way it was paid first is chosen until another is.
    expect((screen.getByRole('radio', { name: 'Card' }) as HTMLInputElement).checked).toBe(true);
  });

  it('offers no store credit to a walk-in sale', async () => {
    renderRefunds(`${PAGE}?receipt=123`, {
      'GET /api/sales/by-number/*': byNumberAnswer({ ...discounted(), customer: null }),
    });
    await screen.findByRole('heading', { name: 'Sale S-000123' });
    expect(methodNames()).toEqual(['Card']);
  });

  it('offers the one method of a sale that lists no payments (made before split payments)', async () => {
    renderRefunds(`${PAGE}?receipt=123`, {
      'GET /api/sales/by-number/*': byNumberAnswer({ ...discounted(), customer: null, payments: [] }),
    });
    await screen.findByRole('heading', { name: 'Sale S-000123' });
    expect(methodNames()).toEqual(['Card']);
    expect(screen.getByText('Paid by').nextElementSibling?.textContent).toBe('Card');
  });

  it('hides cash when this device has no open till, and says why', async () => {
    const { calls } = renderRefunds(
      `${PAGE}?receipt=123`,
      {
        'GET /api/sales/by-number/*': byNumberAnswer(sale({ customer: null })),
        'GET /api/register-sessions': sessionsAnswer([]),
      },
      { register: true },
    );
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Sale S-000123' });
    expect(await screen.findByText('Cash: Open the till to refund cash.')).toBeTruthy();
    expect(methodNames()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'One more Cola' }));
    await user.click(screen.getByRole('button', { name: 'Refund $2.40' }));
    expect(screen.getByRole('alert').textContent).toBe('Open the till to refund cash.');
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('hides cash on a device that has chosen no register', async () => {
    const { calls } = renderRefunds(`${PAGE}?receipt=123`, {
      'GET /api/sales/by-number/*': byNumberAnswer(),
    });
    await screen.findByRole('heading', { name: 'Sale S-000123' });
    expect(screen.getByText('Cash: Open the till to refund cash.')).toBeTruthy();
    expect(methodNames()).toEqual(['Store credit for Carla Customer']);
    expect(callsOf(calls, 'GET', '/api/register-sessions')).toEqual([]);
  });

  it('refunds cash out of the open session, restocked by default, and shows the refund’s receipt with the focus on it', async () => {
    const { calls, router } = renderRefunds(
      `${PAGE}?receipt=123`,
      {
        'GET /api/sales/by-number/*': byNumberAnswer(),
        'GET /api/register-sessions': sessionsAnswer([openSession()]),
        'POST /api/sales/sale1/refunds': () => ({
          status: 201,
          body: {
            success: true,
            refund: refund({
              method: 'cash',
              session: { _id: 'ses1', number: 7 },
              lines: [
                {
                  order: { _id: 'o1' },
                  product: { _id: 'p1', name: 'Crisps' },
                  quantity: 2,
                  amount: 0.2,
                  tax: 0,
                },
              ],
            }),
          },
        }),
      },
      { register: true },
    );
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Sale S-000123' });
    await waitFor(() =>
      expect((screen.getByRole('radio', { name: 'Cash' }) as HTMLInputElement).checked).toBe(true),
    );
    await user.click(screen.getByRole('button', { name: 'One more Crisps' }));
    await user.click(screen.getByRole('button', { name: 'One more Crisps' }));
    await user.type(screen.getByRole('textbox', { name: 'Reason (optional)' }), '  Too salty  ');
    await user.click(screen.getByRole('button', { name: 'Refund $0.20' }));
    const heading = await screen.findByRole('heading', { name: 'Refund R-000045', level: 1 });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(router.state.location.pathname).toBe('/salesRep-dashboard/refunds/ref1');
    const [post] = callsOf(calls, 'POST', '/api/sales/sale1/refunds');
    expect(post?.body).toEqual({
      lines: [{ order: 'o1', quantity: 2 }],
      method: 'cash',
      restock: true,
      session: 'ses1',
      reason: 'Too salty',
    });
    expect(post?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    // The answer is the receipt: it is not asked for again.
    expect(callsOf(calls, 'GET', '/api/refunds/ref1')).toEqual([]);
  });

  it('writes the units off when they are damaged, and refunds to store credit', async () => {
    const { calls } = renderRefunds(`${PAGE}?receipt=123`, {
      'GET /api/sales/by-number/*': byNumberAnswer(discounted()),
      'POST /api/sales/sale1/refunds': () => ({
        status: 201,
        body: { success: true, refund: refund({ method: 'storeCredit', restock: false }) },
      }),
    });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Sale S-000123' });
    expect(
      (screen.getByRole('radio', { name: 'Back on the shelf (restock)' }) as HTMLInputElement).checked,
    ).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'Write off (damaged)' }));
    await user.click(screen.getByRole('radio', { name: 'Store credit for Carla Customer' }));
    await user.click(screen.getByRole('button', { name: 'One more Green Tea' }));
    await user.click(screen.getByRole('button', { name: 'Refund $9.67' }));
    await screen.findByRole('heading', { name: 'Refund R-000045' });
    expect(callsOf(calls, 'POST', '/api/sales/sale1/refunds')[0]?.body).toEqual({
      lines: [{ order: 'o1', quantity: 1 }],
      method: 'storeCredit',
      restock: false,
    });
  });

  it('shows the server’s refusal (409) and keeps the choice, to send again', async () => {
    let posts = 0;
    const { calls } = renderRefunds(
      '/admin-dashboard/refunds?receipt=123',
      {
        'GET /api/sales/by-number/*': byNumberAnswer(discounted()),
        'POST /api/sales/sale1/refunds': () => {
          posts += 1;
          return posts === 1
            ? { status: 409, body: { success: false, error: 'Only 2 of Green Tea are left to refund.' } }
            : { status: 201, body: { success: true, refund: refund({ restock: false }) } };
        },
      },
      { me: userOf('admin') },
    );
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Sale S-000123' });
    await user.click(screen.getByRole('radio', { name: 'Write off (damaged)' }));
    await user.click(screen.getByRole('button', { name: 'Refund all' }));
    await user.click(screen.getByRole('button', { name: 'Refund $31.40' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Only 2 of Green Tea are left to refund.');
    expect([units('Green Tea').value, units('Cola').value]).toEqual(['3', '1']);
    expect((screen.getByRole('radio', { name: 'Write off (damaged)' }) as HTMLInputElement).checked).toBe(
      true,
    );
    // The sale is read again (another till may have refunded it meanwhile).
    await waitFor(() => expect(callsOf(calls, 'GET', '/api/sales/by-number/123').length).toBeGreaterThan(1));
    await user.click(screen.getByRole('button', { name: 'One less Green Tea' }));
    await user.click(screen.getByRole('button', { name: 'Refund $21.73' }));
    expect(await screen.findByRole('heading', { name: 'Refund R-000045' })).toBeTruthy();
    const bodies = callsOf(calls, 'POST', '/api/sales/sale1/refunds').map((call) => call.body);
    expect(bodies[1]).toEqual({
      lines: [
        { order: 'o1', quantity: 2 },
        { order: 'o2', quantity: 1 },
      ],
      method: 'card',
      restock: false,
    });
    const keys = callsOf(calls, 'POST', '/api/sales/sale1/refunds').map(
      (call) => call.headers['Idempotency-Key'],
    );
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('reads the till again when the server says its session is closed (409), keeping the choice', async () => {
    let open = true;
    const { calls } = renderRefunds(
      `${PAGE}?receipt=123`,
      {
        'GET /api/sales/by-number/*': byNumberAnswer(sale({ customer: null })),
        'GET /api/register-sessions': (call) => sessionsAnswer(open ? [openSession()] : [])(call),
        'POST /api/sales/sale1/refunds': () => {
          open = false;
          return { status: 409, body: { success: false, error: 'This till session is closed.' } };
        },
      },
      { register: true },
    );
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Sale S-000123' });
    await waitFor(() =>
      expect((screen.getByRole('radio', { name: 'Cash' }) as HTMLInputElement).checked).toBe(true),
    );
    await user.click(screen.getByRole('button', { name: 'One more Cola' }));
    await user.click(screen.getByRole('button', { name: 'Refund $2.40' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This till session is closed.');
    expect(callsOf(calls, 'POST', '/api/sales/sale1/refunds')[0]?.body).toMatchObject({ session: 'ses1' });
    // The till is read again: cash is no longer offered, and the units stay picked.
    expect(await screen.findByText('Cash: Open the till to refund cash.')).toBeTruthy();
    expect(screen.queryByRole('radio', { name: 'Cash' })).toBeNull();
    expect(units('Cola').value).toBe('1');
  });

  it('lays out a line as a card with its stepper on a phone', async () => {
    atViewport(375);
    renderRefunds(`${PAGE}?receipt=123`, { 'GET /api/sales/by-number/*': byNumberAnswer(discounted()) });
    await screen.findByRole('heading', { name: 'Sale S-000123' });
    const row = units('Green Tea').closest('tr') as HTMLElement;
    expect(row.className).toContain('max-sm:grid');
    expect(within(row).getByRole('button', { name: 'One more Green Tea' })).toBeTruthy();
  });
});
