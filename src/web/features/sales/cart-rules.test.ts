import { describe, expect, it } from 'vitest';
import { product } from '../../test/fixtures';
import {
  addToCart,
  type Cart,
  cartTotal,
  changeFor,
  codeMatch,
  isAboveStock,
  itemCount,
  lineTotal,
  quantityOf,
  refreshProducts,
  removeLine,
  setQuantity,
  stepQuantity,
  tenderedOf,
} from './cart-rules';

const crisps = product('p1', 'Crisps', { price: 0.1, stock: 5, barcode: '4006381333931' });
const cola = product('p2', 'Cola', { price: 0.2, stock: 2, sku: 'COLA-1' });

describe('cart rules', () => {
  it('adds a new product as a line of 1, and the same product again as 1 more on its line', () => {
    let cart: Cart = [];
    cart = addToCart(cart, crisps);
    cart = addToCart(cart, cola);
    cart = addToCart(cart, { ...crisps, stock: 4 });
    expect(cart.map((line) => [line.product.name, line.quantity])).toEqual([
      ['Crisps', '2'],
      ['Cola', '1'],
    ]);
    // The line takes the stock as just read.
    expect(cart[0]?.product.stock).toBe(4);
  });

  it('steps a quantity by one, never below 1, and removes a line', () => {
    let cart: Cart = addToCart([], crisps);
    cart = stepQuantity(cart, 'p1', 1);
    cart = stepQuantity(cart, 'p1', 1);
    expect(cart[0]?.quantity).toBe('3');
    cart = stepQuantity(cart, 'p1', -1);
    cart = stepQuantity(cart, 'p1', -1);
    cart = stepQuantity(cart, 'p1', -1);
    expect(cart[0]?.quantity).toBe('1');
    expect(removeLine(cart, 'p1')).toEqual([]);
  });

  it('reads a quantity only as a whole number of at least 1', () => {
    expect(quantityOf('3')).toBe(3);
    expect(quantityOf(' 12 ')).toBe(12);
    expect(quantityOf('')).toBeNull();
    expect(quantityOf('0')).toBeNull();
    expect(quantityOf('1.5')).toBeNull();
    expect(quantityOf('-2')).toBeNull();
  });

  it('flags a line above the stock it last read', () => {
    const cart = setQuantity(addToCart([], cola), 'p2', '3');
    expect(isAboveStock(cart[0] as Cart[number])).toBe(true);
    expect(isAboveStock(setQuantity(cart, 'p2', '2')[0] as Cart[number])).toBe(false);
    // A fresher stock (after a refused sale) changes the verdict.
    const fresh = refreshProducts(cart, [{ ...cola, stock: 5 }]);
    expect(isAboveStock(fresh[0] as Cart[number])).toBe(false);
  });

  it('adds the lines in cents, so 0.1 × 3 + 0.2 × 1 is exactly 0.5', () => {
    let cart: Cart = addToCart(addToCart([], crisps), cola);
    cart = setQuantity(cart, 'p1', '3');
    expect(lineTotal(cart[0] as Cart[number])).toBe(0.3);
    expect(cartTotal(cart)).toBe(0.5);
    expect(itemCount(cart)).toBe(4);
    // A box being typed into counts nothing.
    expect(cartTotal(setQuantity(cart, 'p1', ''))).toBe(0.2);
  });

  it('computes the change in cents and reads the cash tendered as an amount with at most 2 decimals', () => {
    expect(changeFor(1, 0.7)).toBe(0.3);
    expect(changeFor(20, 12.35)).toBe(7.65);
    expect(changeFor(5, 5.01)).toBe(-0.01);
    expect(tenderedOf('')).toBeNull();
    expect(tenderedOf('20')).toBe(20);
    expect(tenderedOf('20.5')).toBe(20.5);
    expect(tenderedOf('.50')).toBe(0.5);
    expect(tenderedOf('20.505')).toBeNaN();
    expect(tenderedOf('abc')).toBeNaN();
  });

  it('finds a product by its SKU or barcode exactly, ignoring case, and not by a part of it', () => {
    expect(codeMatch([crisps, cola], '4006381333931')).toBe(crisps);
    expect(codeMatch([crisps, cola], 'cola-1')).toBe(cola);
    expect(codeMatch([crisps, cola], 'COLA')).toBeUndefined();
    expect(codeMatch([crisps, cola], '')).toBeUndefined();
  });
});
