import { orderTotal } from '../../../shared/orders';

export const NOT_ENOUGH_STOCK = 'Not enough stock';

export type QuantityChange = { quantity: string; error: string | null };

/**
 * What typing into the Quantity box does: more than the stock is refused with 'Not enough stock'
 * and the quantity stays what it was; anything else (even an empty box while typing) is kept.
 */
export function applyQuantityInput(current: string, typed: string, stock: number): QuantityChange {
  const value = Number(typed);
  if (typed.trim() !== '' && Number.isFinite(value) && value > stock) {
    return { quantity: current, error: NOT_ENOUGH_STOCK };
  }
  return { quantity: typed, error: null };
}

/** The Total shown in the modal: quantity × unit price, 0 while the box holds no usable number. */
export function totalFor(quantity: string, unitPrice: number): number {
  const value = Number(quantity);
  if (quantity.trim() === '' || !Number.isFinite(value) || value <= 0) return 0;
  return orderTotal(value, unitPrice);
}
