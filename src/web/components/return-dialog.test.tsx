import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Order } from '../../shared/orders';
import { mockFetch, renderWithClient, signIn, userOf } from '../test/helpers';
import { ReturnDialog, returnMark } from './return-dialog';

function order(overrides: Partial<Order> = {}): Order {
  return {
    _id: 'o1',
    user: { _id: 'u1', name: 'Rita Rep', address: '1 Road' },
    product: { _id: 'p1', name: 'Blue Pen', category: { name: 'Stationery' } },
    quantity: 5,
    unitPrice: 2,
    unitCost: null,
    totalPrice: 10,
    discount: 0,
    tax: 0,
    taxRate: null,
    netTotal: 10,
    returnedTotal: 0,
    orderDate: '2025-05-01T10:00:00.000Z',
    status: 'placed',
    returnedQuantity: 0,
    sale: null,
    customer: null,
    lots: [],
    ...overrides,
  };
}

describe('returns', () => {
  it('marks returned and partly returned orders', () => {
    expect(returnMark(order())).toBeNull();
    expect(returnMark(order({ returnedQuantity: 2 }))).toBe('2 of 5 returned');
    expect(returnMark(order({ returnedQuantity: 5, status: 'returned' }))).toBe('Returned');
  });

  it('offers what remains, refuses more, and sends the quantity and reason with an Idempotency-Key', async () => {
    signIn(userOf('admin'));
    const { calls } = mockFetch({
      'POST /api/order/o1/return': ({ body }) => ({
        status: 200,
        body: {
          success: true,
          order: order({ returnedQuantity: 2 + (body as { quantity: number }).quantity }),
        },
      }),
    });
    const onClose = vi.fn();
    renderWithClient(<ReturnDialog order={order({ returnedQuantity: 2 })} onClose={onClose} />);
    const box = screen.getByLabelText('Quantity') as HTMLInputElement;
    expect(box.value).toBe('3');
    await userEvent.clear(box);
    await userEvent.type(box, '4');
    await userEvent.click(screen.getByRole('button', { name: 'Return to stock' }));
    expect(await screen.findByText('At most 3 can come back.')).toBeTruthy();
    expect(calls).toHaveLength(0);
    await userEvent.clear(box);
    await userEvent.type(box, '2');
    await userEvent.type(screen.getByLabelText('Reason'), 'Wrong colour');
    await userEvent.click(screen.getByRole('button', { name: 'Return to stock' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(calls[0]?.body).toEqual({ quantity: 2, reason: 'Wrong colour' });
    expect(calls[0]?.headers['Idempotency-Key']).toMatch(/^[\x21-\x7e]{1,200}$/);
  });

  it('refuses 0 and an empty box without calling the server', async () => {
    signIn(userOf('admin'));
    const { calls } = mockFetch({});
    renderWithClient(<ReturnDialog order={order()} onClose={vi.fn()} />);
    const box = screen.getByLabelText('Quantity') as HTMLInputElement;
    expect(box.value).toBe('5');
    expect(box.min).toBe('1');
    expect(box.max).toBe('5');
    await userEvent.clear(box);
    await userEvent.click(screen.getByRole('button', { name: 'Return to stock' }));
    expect(box.getAttribute('aria-invalid')).toBe('true');
    await userEvent.type(box, '0');
    await userEvent.click(screen.getByRole('button', { name: 'Return to stock' }));
    expect(await screen.findByText('Quantity must be at least 1.')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it("shows the server's 409 in the dialog and stays open", async () => {
    signIn(userOf('admin'));
    mockFetch({
      'POST /api/order/o1/return': () => ({
        status: 409,
        body: { success: false, error: 'Only 1 of this order can still be returned' },
      }),
    });
    const onClose = vi.fn();
    renderWithClient(<ReturnDialog order={order({ returnedQuantity: 2 })} onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Return to stock' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Only 1 of this order can still be returned');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('a retry after the server could not be reached carries the same key; another quantity a new one', async () => {
    signIn(userOf('admin'));
    let attempts = 0;
    const { calls } = mockFetch({
      'POST /api/order/o1/return': ({ body }) => {
        attempts += 1;
        if (attempts <= 2) throw new TypeError('network down');
        return {
          body: {
            success: true,
            order: order({ returnedQuantity: (body as { quantity: number }).quantity }),
          },
        };
      },
    });
    const onClose = vi.fn();
    renderWithClient(<ReturnDialog order={order()} onClose={onClose} />);
    const box = screen.getByLabelText('Quantity') as HTMLInputElement;
    const send = screen.getByRole('button', { name: 'Return to stock' });
    await userEvent.click(send);
    expect((await screen.findByRole('alert')).textContent).toMatch(/cannot be reached/);
    await userEvent.click(send);
    await waitFor(() => expect(calls).toHaveLength(2));
    await userEvent.clear(box);
    await userEvent.type(box, '1');
    await userEvent.click(send);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    const [first, retry, other] = calls.map((call) => call.headers['Idempotency-Key']);
    expect(retry).toBe(first);
    expect(other).not.toBe(first);
    expect(calls.map((call) => call.body)).toEqual([{ quantity: 5 }, { quantity: 5 }, { quantity: 1 }]);
  });
});
