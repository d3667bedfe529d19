import { z } from 'zod';
import { Named, Ok } from './common';

const CategoryName = z.object({ name: z.string() });

export const DashboardResponse = Ok.extend({
  totalProducts: z.number().int(),
  totalStock: z.number().int(),
  /** Sales placed today in the store's time zone: a sale of many lines once, a catalogue order once. */
  ordersToday: z.number().int(),
  /** Every order's net (total less tax, DESIGN §12) over all time, net of returns. */
  revenue: z.number(),
  /**
   * Today in the store's time zone: its sales (as ordersToday), their revenue (net of tax and of
   * returns), and the average basket, revenue / sales to the cent (0 without sales).
   */
  today: z.object({ sales: z.number().int(), revenue: z.number(), averageBasket: z.number() }),
  outOfStock: z.array(z.object({ _id: z.string(), name: z.string(), category: CategoryName })),
  /** The product with the most units sold over all time, net of returns. */
  highestSaleProduct: z.union([
    z.object({ name: z.string(), category: z.string(), totalQuantity: z.number().int() }),
    z.object({ message: z.string() }),
  ]),
  /** Products whose stock and what is on order are at or below their reorder point. */
  toReorder: z.number().int(),
  /** DESIGN §15: lots holding units that expire within 30 days (expired ones too), value at cost. */
  expiringSoon: z.object({ count: z.number().int(), value: z.number() }),
  lowStock: z.array(
    z.object({ _id: z.string(), name: z.string(), stock: z.number().int(), category: CategoryName }),
  ),
  /** With ?location= (DESIGN §17): the location the figures are of, and what it holds at cost. */
  location: Named.optional(),
  stockValue: z.object({ products: z.number().int(), units: z.number().int(), value: z.number() }).optional(),
});
export type DashboardResponse = z.infer<typeof DashboardResponse>;
