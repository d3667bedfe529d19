import { rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrationsBefore } from '../test/migrations-before';
import { databaseFunctions } from './connection';

describe('a database whose kept discount counted a line whole until its last unit came back', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('migrates to the discount net of returns, pro rata, on every day it was kept', async () => {
    const before = migrationsBefore('0028_discount_net_of_returns');
    dirs.push(before);
    const client = new PGlite({ extensions: { pg_trgm } });
    const q = async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows;
    try {
      // An older server: its functions counted a line's whole discount while any unit of it stayed.
      await migrate(drizzle({ client }), { migrationsFolder: before });
      for (const { name, text } of databaseFunctions()) {
        // Bodies of a later migration (0029, locations; 0036, the books) name tables this schema has not yet: the
        // older server had the bodies its own migrations made. Before 0035 a product's value was
        // its stock × cost.
        if (text.includes('location') || /journal|account/.test(text)) continue;
        const older = text
          .replace(/\(?discount - returned_discount\)?/g, '(returned_quantity < quantity)::int * discount')
          .replace(/, [no]\.stock_value/g, '')
          .replace(/stock_value/g, 'stock * coalesce(cost, 0)')
          // Before 0037 an order cost (quantity − returned) × unit cost.
          .replace(/order_cost\([^)]*\)/g, '(quantity - returned_quantity) * coalesce(unit_cost, 0)');
        if (name === 'products_opening_value' || name === 'order_cost') continue;
        if (name === 'orders_figures_counted' || name === 'sales_days_rebuild')
          expect(older, name).not.toBe(text);
        await client.exec(older);
      }
      const [product] = await q<{ id: string }>(
        `with c as (insert into categories (name) values ('Old') returning id),
              s as (insert into suppliers (name) values ('Old') returning id)
         insert into products (name, price, stock, category_id, supplier_id)
         select 'Old widget', 22.53, 100, c.id, s.id from c, s returning id`,
      );
      // Lines on two days: 13.52 off 3 units (1 back), 3.00 off 3 units (2 back), 4.00 off 4 (all
      // back), 0.50 off 1 (none back).
      await q(
        `insert into orders (product_id, quantity, unit_price, total_price, discount, tax, product_name,
                             category_name, user_name, user_address, order_date)
         select $1, l.quantity, 22.53, l.total, l.discount, 0, 'Old widget', 'Old', 'Rep', '', l.at::timestamptz
         from (values (3, 54.07, 13.52, '2025-03-10T10:00:00Z'), (3, 64.59, 3.00, '2025-03-10T11:00:00Z'),
                      (4, 86.12, 4.00, '2025-03-11T10:00:00Z'), (1, 22.03, 0.50, '2025-03-11T11:00:00Z'))
              as l(quantity, total, discount, at)`,
        [product?.id],
      );
      await q(
        `update orders set returned_quantity = r.back, returned_total = round(total_price * r.back / quantity, 2),
                status = case when r.back = quantity then 'returned' else 'placed' end
         from (values (13.52, 1), (3.00, 2), (4.00, 4)) as r(discount, back) where orders.discount = r.discount`,
      );
      const kept = () =>
        q<{ day: string; discount: string }>(
          `select day::text as day, sum(discount)::text as discount from sales_days group by day order by day`,
        );
      expect(await kept()).toEqual([
        { day: '2025-03-10', discount: '16.52' },
        { day: '2025-03-11', discount: '0.50' },
      ]);

      await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS });
      // Then every function's current body, as each start applies them (decision 0026).
      for (const { text } of databaseFunctions()) await client.exec(text);

      // Each returned unit took its share: round(13.52 × 1/3), round(3.00 × 2/3), all of 4.00.
      expect(
        await q(
          'select discount::text as discount, returned_discount::text as back from orders order by orders.discount',
        ),
      ).toEqual([
        { discount: '0.50', back: '0.00' },
        { discount: '3.00', back: '2.00' },
        { discount: '4.00', back: '4.00' },
        { discount: '13.52', back: '4.51' },
      ]);
      // 13.52 − 4.51 = 9.01 and 3.00 − 2.00 = 1.00 kept on the first day; the whole return none.
      expect(await kept()).toEqual([
        { day: '2025-03-10', discount: '10.01' },
        { day: '2025-03-11', discount: '0.50' },
      ]);
      // And the trigger keeps it so from here: the 13.52 line's second unit comes back (4.51 of it stays).
      await q(
        `update orders set returned_quantity = 2, returned_total = round(total_price * 2 / quantity, 2),
                           returned_discount = round(discount * 2 / quantity, 2)
         where discount = 13.52`,
      );
      expect((await kept())[0]).toEqual({ day: '2025-03-10', discount: '5.51' });
    } finally {
      await client.close();
    }
    // Two runs of the migrations on the embedded database: slow on a busy machine.
  }, 120_000);
});
