import type { Database } from '../src/server/db/connection';
import { hashPassword } from '../src/server/lib/passwords';

export const DATA_SET = {
  categories: 200,
  suppliers: 500,
  products: 100_000,
  users: 200,
  orders: 1_000_000,
  days: 365,
} as const;

export const BENCH_PASSWORD = 'bench-password';

/**
 * A number from 0 to n-1 that depends only on (i, salt): the data set is the same on every run
 * and every database, whatever plan the database picks.
 */
const pick = (expr: string, salt: string, n: number) => `(abs(hashtext(${expr}::text || '${salt}')) % ${n})`;
/** A deterministic uuid for row i of a table. */
const uid = (prefix: string, expr: string) => `md5('${prefix}' || ${expr})::uuid`;

/** Fills an empty, migrated database with the benchmark data set and answers the seconds each part took. */
export async function loadData(
  database: Database,
  size: { products: number; orders: number } = DATA_SET,
): Promise<Record<string, number>> {
  const timings: Record<string, number> = {};
  const time = async (label: string, sql: string, params: unknown[] = []) => {
    const started = performance.now();
    await database.query(sql, params);
    timings[label] = (performance.now() - started) / 1000;
  };
  const { categories, suppliers, users, days } = DATA_SET;
  const hash = await hashPassword(BENCH_PASSWORD);

  await time(
    'categories',
    `insert into categories (id, name, description)
     select ${uid('c', 'i')}, 'Category ' || lpad(i::text, 3, '0'), 'Benchmark category ' || i
     from generate_series(1, ${categories}) i`,
  );
  await time(
    'suppliers',
    `insert into suppliers (id, name, email, phone, address)
     select ${uid('s', 'i')}, 'Supplier ' || lpad(i::text, 3, '0'), 'supplier' || i || '@bench.example',
            '+1 555 ' || lpad(i::text, 4, '0'), i || ' Supply Road'
     from generate_series(1, ${suppliers}) i`,
  );
  // Roles: user 1 is the superAdmin, 2–10 admins, the rest split between the three ordering roles.
  await time(
    'users',
    `insert into users (id, name, email, password_hash, address, role)
     select ${uid('u', 'i')}, 'Bench User ' || i, 'user' || i || '@bench.example', $1, i || ' Staff Street',
            case when i = 1 then 'superAdmin' when i <= 10 then 'admin'
                 else (array['user','salesRep','medicalRep'])[1 + i % 3] end
     from generate_series(1, ${users}) i`,
    [hash],
  );
  const words = `(array['Vitamin','Bandage','Syrup','Tablet','Cream','Spray','Drops','Gel','Powder','Capsule',
                       'Lotion','Balm','Wipes','Mask','Glove','Monitor','Strip','Tea','Oil','Patch'])`;
  await time(
    'products',
    `insert into products (id, name, description, price, stock, category_id, supplier_id)
     select ${uid('p', 'i')},
            ${words}[1 + ${pick('i', 'w1', 20)}] || ' ' || ${words}[1 + ${pick('i', 'w2', 20)}] || ' ' || lpad(i::text, 6, '0'),
            'Benchmark product ' || i,
            (1 + ${pick('i', 'price', 20000)}) / 100.0,
            case when ${pick('i', 'zero', 50)} = 0 then 0 else ${pick('i', 'stock', 500)} end,
            ${uid('c', `(1 + ${pick('i', 'cat', categories)})`)},
            ${uid('s', `(1 + ${pick('i', 'sup', suppliers)})`)}
     from generate_series(1, ${size.products}) i`,
  );
  // Orders reference existing users and products and copy their snapshot, like real ones.
  await time(
    'orders',
    `insert into orders (user_id, product_id, quantity, unit_price, total_price, product_name, category_name,
                         user_name, user_address, order_date)
     select u.id, p.id, o.quantity, p.price, p.price * o.quantity, p.name, c.name, u.name, u.address, o.order_date
     from (
       select i,
              ${uid('u', `(11 + ${pick('i', 'buyer', users - 10)})`)} as user_id,
              ${uid('p', `(1 + ${pick('i', 'product', size.products)})`)} as product_id,
              1 + ${pick('i', 'qty', 5)} as quantity,
              now() - make_interval(secs => ${pick('i', 'when', days * 86400)}) as order_date
       from generate_series(1, ${size.orders}) i
     ) o
     join users u on u.id = o.user_id
     join products p on p.id = o.product_id
     join categories c on c.id = p.category_id`,
  );
  // What autovacuum does for a live store: planner statistics and the visibility map that lets
  // index-only scans skip the table.
  const vacuumStarted = performance.now();
  await database.query('vacuum analyze');
  timings['vacuum analyze'] = (performance.now() - vacuumStarted) / 1000;
  return timings;
}
