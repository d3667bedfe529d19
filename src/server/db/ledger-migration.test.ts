import { rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrationsBefore } from '../test/migrations-before';
import { databaseFunctions } from './connection';

describe('a database from before the stock ledger', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('migrates with an opening movement per product equal to its stock, and the ledger holds from then on', async () => {
    const before = migrationsBefore('0010_stock_ledger');
    dirs.push(before);
    const client = new PGlite({ extensions: { pg_trgm } });
    const db = drizzle({ client });
    try {
      await migrate(db, { migrationsFolder: before });
      const [category] = (
        await client.query<{ id: string }>("insert into categories (name) values ('Old') returning id")
      ).rows;
      const [supplier] = (
        await client.query<{ id: string }>("insert into suppliers (name) values ('Old') returning id")
      ).rows;
      await client.query(
        `insert into products (name, price, stock, category_id, supplier_id)
         select 'Old product ' || n, 1, n * 3, $1, $2 from generate_series(0, 4) n`,
        [category?.id, supplier?.id],
      );

      await migrate(db, { migrationsFolder: MIGRATIONS });
      // Then every function's current body, as each start applies them (decision 0026).
      for (const { text } of databaseFunctions()) await client.exec(text);

      const openings = (
        await client.query<{ stock: number; quantity: number; stock_after: number; kind: string }>(
          `select p.stock, m.quantity, m.stock_after, m.kind
           from products p join stock_movements m on m.product_id = p.id order by p.stock`,
        )
      ).rows;
      expect(openings).toEqual(
        [0, 3, 6, 9, 12].map((stock) => ({ stock, quantity: stock, stock_after: stock, kind: 'initial' })),
      );
      // From now on stock moves only with the ledger.
      const [product] = (await client.query<{ id: string }>('select id from products where stock = 9')).rows;
      await client.query(
        "insert into stock_movements (product_id, kind, quantity, reason) values ($1, 'adjustment', -4, 'lost')",
        [product?.id],
      );
      const [after] = (
        await client.query<{ stock: number; ledger: number }>(
          `select stock, (select sum(quantity)::int from stock_movements where product_id = $1) as ledger
           from products where id = $1`,
          [product?.id],
        )
      ).rows;
      expect(after).toEqual({ stock: 5, ledger: 5 });
      await expect(
        client.query('update products set stock = 1 where id = $1', [product?.id]),
      ).rejects.toThrow(/only through stock movements/);
    } finally {
      await client.close();
    }
  });
});

describe('a database from before the kept daily figures', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('migrates with every order counted on its day, net of returns, and keeps counting', async () => {
    const before = migrationsBefore('0013_sales_days');
    dirs.push(before);
    const client = new PGlite({ extensions: { pg_trgm } });
    const db = drizzle({ client });
    const q = async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows;
    try {
      await migrate(db, { migrationsFolder: before });
      const [category] = await q<{ id: string }>("insert into categories (name) values ('Old') returning id");
      const [supplier] = await q<{ id: string }>("insert into suppliers (name) values ('Old') returning id");
      const [user] = await q<{ id: string }>(
        "insert into users (name, email, password_hash, role) values ('Old rep', 'old@rep.test', 'x', 'salesRep') returning id",
      );
      const products = await q<{ id: string; name: string }>(
        `insert into products (name, price, cost, stock, category_id, supplier_id)
         values ('Sold', 4, 1.5, 50, $1, $2), ('Below cost', 2, 3, 50, $1, $2), ('Unsold', 9, 1, 50, $1, $2)
         returning id, name`,
        [category?.id, supplier?.id],
      );
      const id = (name: string) => products.find((p) => p.name === name)?.id;
      // Three orders on two days (one partly returned, one wholly), as an older server wrote them.
      await q(
        `insert into orders (user_id, product_id, quantity, returned_quantity, status, unit_price, unit_cost,
                             total_price, product_name, category_name, user_name, user_address, order_date)
         values ($1, $2, 5, 2, 'placed', 4, 1.5, 20, 'Sold', 'Old', 'Old rep', '', '2024-05-01T10:00:00Z'),
                ($1, $3, 2, 0, 'placed', 2, 3, 4, 'Below cost', 'Old', 'Old rep', '', '2024-05-02T23:59:00Z'),
                ($1, $2, 1, 1, 'returned', 4, 1.5, 4, 'Sold', 'Old', 'Old rep', '', '2024-05-02T08:00:00Z')`,
        [user?.id, id('Sold'), id('Below cost')],
      );

      await migrate(db, { migrationsFolder: MIGRATIONS });

      expect(await q('select time_zone from report_settings')).toEqual([{ time_zone: 'UTC' }]);
      // The dashboard's revenue, recounted net of returns.
      expect(
        await q('select sum(orders)::int as orders, sum(revenue)::text as revenue from order_totals'),
      ).toEqual([{ orders: 3, revenue: '16.00' }]);
      expect(
        await q(
          `select day::text, sum(orders)::int as orders, sum(units)::int as units, sum(revenue)::text as revenue,
                  sum(cost)::text as cost from sales_days group by day order by day`,
        ),
      ).toEqual([
        { day: '2024-05-01', orders: 1, units: 3, revenue: '12.00', cost: '4.50' },
        { day: '2024-05-02', orders: 1, units: 2, revenue: '4.00', cost: '6.00' },
      ]);
      expect(
        await q(
          `select p.name, s.units, s.revenue::text, s.margin_up::text, s.last_day::text
           from product_sales s join products p on p.id = s.product_id order by p.name`,
        ),
      ).toEqual([
        { name: 'Below cost', units: 2, revenue: '4.00', margin_up: '0.00', last_day: '2024-05-02' },
        { name: 'Sold', units: 3, revenue: '12.00', margin_up: '7.50', last_day: '2024-05-01' },
        { name: 'Unsold', units: 0, revenue: '0.00', margin_up: '0.00', last_day: null },
      ]);
      expect(
        await q('select category_name, units, revenue::text from sales_day_categories order by day'),
      ).toEqual([
        { category_name: 'Old', units: 3, revenue: '12.00' },
        { category_name: 'Old', units: 2, revenue: '4.00' },
      ]);
      expect(await q('select user_id, orders, units from sales_day_staff order by day')).toEqual([
        { user_id: user?.id, orders: 1, units: 3 },
        { user_id: user?.id, orders: 1, units: 2 },
      ]);
      // From now on the triggers keep them.
      await q(
        `insert into orders (user_id, product_id, quantity, unit_price, unit_cost, total_price, product_name,
                             category_name, user_name, user_address, order_date)
         values ($1, $2, 1, 9, 1, 9, 'Unsold', 'Old', 'Old rep', '', '2024-05-03T12:00:00Z')`,
        [user?.id, id('Unsold')],
      );
      expect(
        await q('select units, revenue::text, last_day::text from product_sales where product_id = $1', [
          id('Unsold'),
        ]),
      ).toEqual([{ units: 1, revenue: '9.00', last_day: '2024-05-03' }]);
    } finally {
      await client.close();
    }
  });
});
