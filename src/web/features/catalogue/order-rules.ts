import { orderTotal } from '../../../shared/orders';
import { refusalSentence } from '../../../shared/refusals';

/** The server's own sentence for an order above the stock, said before it is sent. */
export const NOT_ENOUGH_STOCK = refusalSentence('NOT_ENOUGH_STOCK');

/**
 * What the Quantity box holds against the stock: more than the stock is 'Not enough stock'. The
 * box always keeps what was typed; putting back an older number behind the user's back let a
 * different order than the one typed be placed.
 */
export function stockProblem(typed: string, stock: number): string | null {
  const value = Number(typed);
  return typed.trim() !== '' && Number.isFinite(value) && value > stock ? NOT_ENOUGH_STOCK : null;
}

/** The Total shown in the modal: quantity × unit price, 0 while the box holds no usable number. */
export function totalFor(quantity: string, unitPrice: number): number {
  const value = Number(quantity);
  if (quantity.trim() === '' || !Number.isFinite(value) || value <= 0) return 0;
  return orderTotal(value, unitPrice);
}
