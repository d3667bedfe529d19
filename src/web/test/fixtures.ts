import type { Customer } from '../../shared/customers';
import type { Item } from '../../shared/items';
import type { Product } from '../../shared/products';
import type { ReceiptStore, Sale } from '../../shared/sales';
import { storeOf } from './helpers';

/**
 * The web tests' records as the server answers them, typed from src/shared: one factory per kind,
 * plain defaults, the test overriding what matters to it (not part of the app).
 */

export function product(id: string, name: string, overrides: Partial<Product> = {}): Product {
  return {
    _id: id,
    name,
    description: '',
    price: 1,
    stock: 10,
    reorderPoint: 2,
    reorderPointFromStore: false,
    reorderQuantity: null,
    cost: null,
    sku: null,
    barcode: null,
    taxRate: null,
    taxRateDefault: true,
    tracking: 'none',
    category: { _id: 'c1', name: 'Snacks' },
    supplier: { _id: 's1', name: 'Acme' },
    brand: null,
    active: true,
    item: null,
    optionValues: null,
    ...overrides,
  };
}

export function customer(id: string, name: string, overrides: Partial<Customer> = {}): Customer {
  return {
    _id: id,
    name,
    phone: '',
    email: '',
    address: '',
    note: '',
    createdAt: '2025-05-01T10:00:00.000Z',
    ...overrides,
  };
}

type SaleLine = Sale['lines'][number];

/** A receipt's line as the server answers it: no discount, untaxed, unless overridden. */
export function saleLine(
  id: string,
  name: string,
  quantity: number,
  unitPrice: number,
  overrides: Partial<SaleLine> = {},
): SaleLine {
  const gross = Math.round(quantity * unitPrice * 100) / 100;
  return {
    order: { _id: `o-${id}` },
    product: { _id: id, name },
    quantity,
    unitPrice,
    gross,
    discount: 0,
    tax: 0,
    taxRate: null,
    total: gross,
    net: gross,
    returnedQuantity: 0,
    returnedTotal: 0,
    lots: [],
    ...overrides,
  };
}

/** The store a receipt names: the settings of a fresh store called Corner Shop, less its money rules. */
const {
  defaultTaxRate: _rate,
  maxDiscountPercent: _limit,
  offlineHours: _hours,
  ...receiptStore
} = storeOf({ name: 'Corner Shop' });
export const STORE: ReceiptStore = receiptStore;

/**
 * A receipt as the server answers it. Unless the test gives `payments`, they are the one payment
 * `payment` names (default: $5.00 cash for $2.70), so the two never disagree.
 */
export function sale(overrides: Partial<Sale> = {}): Sale {
  const total = overrides.total ?? 2.7;
  const payment = overrides.payment ?? { method: 'cash', tendered: 5 };
  const single =
    payment.method === 'split'
      ? []
      : [
          {
            method: payment.method,
            amount: total,
            tendered: payment.method === 'cash' ? (payment.tendered ?? total) : null,
          },
        ];
  return {
    _id: 'sale1',
    number: 123,
    createdAt: '2025-05-01T10:30:00.000Z',
    store: STORE,
    seller: { _id: 'salesRep-id', name: 'Test salesRep' },
    customer: { _id: 'cu1', name: 'Carla Customer' },
    lines: [
      saleLine('p1', 'Crisps', 3, 0.1, { order: { _id: 'o1' } }),
      saleLine('p2', 'Cola', 1, 2.4, { order: { _id: 'o2' } }),
    ],
    subtotal: 2.7,
    discount: 0,
    tax: 0,
    taxes: [],
    total: 2.7,
    payment,
    payments: single,
    change: 2.3,
    session: null,
    refunds: [],
    ...overrides,
  };
}

/**
 * An item as the server answers it (DESIGN §22): its options and its variants, each a product
 * carrying the item and its values; by default the item has no options and no variants.
 */
export function item(id: string, name: string, overrides: Partial<Item> = {}): Item {
  return {
    _id: id,
    name,
    description: '',
    category: { _id: 'c1', name: 'Snacks' },
    supplier: { _id: 's1', name: 'Acme' },
    brand: null,
    options: [],
    variants: [],
    ...overrides,
  };
}

/** A variant of `of`: a product named by the item and its values, carrying both. */
export function variant(
  id: string,
  of: { _id: string; name: string },
  optionValues: Record<string, string>,
  overrides: Partial<Product> = {},
): Product {
  const values = Object.values(optionValues);
  return product(id, values.length ? `${of.name} — ${values.join(' / ')}` : of.name, {
    item: { _id: of._id, name: of.name },
    optionValues,
    ...overrides,
  });
}
