import { z } from 'zod';
import { Id, Named, Ok } from './common';
import { OrderLot } from './lots';
import { ExportFormat, PageInfo, PageQuery } from './paging';

export const Quantity = z
  .number({ error: 'Quantity must be a number.' })
  .int({ error: 'Quantity must be a whole number.' })
  .min(1, { error: 'Quantity must be at least 1.' })
  .max(1_000_000, { error: 'Quantity is too large.' });

export const ORDER_STATUSES = ['placed', 'returned'] as const;

/** total, price and stock may be sent (the observed client does) but are ignored. */
export const OrderInput = z.object({ productId: Id, quantity: Quantity });
export type OrderInput = z.infer<typeof OrderInput>;

/** What was true when the order was placed; later edits and deletes never rewrite it. */
export const Order = z.object({
  _id: z.string(),
  user: z.object({ _id: z.string().nullable(), name: z.string(), address: z.string() }),
  product: z.object({
    _id: z.string().nullable(),
    name: z.string(),
    category: z.object({ name: z.string() }),
  }),
  quantity: z.number().int(),
  unitPrice: z.number(),
  /**
   * The product's cost when it was sold (for margins); null when it had none. Only roles that
   * read costs (costs:read) get it; to the others the field is absent.
   */
  unitCost: z.number().nullable().optional(),
  /** What the customer paid for the line (after discounts, tax included). */
  totalPrice: z.number(),
  /** DESIGN §12: the line's discount (own + cart share), its tax, the rate (snapshot), total − tax. */
  discount: z.number(),
  tax: z.number(),
  taxRate: z.object({ name: z.string(), rate: z.number() }).nullable(),
  netTotal: z.number(),
  /** Money given back so far by returns. */
  returnedTotal: z.number(),
  orderDate: z.string(),
  /** `returned` once every unit came back; a partly returned order stays `placed`. */
  status: z.enum(ORDER_STATUSES),
  returnedQuantity: z.number().int(),
  /** The sale this order is a line of (DESIGN §11); null for an order placed alone. */
  sale: z.object({ _id: z.string(), number: z.number().int() }).nullable(),
  /** The sale's customer, by the name they had then (_id null once deleted); null for none. */
  customer: z.object({ _id: z.string().nullable(), name: z.string() }).nullable(),
  /** DESIGN §15: the lots the order took its units from (first-expiry-first-out); [] without lots. */
  lots: z.array(OrderLot),
  /** Where its units left from (DESIGN §17); every order the server answers names it. */
  location: Named.optional(),
});
export type Order = z.infer<typeof Order>;

export const OrderResponse = Ok.extend({ order: Order });
/** A return's answer: the order as it now stands and the money this return gave back (DESIGN §12). */
export const ReturnResponse = OrderResponse.extend({ refunded: z.number() });
export const ORDER_SORTS = ['-date', 'date'] as const;
/** search matches the product name or the ordering user's name. */
export const OrderQuery = PageQuery.extend({
  sort: z.enum(ORDER_SORTS, { error: `sort must be one of ${ORDER_SORTS.join(', ')}.` }).optional(),
  format: ExportFormat,
});
export type OrderQuery = z.input<typeof OrderQuery>;
export const OrderListResponse = Ok.extend({ orders: z.array(Order) }).extend(PageInfo.shape);
export const UserIdParams = z.object({ userId: Id });

/** The columns of the orders CSV, in order; without `unit cost` for a role that does not read costs. */
export const ORDER_CSV_HEADER = [
  'order id',
  'date',
  'product',
  'category',
  'user',
  'quantity',
  'unit price',
  'unit cost',
  'total',
  'discount',
  'tax',
  'tax rate',
  'net',
  'returned quantity',
  'returned total',
  'status',
  'sale number',
  'customer',
] as const;

/** Total of quantity × unit price, computed in cents so 0.1 + 0.2 stays 0.30. */
export function orderTotal(quantity: number, unitPrice: number): number {
  return (quantity * Math.round(unitPrice * 100)) / 100;
}
