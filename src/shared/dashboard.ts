import { z } from 'zod';
import { Ok } from './common';

const CategoryName = z.object({ name: z.string() });

export const DashboardResponse = Ok.extend({
  totalProducts: z.number().int(),
  totalStock: z.number().int(),
  ordersToday: z.number().int(),
  revenue: z.number(),
  outOfStock: z.array(z.object({ _id: z.string(), name: z.string(), category: CategoryName })),
  highestSaleProduct: z.union([
    z.object({ name: z.string(), category: z.string(), totalQuantity: z.number().int() }),
    z.object({ message: z.string() }),
  ]),
  /** Products whose stock and what is on order are at or below their reorder point. */
  toReorder: z.number().int(),
  lowStock: z.array(
    z.object({ _id: z.string(), name: z.string(), stock: z.number().int(), category: CategoryName }),
  ),
});
export type DashboardResponse = z.infer<typeof DashboardResponse>;
