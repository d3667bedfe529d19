import type { CustomerReportResponse } from '../../../shared/reports';
import { type Runner, statement } from '../../db/connection';
import type { Range } from './reports.repository';

/**
 * The customers who spent most in the range, from the kept daily figures (sales_day_customers,
 * kept by orders_figures_counted.sql), best first; the sales of customers since deleted are one row without a
 * customer. $1 from, $2 to, $3 how many.
 */
const CUSTOMERS = statement(
  'reports_customers',
  `select c.id, c.name, s.sales::int as sales, s.units::int as units, s.revenue::text as revenue
   from (select customer_id, sum(sales) as sales, sum(units) as units, sum(revenue) as revenue
         from sales_day_customers where day between $1::date and $2::date
         group by customer_id having sum(units) > 0) s
   left join customers c on c.id = s.customer_id
   order by s.revenue desc, c.name nulls last, c.id
   limit $3`,
);

export async function customerReport(
  db: Runner,
  range: Range,
  limit: number,
): Promise<CustomerReportResponse['customers']> {
  const rows = await db.run<{
    id: string | null;
    name: string | null;
    sales: number;
    units: number;
    revenue: string;
  }>(CUSTOMERS, [range.from, range.to, limit]);
  return rows.map((row) => ({
    customer: row.id ? { _id: row.id, name: row.name as string } : null,
    sales: row.sales,
    units: row.units,
    revenue: Number(row.revenue),
  }));
}
