import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { product, sale } from '../../test/fixtures';
import { callsOf, codeAnswer, type Handler, productsAnswer, renderSales } from './sales-test-data';

const catalogue = Array.from({ length: 7 }, (_, at) =>
  product(`p${at + 1}`, `Item ${at + 1}`, { price: 1, stock: 10, barcode: `100${at + 1}` }),
);

function openCounter(handlers: Record<string, Handler> = {}) {
  const view = renderSales('/salesRep-dashboard/sales/new', {
    'GET /api/products': productsAnswer(catalogue),
    'GET /api/products/code/*': codeAnswer(catalogue),
    'POST /api/sales': () => ({ status: 201, body: { success: true, sale: sale({ _id: 's5', number: 5 }) } }),
    ...handlers,
  });
  return { ...view, user: userEvent.setup() };
}

const searchBox = () => screen.getByRole('combobox', { name: 'Scan or search a product' });
const quantityBox = (name: string) => screen.getByLabelText(`Quantity of ${name}`) as HTMLInputElement;

async function scan(user: ReturnType<typeof userEvent.setup>, count: number) {
  for (let at = 1; at <= count; at += 1) {
    await user.type(searchBox(), `100${at}{Enter}`);
    await waitFor(() => expect(quantityBox(`Item ${at}`).value).toBe('1'));
  }
}

describe('the counter by keyboard', () => {
  it('shows its shortcuts on screen as keys', () => {
    openCounter();
    const legend = screen.getByRole('region', { name: 'Keyboard shortcuts' });
    expect(Array.from(legend.querySelectorAll('kbd'), (key) => key.textContent)).toEqual([
      'F2',
      '/',
      'F4',
      'Alt+Q',
      'F8',
      'F9',
      'Ctrl+Enter',
    ]);
    expect(within(legend).getByText('Complete sale')).toBeTruthy();
    expect(searchBox().getAttribute('aria-keyshortcuts')).toBe('F2 /');
    expect(screen.getByRole('button', { name: 'Complete sale' }).getAttribute('aria-keyshortcuts')).toBe(
      'F9 Control+Enter',
    );
  });

  it('F2 and / bring focus to the scan box; / typed in a field stays text', async () => {
    const { user } = openCounter();
    const customerBox = screen.getByRole('combobox', { name: 'Find a customer' }) as HTMLInputElement;
    await user.click(customerBox);
    await user.keyboard('{F2}');
    expect(document.activeElement).toBe(searchBox());

    await user.click(customerBox);
    await user.keyboard('a/b');
    expect(customerBox.value).toBe('a/b');
    expect(document.activeElement).toBe(customerBox);

    screen.getByRole('button', { name: 'Quick add a customer' }).focus();
    await user.keyboard('/');
    expect(document.activeElement).toBe(searchBox());
    expect((searchBox() as HTMLInputElement).value).toBe('');
  });

  it('F4 and Alt+Q bring focus to the quantity of the last line, selected to type over', async () => {
    const { user } = openCounter();
    await scan(user, 2);
    await user.keyboard('{F4}');
    expect(document.activeElement).toBe(quantityBox('Item 2'));
    await user.keyboard('4');
    expect(quantityBox('Item 2').value).toBe('4');

    await user.keyboard('{F2}');
    await user.keyboard('{Alt>}q{/Alt}');
    expect(document.activeElement).toBe(quantityBox('Item 2'));
    expect(quantityBox('Item 2').getAttribute('aria-keyshortcuts')).toBe('F4 Alt+Q');
    expect(quantityBox('Item 1').getAttribute('aria-keyshortcuts')).toBeNull();
  });

  it('F8 brings focus to the cash tendered, or to the chosen method when it is not cash', async () => {
    const { user } = openCounter();
    await user.keyboard('{F8}');
    expect(document.activeElement).toBe(screen.getByLabelText('Cash tendered'));
    await user.click(screen.getByLabelText('Card'));
    await user.keyboard('{F2}{F8}');
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Card' }));
  });

  it('F9 completes the sale and the focus is back in the scan box; nothing is sent while the sale cannot complete', async () => {
    const { user, calls } = openCounter();
    await user.keyboard('{F9}');
    expect(callsOf(calls, 'POST', '/api/sales')).toHaveLength(0);

    await scan(user, 1);
    await user.keyboard('{F8}20{F9}');
    expect(await screen.findByText('Sale S-000005 completed')).toBeTruthy();
    expect(callsOf(calls, 'POST', '/api/sales')[0]?.body).toEqual({
      lines: [{ productId: 'p1', quantity: 1 }],
      payments: [{ method: 'cash', amount: 20 }],
      session: 'session1',
      total: 1,
    });
    expect(document.activeElement).toBe(searchBox());
  });

  it('Ctrl+Enter completes the sale from the scan box without adding what is typed there', async () => {
    const { user, calls } = openCounter();
    await scan(user, 1);
    await user.type(searchBox(), '1002');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('Sale S-000005 completed')).toBeTruthy();
    expect(callsOf(calls, 'POST', '/api/sales')[0]?.body).toMatchObject({
      lines: [{ productId: 'p1', quantity: 1 }],
    });
    expect(callsOf(calls, 'GET', '/api/products/code/1002')).toHaveLength(0);
    expect(document.activeElement).toBe(searchBox());
  });

  it('stops Tab three times per cart line (quantity, Remove, Discount), so the customer is 22 tabs from the scan box with 7 lines', async () => {
    const { user } = openCounter();
    await scan(user, 7);
    searchBox().focus();
    const stops: string[] = [];
    const customerBox = screen.getByRole('combobox', { name: 'Find a customer' });
    while (document.activeElement !== customerBox && stops.length < 40) {
      await user.tab();
      const focused = document.activeElement as HTMLElement;
      stops.push(focused.getAttribute('aria-label') ?? focused.textContent ?? '');
    }
    expect(stops).toHaveLength(22);
    for (let at = 1; at <= 7; at += 1) {
      expect(stops.filter((stop) => stop.endsWith(`Item ${at}`))).toEqual([
        `Quantity of Item ${at}`,
        `Remove Item ${at}`,
        `Discount on Item ${at}`,
      ]);
    }
    // − and + are still there for the mouse and touch.
    await user.click(screen.getByRole('button', { name: 'One more Item 3' }));
    expect(quantityBox('Item 3').value).toBe('2');
  });
});
