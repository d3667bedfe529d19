import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomerReportResponse } from '../../../shared/reports';
import { fixtures, nth } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';

/**
 * sales_day_customers beside a recount of the orders: the rows that differ (none when kept right).
 * A kept row whose figures all went back to zero (a deleted customer's) counts as absent.
 */
const DRIFT = `
  with counted as (
    select (order_date at time zone (select time_zone from report_settings))::date as day, customer_id,
           count(distinct sale_id)::int as sales, sum(quantity - returned_quantity)::int as units,
           sum((total_price - tax) - (returned_total - returned_tax)) as revenue
    from orders where customer_name is not null group by 1, 2
  ), kept as (select day, customer_id, sales, units, revenue from sales_day_customers
               where sales <> 0 or units <> 0 or revenue <> 0)
  select * from (select * from counted except select * from kept) a
  union all select * from (select * from kept except select * from counted) b`;

describe.each(targets)('the customers report on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  const { sold, customer } = fixtures(() => t);
  const sell = (customerId: string | undefined, lines: { productId: string; quantity: number }[]) =>
    sold(t.as.salesRep, { lines, ...(customerId ? { customer: customerId } : {}) });
  const report = async (query = '') =>
    t.call('GET', `/api/reports/customers${query}`, { token: t.as.admin.token });

  it('ranks customers by revenue net of returns, counts each sale once, keeps deleted ones together', async () => {
    const a = await t.product({ stock: 100, price: 0.1 });
    const b = await t.product({ stock: 100, price: 2.5 });
    const big = (await customer({ name: 'Big Spender' }, t.as.user))._id;
    const small = (await customer({ name: 'Small Spender' }, t.as.user))._id;
    const gone = (await customer({ name: 'Gone Spender' }, t.as.user))._id;
    // Big: two sales, 3 × 0.10 + 4 × 2.50 = 10.30, then 2 × 0.10 = 0.20; 1 unit of b comes back.
    const first = await sell(big, [
      { productId: a.id, quantity: 3 },
      { productId: b.id, quantity: 4 },
    ]);
    await sell(big, [{ productId: a.id, quantity: 2 }]);
    const back = await t.call('POST', `/api/order/${nth(first.lines, 1).order._id}/return`, {
      token: t.as.admin.token,
      body: { quantity: 1 },
    });
    expect(back.status).toBe(200);
    await sell(small, [{ productId: b.id, quantity: 1 }]);
    await sell(gone, [{ productId: b.id, quantity: 2 }]);
    await sell(undefined, [{ productId: b.id, quantity: 9 }]);
    expect(await t.sql(DRIFT)).toEqual([]);
    await t.call('DELETE', `/api/customers/${gone}`, { token: t.as.admin.token });
    expect(await t.sql(DRIFT)).toEqual([]);

    const res = await report();
    expect(res.status).toBe(200);
    expect(parsed(res, CustomerReportResponse).customers).toEqual([
      { customer: { _id: big, name: 'Big Spender' }, sales: 2, units: 8, revenue: 8 },
      { customer: null, sales: 1, units: 2, revenue: 5 },
      { customer: { _id: small, name: 'Small Spender' }, sales: 1, units: 1, revenue: 2.5 },
    ]);
    expect(parsed(await report('?limit=1'), CustomerReportResponse).customers).toHaveLength(1);
    // A range without these sales lists no one.
    expect(parsed(await report('?from=2020-01-01&to=2020-01-31'), CustomerReportResponse).customers).toEqual(
      [],
    );
    expect((await report('?limit=0')).status).toBe(400);
    expect((await report('?from=2024-02-01&to=2024-01-01')).status).toBe(400);
    // The CSV: one row per customer, the deleted ones named.
    const csv = await report('?format=csv');
    expect(csv.text.trim().split('\r\n')).toEqual([
      '"customer id","name","sales","units","revenue"',
      `"${big}","Big Spender",2,8,8`,
      '"","Customers since deleted",1,2,5',
      `"${small}","Small Spender",1,1,2.5`,
    ]);
    // A recount in another zone gives the same figures.
    await t.sql("update report_settings set time_zone = 'Asia/Tokyo'");
    await t.sql('select sales_days_rebuild()');
    expect(await t.sql(DRIFT)).toEqual([]);
    await t.sql("update report_settings set time_zone = 'UTC'");
    await t.sql('select sales_days_rebuild()');
    expect(await t.sql(DRIFT)).toEqual([]);
  });
});
