import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardResponse } from '../../shared/dashboard';
import { centsText, refundDue, toCents } from '../../shared/money';
import { OrderResponse } from '../../shared/orders';
import { SalesReportResponse } from '../../shared/reports';
import { parsed, startApp, type TestApp, targets } from '../test/harness';
import { setReportTimeZone } from './report-time-zone';
import { seedDemo } from './seed';

/**
 * Each order's worth, net of returns, on its day and month in the zone the figures count in
 * (migrations 0013 and 0014), its money as DESIGN §12 counts it: revenue (and the tax report's base)
 * is what the customer paid less its tax, less what returns gave back less their tax; tax is what
 * is kept of it; a line's discount less the share its returned units took with them
 * (returned_discount), so none once every unit came back.
 * Under its rate's snapshot, '' and 0 when it had none.
 */
const WORTH = `
  select (order_date at time zone (select time_zone from report_settings))::date as day,
         date_trunc('month', order_date at time zone (select time_zone from report_settings))::date as month,
         product_id, category_name, user_id, (status = 'placed')::int as orders,
         coalesce(tax_rate_name, '') as rate_name, coalesce(tax_rate, 0) as rate,
         quantity - returned_quantity as units, (total_price - returned_total) - (tax - returned_tax) as revenue,
         (total_price - returned_total) - (tax - returned_tax) as base,
         (quantity - returned_quantity) * coalesce(unit_cost, 0) as cost,
         greatest(0, (total_price - returned_total) - (tax - returned_tax)
                     - (quantity - returned_quantity) * coalesce(unit_cost, 0)) as margin_up,
         discount - returned_discount as discount,
         tax - returned_tax as tax
  from orders`;

/** Each order's worth in the two pairs of months that hold its month: starting then, and a month before. */
const WORTH_IN_TWO_MONTHS = `
  select w.*, f.first_month
  from (${WORTH}) w cross join lateral (values (w.month), ((w.month - interval '1 month')::date)) f(first_month)`;

/**
 * The rows of a kept daily table (summed over its slots) that differ from a recount of the orders:
 * `keys` are key expressions valid on both, `figures` the columns compared. Rows whose figures are
 * all zero (every order of it came back, or moved away) count as absent on both sides.
 */
function drift(table: string, keys: string[], figures: string[], where = 'true', worth = WORTH): string {
  const named = keys.map((key, i) => `${key} as k${i}`).join(', ');
  const grouped = keys.map((_, i) => `k${i}`).join(', ');
  const sums = figures.map((f) => `sum(${f}) as ${f}`).join(', ');
  const nonzero = figures.map((f) => `${f} <> 0`).join(' or ');
  const tuple = (side: string) => `(${figures.map((f) => `${side}.${f}`).join(', ')})`;
  return `
    with kept as (select ${grouped}, ${sums} from (select ${named}, ${figures.join(', ')} from ${table}) t
                  group by ${grouped}),
         counted as (select ${grouped}, ${sums}
                     from (select ${named}, ${figures.join(', ')} from (${worth}) w where ${where}) t
                     group by ${grouped})
    select '${table}' as kept_in, k.*, c.*
    from (select * from kept where ${nonzero}) k full join (select * from counted where ${nonzero}) c using (${grouped})
    where ${tuple('k')} is distinct from ${tuple('c')}`;
}

/**
 * Revenue, order count and units per product are kept by triggers; they must match the orders,
 * net of returns. Stock must match the ledger.
 */
describe.each(targets)('pre-aggregated sales figures on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  async function figures() {
    const [kept] = await t.sql<{ orders: string; revenue: string }>(
      'select coalesce(sum(orders), 0)::text as orders, coalesce(sum(revenue), 0)::text as revenue from order_totals',
    );
    // What the kept figures count an order worth: its net kept (DESIGN §12), total − tax less
    // what returns gave back net of their tax.
    const [counted] = await t.sql<{ orders: string; revenue: string }>(
      `select count(*)::text as orders,
              coalesce(sum(total_price - tax - returned_total + returned_tax), 0)::text as revenue from orders`,
    );
    const mismatched = await t.sql(
      `select p.id from products p
       left join product_sales s on s.product_id = p.id
       left join (select product_id, sum(quantity - returned_quantity)::int as units from orders group by product_id) o
         on o.product_id = p.id
       where coalesce(s.units, 0) <> coalesce(o.units, 0)`,
    );
    const [productsKept] = await t.sql(
      'select sum(products)::int as products, sum(stock)::int as stock from product_totals',
    );
    const [productsCounted] = await t.sql(
      'select count(*)::int as products, coalesce(sum(stock), 0)::int as stock from products',
    );
    expect(productsKept).toEqual(productsCounted);
    // Per category: products, units in stock and their value (DESIGN §19: the stock's value).
    const categoryStock = await t.sql(
      `select coalesce(k.category_id, c.category_id) as category_id, k.products, c.products as counted
       from (select category_id, sum(products)::int as products, sum(units)::bigint as units, sum(value) as value
             from category_stock group by category_id) k
       full join (select category_id, count(*)::int as products, sum(stock)::bigint as units,
                         sum(stock_value) as value
                  from products group by category_id) c on c.category_id = k.category_id
       where (k.products, k.units, k.value) is distinct from (coalesce(c.products, 0), coalesce(c.units, 0),
                                                              coalesce(c.value, 0))`,
    );
    expect(categoryStock).toEqual([]);
    // Orders per quarter of an hour: every quarter's kept count equals its orders.
    const quarters = await t.sql(
      `select coalesce(k.quarter, c.quarter) as quarter, k.orders as kept, c.orders as counted
       from (select quarter, sum(orders)::int as orders from order_quarters group by quarter having sum(orders) <> 0) k
       full join (select date_bin('15 minutes', order_date, timestamptz '2000-01-01 00:00:00+00') as quarter,
                         count(*)::int as orders from orders group by 1) c on c.quarter = k.quarter
       where k.orders is distinct from c.orders`,
    );
    expect(quarters).toEqual([]);
    // Stock and name per product, for lists in stock order, and the copies the dashboard and the
    // reorder suggestions read (the reorder point in force on the store's threshold, 5).
    const stockRows = await t.sql(
      `select coalesce(p.id, s.product_id) as id from products p full join product_stock s on s.product_id = p.id
       where p.id is null or s.product_id is null
          or (s.stock, s.name_key, s.name, s.reorder_point, s.reorder_at, s.category_id, s.supplier_id, s.cost,
              s.reorder_quantity)
             is distinct from (p.stock, lower(p.name), p.name, p.reorder_point, coalesce(p.reorder_point, 5),
                               p.category_id, p.supplier_id, p.cost, p.reorder_quantity)`,
    );
    expect(stockRows).toEqual([]);
    // The products to reorder, counted in product_totals' slots.
    const [toReorder] = await t.sql<{ kept: number; counted: number }>(
      `select (select sum(to_reorder)::int from product_totals) as kept,
              (select count(*)::int from product_stock where stock + on_order <= reorder_at) as counted`,
    );
    expect(toReorder?.kept).toBe(toReorder?.counted);
    // On order per product, kept by triggers, equals a recount of the open purchase order lines.
    const onOrder = await t.sql(
      `select s.product_id from product_stock s
       left join (select l.product_id, sum(l.quantity - l.received)::int as units
                  from purchase_order_lines l join purchase_orders o on o.id = l.purchase_order_id
                  where o.status in ('ordered', 'partially_received') group by l.product_id) l
         on l.product_id = s.product_id
       where s.on_order <> coalesce(l.units, 0)`,
    );
    expect(onOrder).toEqual([]);
    // Every product's stock is the sum of its movements, none of which left it below zero.
    // What each order's returned units took of its money, tax and discount follows the one rule of
    // returns (refundDue), whoever wrote them: the API's returns and refunds, the demo's seeds.
    const returned = await t.sql<Record<string, string | number>>(
      `select quantity, returned_quantity, total_price::text as total_price, returned_total::text as returned_total,
              tax::text as tax, returned_tax::text as returned_tax, discount::text as discount,
              returned_discount::text as returned_discount
       from orders where returned_quantity > 0`,
    );
    for (const order of returned) {
      const share = (money: string | number | undefined) =>
        centsText(
          refundDue(toCents(String(money)), Number(order.quantity), Number(order.returned_quantity), 0n),
        );
      expect([order.returned_total, order.returned_tax, order.returned_discount]).toEqual([
        share(order.total_price),
        share(order.tax),
        share(order.discount),
      ]);
    }
    const unexplained = await t.sql(
      `select p.id from products p left join (select product_id, sum(quantity) as total from stock_movements
                                              group by product_id) m on m.product_id = p.id
       where p.stock <> coalesce(m.total, 0)`,
    );
    expect(unexplained).toEqual([]);
    expect(await t.sql('select 1 from stock_movements where stock_after < 0')).toEqual([]);
    // The daily figures of the reports, each equal to a recount of the orders.
    const money = ['orders', 'units', 'revenue', 'cost'];
    expect(await t.sql(drift('sales_days', ['day'], [...money, 'discount', 'tax']))).toEqual([]);
    // The tax report's figures (DESIGN §12): the net and the tax of each day and rate.
    expect(await t.sql(drift('sales_day_taxes', ['day', 'rate_name', 'rate'], ['base', 'tax']))).toEqual([]);
    // The sales of each day (migration 0020): each sale once, each order without a sale once.
    const salesByDay = await t.sql(
      `with kept as (select day, sum(sales)::int as sales from sales_days group by day having sum(sales) <> 0),
            counted as (select (order_date at time zone (select time_zone from report_settings))::date as day,
                               (count(distinct sale_id) + count(*) filter (where sale_id is null))::int as sales
                        from orders group by 1)
       select coalesce(k.day, c.day) as day, k.sales as kept, c.sales as counted
       from kept k full join counted c on c.day = k.day where k.sales is distinct from c.sales`,
    );
    expect(salesByDay).toEqual([]);
    expect(
      await t.sql(
        drift('sales_day_products', ['day', 'product_id'], money, 'product_id in (select id from products)'),
      ),
    ).toEqual([]);
    expect(
      await t.sql(drift('sales_day_categories', ['day', 'category_name'], ['units', 'revenue', 'cost'])),
    ).toEqual([]);
    expect(
      await t.sql(drift('sales_day_staff', ['day', "coalesce(user_id::text, 'removed')"], money)),
    ).toEqual([]);
    // The same by month (migration 0014), and each product's two months running.
    expect(
      await t.sql(drift('sales_month_categories', ['month', 'category_name'], ['units', 'revenue', 'cost'])),
    ).toEqual([]);
    expect(
      await t.sql(drift('sales_month_staff', ['month', "coalesce(user_id::text, 'removed')"], money)),
    ).toEqual([]);
    expect(
      await t.sql(
        drift(
          'sales_two_month_products',
          ['first_month', 'product_id'],
          ['units', 'revenue', 'margin_up'],
          'product_id in (select id from products)',
          WORTH_IN_TWO_MONTHS,
        ),
      ),
    ).toEqual([]);
    // Every product has its product_sales row, with its revenue, positive margins and last day
    // with a sale; no row outlives its product.
    const salesRows = await t.sql(
      `select coalesce(p.id, s.product_id) as id, s.revenue, c.revenue as counted_revenue
       from products p full join product_sales s on s.product_id = p.id
       left join (select product_id, sum(revenue) as revenue, max(day) filter (where units > 0) as last_day
                  from (select product_id, day, sum(units) as units, sum(revenue) as revenue, sum(cost) as cost
                        from (${WORTH}) w where product_id is not null group by product_id, day) d
                  group by product_id) c on c.product_id = p.id
       where p.id is null or s.product_id is null
          or s.revenue <> coalesce(c.revenue, 0) or s.last_day is distinct from c.last_day`,
    );
    expect(salesRows).toEqual([]);
    const marginUp = await t.sql(
      `select s.product_id from product_sales s
       left join (select product_id, sum(greatest(0, revenue - cost)) as margin_up from (${WORTH}) w
                  group by product_id) c on c.product_id = s.product_id
       where s.margin_up <> coalesce(c.margin_up, 0)`,
    );
    expect(marginUp).toEqual([]);
    return { kept, counted, mismatched: mismatched.length };
  }

  it('match the orders after a bulk insert of a whole demo store', async () => {
    await seedDemo(t.app.database);
    const { kept, counted, mismatched } = await figures();
    expect(Number(counted?.orders)).toBeGreaterThan(1000);
    expect(kept).toEqual(counted);
    expect(mismatched).toBe(0);
    // The demo's history: sale movements for every order (one per lot it took from, for the
    // medicines sold by lot), some returns, adjustments.
    const kinds = await t.sql<{ kind: string; n: number }>(
      `select kind, (case when kind = 'sale' then count(distinct order_id) else count(*) end)::int as n
       from stock_movements group by kind order by kind`,
    );
    const byKind = Object.fromEntries(kinds.map((row) => [row.kind, row.n]));
    expect(byKind.sale).toBe(Number(counted?.orders));
    expect(byKind.return).toBeGreaterThan(0);
    expect(byKind.adjustment).toBeGreaterThan(0);
    expect(byKind.initial).toBeGreaterThanOrEqual(300);
    // Purchasing: received orders brought units in by receipts naming them; some are still open.
    expect(byKind.receipt).toBeGreaterThan(10);
    const statuses = await t.sql<{ status: string }>(
      'select distinct status from purchase_orders order by status',
    );
    expect(statuses.map((row) => row.status)).toEqual([
      'cancelled',
      'draft',
      'ordered',
      'partially_received',
      'received',
    ]);
    const unreceived = await t.sql(
      `select l.id from purchase_order_lines l
       left join (select purchase_order_id, product_id, sum(quantity)::int as units from stock_movements
                  where kind = 'receipt' group by 1, 2) m
         on m.purchase_order_id = l.purchase_order_id and m.product_id = l.product_id
       where coalesce(m.units, 0) <> l.received`,
    );
    expect(unreceived).toEqual([]);
    const [costed] = await t.sql<{ n: number }>(
      'select count(*)::int as n from orders where unit_cost is null',
    );
    expect(costed?.n).toBe(0);
    const dashboard = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
    expect(parsed(dashboard, DashboardResponse).toReorder).toBeGreaterThan(5);
  });

  it('match the orders after returns through the API', async () => {
    const { id } = await t.product({ stock: 50, price: 1.1 });
    const placed = await t.call('POST', '/api/order/add', {
      token: t.as.user.token,
      body: { productId: id, quantity: 7 },
    });
    for (const quantity of [2, 5])
      await t.call('POST', `/api/order/${parsed(placed, OrderResponse).order._id}/return`, {
        token: t.as.admin.token,
        body: { quantity },
      });
    const { kept, counted, mismatched } = await figures();
    expect(kept).toEqual(counted);
    expect(mismatched).toBe(0);
    const [sales] = await t.sql<{ units: number }>('select units from product_sales where product_id = $1', [
      id,
    ]);
    expect(sales?.units).toBe(0);
  });

  it('match the orders after orders through the API and a deleted order', async () => {
    const { id } = await t.product({ stock: 100, price: 3.35 });
    for (const quantity of [1, 2, 3]) {
      await t.call('POST', '/api/order/add', { token: t.as.user.token, body: { productId: id, quantity } });
    }
    await t.sql(
      'delete from orders where id = (select id from orders where product_id = $1 and quantity = 2)',
      [id],
    );
    const { kept, counted, mismatched } = await figures();
    expect(kept).toEqual(counted);
    expect(mismatched).toBe(0);
    const [sales] = await t.sql<{ units: number }>('select units from product_sales where product_id = $1', [
      id,
    ]);
    expect(sales?.units).toBe(4);
  });

  it('follow orders whose date changes, and ignore updates that keep the date', async () => {
    const { id } = await t.product({ stock: 100 });
    for (const quantity of [1, 2]) {
      await t.call('POST', '/api/order/add', { token: t.as.user.token, body: { productId: id, quantity } });
    }
    const ordersToday = async () =>
      parsed(await t.call('GET', '/api/dashboard', { token: t.as.admin.token }), DashboardResponse)
        .ordersToday;
    const before = await ordersToday();
    await t.sql("update orders set order_date = order_date - interval '3 days' where product_id = $1", [id]);
    expect(await ordersToday()).toBe(before - 2);
    await t.sql("update orders set user_name = 'Renamed' where product_id = $1", [id]);
    await t.call('DELETE', `/api/products/${id}`, { token: t.as.admin.token });
    expect(await ordersToday()).toBe(before - 2);
    await figures();
  });

  it('keep the daily figures through a deleted user, a moved order, a deleted product and a new time zone', async () => {
    const { id, supplierId } = await t.product({ stock: 100, price: 2.5 });
    const { id: other, categoryId: otherCategory } = await t.product({ stock: 100, price: 7 });
    await t.setCost(other, 3);
    const leaving = await t.account('medicalRep');
    const orderOf = async (token: string, productId: string, quantity: number) =>
      parsed(await t.call('POST', '/api/order/add', { token, body: { productId, quantity } }), OrderResponse)
        .order._id;
    const first = await orderOf(leaving.token, id, 4);
    await orderOf(leaving.token, other, 2);
    const kept = await orderOf(t.as.salesRep.token, other, 3);
    await t.call('POST', `/api/order/${first}/return`, { token: t.as.admin.token, body: { quantity: 1 } });
    await t.call('DELETE', `/api/users/${leaving.id}`, { token: t.as.admin.token });
    await figures();
    // A product moved to another category with a new cost: the stock's value by category follows.
    const moved = await t.call('PUT', `/api/products/${id}`, {
      token: t.as.admin.token,
      body: {
        name: 'Moved',
        description: '',
        price: 2.5,
        stock: 96,
        cost: 1.25,
        category: otherCategory,
        supplier: supplierId,
      },
    });
    expect(moved.status, moved.text).toBe(200);
    await figures();
    await t.sql("update orders set order_date = '2022-02-28T23:45:00Z' where id in ($1, $2)", [first, kept]);
    await figures();
    await t.call('DELETE', `/api/products/${other}`, { token: t.as.admin.token });
    await figures();
    // UTC+14: the orders just before midnight move to the next day.
    expect(await setReportTimeZone(t.app.database, 'Pacific/Kiritimati')).toBe(true);
    const [day] = await t.sql<{ day: string }>(
      'select day::text as day from sales_day_products where product_id = $1 and units > 0',
      [id],
    );
    expect(day?.day).toBe('2022-03-01');
    await figures();
    await orderOf(t.as.user.token, id, 1);
    await figures();
    expect(await setReportTimeZone(t.app.database, 'UTC')).toBe(true);
    await figures();
  });

  it('match the orders with discounts, tax by rate and partial returns, through a moved date, a deleted line and new time zones', async () => {
    // Written directly: the sale of DESIGN §12 is the counter's; these are the rows it writes.
    const { id } = await t.product({ stock: 100, price: 10 });
    await t.setCost(id, 3);
    const lines = async (
      at: string,
      rows: Array<
        [
          quantity: number,
          total: string,
          discount: string,
          tax: string,
          name: string | null,
          rate: string | null,
        ]
      >,
    ) =>
      (
        await t.sql<{ id: string }>(
          `insert into orders (product_id, quantity, unit_price, unit_cost, total_price, discount, tax, tax_rate_name,
                               tax_rate, product_name, category_name, user_name, user_address, order_date)
           select p.id, l.quantity, p.price, p.cost, l.total, l.discount, l.tax, l.name, l.rate, p.name, c.name,
                  'Counter', '', $2::timestamptz
           from products p join categories c on c.id = p.category_id,
                jsonb_to_recordset($3::jsonb) as l(quantity int, total numeric, discount numeric, tax numeric,
                                                   name text, rate numeric)
           where p.id = $1 returning id`,
          [
            id,
            at,
            JSON.stringify(
              rows.map(([quantity, total, discount, tax, name, rate]) => ({
                quantity,
                total,
                discount,
                tax,
                name,
                rate,
              })),
            ),
          ],
        )
      ).map((row) => row.id);
    /** Brings the units returned to `returned`, giving back the money pro rata (DESIGN §12). */
    const returned = (orderId: string, units: number) =>
      t.sql(
        `update orders set returned_quantity = $2::int,
                returned_total = round(total_price * $2::int / quantity, 2), returned_tax = round(tax * $2::int / quantity, 2),
                returned_discount = round(discount * $2::int / quantity, 2),
                status = case when $2::int = quantity then 'returned' else 'placed' end
         where id = $1`,
        [orderId, units],
      );
    // One sale of three lines in one statement: 9 % on prices without tax, 8.875 % with it, none.
    const [a, b, c] = await lines('2023-03-10T12:00:00Z', [
      [3, '29.43', '3.00', '2.43', 'Standard', '9'],
      [2, '20.00', '0', '1.63', 'NYC', '8.875'],
      [1, '9.50', '0.50', '0', null, null],
    ]);
    const [d] = await lines('2023-03-10T23:30:00Z', [[4, '39.24', '4.00', '3.24', 'Standard', '9']]);
    await lines('2023-03-11T09:00:00Z', [[1, '10.00', '0', '0', 'Exempt', '0']]);
    await figures();
    await returned(a as string, 1);
    await returned(d as string, 1);
    await figures();
    // UTC+9: the late evening sale moves to the next day, and so does its tax.
    expect(await setReportTimeZone(t.app.database, 'Asia/Tokyo')).toBe(true);
    await figures();
    const [moved] = await t.sql<{ base: string; tax: string }>(
      `select base::text as base, tax::text as tax from sales_day_taxes
       where day = '2023-03-11' and rate_name = 'Standard' and rate = 9`,
    );
    expect(moved).toEqual({ base: '27.00', tax: '2.43' });
    // Wholly returned: its discount no longer counts; a line deleted takes all it counted away.
    await returned(d as string, 4);
    await returned(b as string, 2);
    await t.sql('delete from orders where id = $1', [c]);
    await t.sql("update orders set order_date = order_date - interval '40 days' where id = $1", [a]);
    await figures();
    const [day] = await t.sql<{ discount: string; tax: string }>(
      `select sum(discount)::text as discount, sum(tax)::text as tax from sales_days where day = '2023-03-11'`,
    );
    expect(day).toEqual({ discount: '0.00', tax: '0.00' });
    expect(await setReportTimeZone(t.app.database, 'UTC')).toBe(true);
    await figures();
  });

  it('leave stock out of every index of products, so an order updates its row in place', async () => {
    const indexed = await t.sql<{ name: string }>(
      `select i.indexrelid::regclass::text as name from pg_index i
       where i.indrelid = 'products'::regclass
         and ((select attnum from pg_attribute where attrelid = 'products'::regclass and attname = 'stock')
                = any(i.indkey::int2[])
              or coalesce(pg_get_expr(i.indexprs, i.indrelid), '') ~ 'stock'
              or coalesce(pg_get_expr(i.indpred, i.indrelid), '') ~ 'stock')`,
    );
    expect(indexed).toEqual([]);
    const [table] = await t.sql<{ options: string[] }>(
      "select reloptions as options from pg_class where oid = 'products'::regclass",
    );
    expect(table?.options).toContain('fillfactor=90');
  });

  it('count products and their stock through adds, edits, orders and deletes', async () => {
    const { id, categoryId, supplierId } = await t.product({ stock: 40 });
    await t.call('POST', '/api/order/add', { token: t.as.user.token, body: { productId: id, quantity: 7 } });
    await t.call('PUT', `/api/products/${id}`, {
      token: t.as.admin.token,
      body: {
        name: 'Edited',
        description: '',
        price: 2,
        stock: 90,
        category: categoryId,
        supplier: supplierId,
      },
    });
    await t.call('DELETE', `/api/products/${id}`, { token: t.as.admin.token });
    await figures();
    const res = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
    const [counted] = await t.sql<{ n: number; stock: number }>(
      'select count(*)::int as n, coalesce(sum(stock), 0)::int as stock from products',
    );
    expect(parsed(res, DashboardResponse).totalProducts).toBe(counted?.n);
    expect(parsed(res, DashboardResponse).totalStock).toBe(counted?.stock);
  });

  it('the dashboard reads them: revenue and the best seller', async () => {
    const { id } = await t.product({ name: 'Best seller of all', stock: 100_000, price: 0.5 });
    await t.call('POST', '/api/order/add', {
      token: t.as.salesRep.token,
      body: { productId: id, quantity: 50_000 },
    });
    const res = await t.call('GET', '/api/dashboard', { token: t.as.admin.token });
    const [counted] = await t.sql<{ revenue: string }>(
      'select sum(total_price - tax - returned_total + returned_tax)::text as revenue from orders',
    );
    expect(parsed(res, DashboardResponse).revenue).toBe(Number(counted?.revenue));
    expect(parsed(res, DashboardResponse).highestSaleProduct).toMatchObject({
      name: 'Best seller of all',
      totalQuantity: 50_000,
    });
  });
});

describe.each(targets)('kept sales figures at the largest amounts on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  it('hold orders at the highest price and the largest quantity: no kept total overflows, and they still match', async () => {
    const price = 999_999_999.99;
    const { id } = await t.product({ stock: 2_000_000_000, price });
    await t.setCost(id, 1);
    // 101 orders of 999 units pass 10^14 in every daily, monthly and per-product running total.
    for (let i = 0; i < 101; i++) {
      const res = await t.call('POST', '/api/order/add', {
        token: t.as.user.token,
        body: { productId: id, quantity: 999 },
      });
      expect(res.status, `order ${i}: ${res.text}`).toBe(201);
    }
    // The most one order can be: the highest price times the largest quantity.
    const biggest = await t.call('POST', '/api/order/add', {
      token: t.as.user.token,
      body: { productId: id, quantity: 1_000_000 },
    });
    expect(biggest.status, biggest.text).toBe(201);
    const [sum] = await t.sql<{ revenue: string }>(
      'select sum(total_price)::text as revenue from orders where product_id = $1',
      [id],
    );
    const cents = 99_999_999_999n * (999n * 101n + 1_000_000n);
    expect(sum?.revenue).toBe(`${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`);
    const [kept] = await t.sql<{ revenue: string }>(
      'select revenue::text as revenue from product_sales where product_id = $1',
      [id],
    );
    expect(kept?.revenue).toBe(sum?.revenue);
    const money = ['orders', 'units', 'revenue', 'cost'];
    expect(await t.sql(drift('sales_days', ['day'], money))).toEqual([]);
    expect(await t.sql(drift('sales_day_products', ['day', 'product_id'], money))).toEqual([]);
    expect(
      await t.sql(drift('sales_month_staff', ['month', "coalesce(user_id::text, 'removed')"], money)),
    ).toEqual([]);
    const report = await t.call('GET', '/api/reports/sales?groupBy=month', { token: t.as.admin.token });
    expect(report.status, report.text).toBe(200);
    expect(parsed(report, SalesReportResponse).totals.revenue).toBeGreaterThanOrEqual(1.1e15);
  });
});
