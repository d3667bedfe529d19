import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Product } from '../../../shared/products';
import { product as productOf } from '../../test/fixtures';
import { mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { OrderModal } from './order-modal';
import { NOT_ENOUGH_STOCK, stockProblem, totalFor } from './order-rules';

/** The pen the order modal's tests order: $12.50, 3 in stock. */
const product = (overrides: Partial<Product> = {}) =>
  productOf('p1', 'Blue Pen', {
    price: 12.5,
    stock: 3,
    reorderPoint: 5,
    reorderPointFromStore: true,
    category: { _id: 'c1', name: 'Stationery' },
    ...overrides,
  });

const placed = {
  status: 201,
  body: {
    success: true,
    order: {
      _id: 'o1',
      user: { _id: 'user-id', name: 'Test user', address: '1 Main Street' },
      product: { _id: 'p1', name: 'Blue Pen', category: { name: 'Stationery' } },
      quantity: 2,
      unitPrice: 12.5,
      unitCost: null,
      totalPrice: 25,
      discount: 0,
      tax: 0,
      taxRate: null,
      netTotal: 25,
      returnedTotal: 0,
      orderDate: '2025-05-01T10:00:00.000Z',
      status: 'placed',
      returnedQuantity: 0,
      sale: null,
      customer: null,
      lots: [],
    },
  },
};

function quantityBox() {
  return screen.getByLabelText('Quantity') as HTMLInputElement;
}

function total() {
  return screen.getByText(/^Total:/).textContent?.replace(/^Total:\s*/, '');
}

describe('order quantity rules', () => {
  it("calls more than the stock 'Not enough stock'", () => {
    expect(stockProblem('4', 3)).toBe(NOT_ENOUGH_STOCK);
    expect(stockProblem('9999', 3)).toBe(NOT_ENOUGH_STOCK);
  });

  it('accepts the whole stock, and an empty box while typing', () => {
    expect(stockProblem('3', 3)).toBeNull();
    expect(stockProblem('', 3)).toBeNull();
  });

  it('computes the total in cents', () => {
    expect(totalFor('3', 0.1)).toBe(0.3);
    expect(totalFor('2', 12.5)).toBe(25);
    expect(totalFor('', 12.5)).toBe(0);
    expect(totalFor('0', 12.5)).toBe(0);
  });
});

describe('Place Order modal', () => {
  it('opens with quantity 1 (min 1) and the unit price as total', () => {
    renderWithClient(<OrderModal product={product()} onClose={() => {}} />);
    expect(screen.getByRole('dialog', { name: 'Place Order' })).toBeTruthy();
    expect(quantityBox().value).toBe('1');
    expect(quantityBox().min).toBe('1');
    expect(total()).toBe('$12.50');
    expect(document.activeElement).toBe(quantityBox());
  });

  it('shows quantity × price with two decimals', () => {
    renderWithClient(<OrderModal product={product({ price: 0.1, stock: 10 })} onClose={() => {}} />);
    fireEvent.change(quantityBox(), { target: { value: '3' } });
    expect(total()).toBe('$0.30');
  });

  it("keeps 12 typed for a stock of 5, says 'Not enough stock' and disables Place Order until the quantity is valid", async () => {
    renderWithClient(<OrderModal product={product({ stock: 5 })} onClose={() => {}} />);
    const place = screen.getByRole('button', { name: 'Place Order' }) as HTMLButtonElement;
    await userEvent.clear(quantityBox());
    await userEvent.type(quantityBox(), '12');
    expect(quantityBox().value).toBe('12');
    expect(screen.getByRole('alert').textContent).toBe('Not enough stock');
    expect(quantityBox().getAttribute('aria-invalid')).toBe('true');
    expect(place.disabled).toBe(true);
    expect(total()).toBe('$150.00');

    await userEvent.type(quantityBox(), '{Backspace}');
    expect(quantityBox().value).toBe('1');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(place.disabled).toBe(false);
  });

  it('places nothing for 9999, by Enter or by Place Order, and stays open', async () => {
    signIn(userOf('user'));
    const { calls } = mockFetch({ 'POST /api/order/add': () => placed });
    const onClose = vi.fn();
    renderWithClient(<OrderModal product={product({ stock: 5 })} onClose={onClose} />);
    await userEvent.clear(quantityBox());
    await userEvent.type(quantityBox(), '9999{Enter}');
    fireEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    fireEvent.submit(quantityBox().form as HTMLFormElement);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(quantityBox().value).toBe('9999');
    expect(calls).toHaveLength(0);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.queryByText('order placed')).toBeNull();
  });

  it('refuses a quantity below 1 without calling the server', async () => {
    const { calls } = mockFetch({});
    renderWithClient(<OrderModal product={product()} onClose={() => {}} />);
    fireEvent.change(quantityBox(), { target: { value: '0' } });
    await userEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    expect(screen.getByText('Quantity must be at least 1.')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it("sends productId and quantity, says 'order placed' and closes", async () => {
    signIn(userOf('user'), 'tok-1');
    const { calls } = mockFetch({ 'POST /api/order/add': () => placed });
    const onClose = vi.fn();
    renderWithClient(<OrderModal product={product()} onClose={onClose} />);
    fireEvent.change(quantityBox(), { target: { value: '2' } });
    await userEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(calls[0]?.body).toEqual({ productId: 'p1', quantity: 2 });
    expect(calls[0]?.headers.Authorization).toBe('Bearer tok-1');
    expect(screen.getByRole('status').textContent).toBe('order placed');
  });

  it("an order is a one-line sale: 'order placed' offers its receipt, in the buyer's own area", async () => {
    signIn(userOf('salesRep'));
    mockFetch({
      'POST /api/order/add': () => ({
        ...placed,
        body: { ...placed.body, order: { ...placed.body.order, sale: { _id: 'sale-7', number: 123 } } },
      }),
    });
    const onClose = vi.fn();
    renderWithClient(<OrderModal product={product()} onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(screen.getByRole('status').textContent).toBe('order placed');
    const receipt = screen.getByRole('link', { name: 'Receipt S-000123' });
    expect(receipt.getAttribute('href')).toBe('/salesRep-dashboard/sales/sale-7');
  });

  it('sends an Idempotency-Key, the same one when the order is retried after the server could not be reached', async () => {
    signIn(userOf('user'));
    let attempts = 0;
    const { calls } = mockFetch({
      'POST /api/order/add': () => {
        attempts += 1;
        if (attempts === 1) throw new TypeError('network down');
        return placed;
      },
    });
    const onClose = vi.fn();
    renderWithClient(<OrderModal product={product()} onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/cannot be reached/);
    await userEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    const [first, retry] = calls.map((call) => call.headers['Idempotency-Key']);
    expect(first).toMatch(/^[\x21-\x7e]{1,200}$/);
    expect(retry).toBe(first);
  });

  it('a new submit after an answer carries a new key', async () => {
    signIn(userOf('user'));
    const { calls } = mockFetch({
      'POST /api/order/add': () => ({ status: 409, body: { success: false, error: 'Not enough stock' } }),
    });
    renderWithClient(<OrderModal product={product()} onClose={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    await screen.findByRole('alert');
    await userEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]?.headers['Idempotency-Key']).not.toBe(calls[0]?.headers['Idempotency-Key']);
  });

  it("shows the server's sentence on a 409 and stays open", async () => {
    signIn(userOf('user'));
    mockFetch({
      'POST /api/order/add': () => ({ status: 409, body: { success: false, error: 'Not enough stock' } }),
    });
    const onClose = vi.fn();
    renderWithClient(<OrderModal product={product()} onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Place Order' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Not enough stock');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes on Escape', async () => {
    const onClose = vi.fn();
    renderWithClient(<OrderModal product={product()} onClose={onClose} />);
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('keeps Tab inside the dialog', async () => {
    renderWithClient(<OrderModal product={product()} onClose={() => {}} />);
    const placeButton = screen.getByRole('button', { name: 'Place Order' });
    placeButton.focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(quantityBox());
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(placeButton);
  });
});
