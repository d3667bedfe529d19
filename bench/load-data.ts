import type { Database } from '../src/server/db/connection';
import { hashPassword } from '../src/server/lib/passwords';
import { bulkLoadMovementsInsert } from '../src/server/modules/stock/movements';

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
 * The data set's locations (DESIGN §17): `Main store` (the default, made by migration 0029) and
 * these two, with fixed ids. Every product's stock is split over the three: the stockroom and the
 * second shop each hold a third (rounded down), the main store the rest; three orders in ten left
 * from the second shop, the others from the main store. The scenarios' sellers stay at the main
 * store (the default), so what they prepare there is what they sell.
 */
export const BENCH_LOCATIONS = {
  stockroom: { id: '00000000-0000-4000-8000-0000000b0001', name: 'Stockroom', kind: 'stockroom' },
  shop: { id: '00000000-0000-4000-8000-0000000b0002', name: 'Second shop', kind: 'store' },
} as const;

/**
 * A number from 0 to n-1 that depends only on (i, salt): the data set is the same on every run
 * and every database, whatever plan the database picks.
 */
const pick = (expr: string, salt: string, n: number) => `(abs(hashtext(${expr}::text || '${salt}')) % ${n})`;
/** A deterministic uuid for row i of a table. */
const uid = (prefix: string, expr: string) => `md5('${prefix}' || ${expr})::uuid`;

/** The i-th product's SKU and barcode (an in-store EAN-13 range, 20…), as the counter scans them. */
export const benchSku = (expr: string) => `'SKU-' || lpad(${expr}::text, 6, '0')`;
export const benchBarcode = (expr: string) => `'20' || lpad(${expr}::text, 11, '0')`;

/**
 * Fills an empty, migrated database with the benchmark data set and answers the seconds each part
 * took. The ledger holds (DESIGN §8): every product's stock is the sum of its movements, one
 * opening movement per product and one sale movement per order.
 */
export async function loadData(
  database: Database,
  size: { products: number; orders: number } = DATA_SET,
): Promise<Record<string, number>> {
  const timings: Record<string, number> = {};
  const time = async (label: string, sql: string, params: unknown[] = []) => {
    const started = performance.now();
    await database.query(sql, params);
    timings[label] = (timings[label] ?? 0) + (performance.now() - started) / 1000;
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
  const { stockroom, shop } = BENCH_LOCATIONS;
  await time(
    'locations',
    `insert into locations (id, name, kind, address)
     values ($1, $2, $3, '1 Back Lane'), ($4, $5, $6, '2 High Street')`,
    [stockroom.id, stockroom.name, stockroom.kind, shop.id, shop.name, shop.kind],
  );
  // Users past the scenarios' own (11–20 sell, and the first salesRep by email, user100, buys
  // by direct SQL): every other one from 101 on sells at the second shop, some at the stockroom.
  await time(
    'users',
    `update users set location_id = case when n % 2 = 0 then $1::uuid when n % 5 = 1 then $2::uuid end
     from (select i as n, ${uid('u', 'i')} as id from generate_series(101, ${users}) i) u
     where users.id = u.id`,
    [shop.id, stockroom.id],
  );
  // Each location's share of a product's final stock, by k (1 main store, 2 stockroom, 3 shop).
  const places = `(select 1 as k, default_location() as location_id
                   union all select 2, '${stockroom.id}'::uuid union all select 3, '${shop.id}'::uuid)`;
  const share = (stock: string) => `case w.k when 1 then ${stock} - 2 * (${stock} / 3) else ${stock} / 3 end`;
  const words = `(array['Vitamin','Bandage','Syrup','Tablet','Cream','Spray','Drops','Gel','Powder','Capsule',
                       'Lotion','Balm','Wipes','Mask','Glove','Monitor','Strip','Tea','Oil','Patch'])`;

  // Products, orders and their movements are written in bulk with two of the ledger's triggers
  // disabled, something only this loader may do, on a database nobody else uses yet (the app
  // never does: every change of stock goes through a movement that the trigger applies):
  // - products_opening_movement would give each product an opening movement of the stock loaded
  //   here, which is its final stock, not the stock it had before its orders;
  // - stock_movements_apply would update a product row for each of the million sale movements.
  // The movements are computed in SQL instead (see 'movements' below, written through
  // bulkLoadMovementsInsert, the ledger writer's one way in that sets stock_after) and checked afterwards
  // (checkLedger). The triggers are enabled again before anything else uses the database, also
  // when loading fails.
  // - location_stock_from_ledger would refuse the stock written at each location here, which the
  //   trigger above would otherwise have written (the loaded data set has no lots yet, so no
  //   lot_stock: the lot scenarios make their lots through the ledger).
  await database.query('alter table products disable trigger products_opening_movement');
  await database.query('alter table stock_movements disable trigger stock_movements_apply');
  await database.query('alter table location_stock disable trigger location_stock_from_ledger');
  // The books (DESIGN §19) are written in bulk too, each entry as its event would have posted it
  // (see 'books' below): the movements' posting trigger would post each opening movement one by
  // one at commit, and the journal's would check each entry at commit and count each line.
  for (const [table, trigger] of BOOKS_TRIGGERS)
    await database.query(`alter table ${table} disable trigger ${trigger}`);
  try {
    await time(
      'products',
      // Bought at 60 % of the price; half the products have their own reorder point (5–30),
      // a quarter of those a fixed reorder quantity; the rest follow the store's threshold.
      `insert into products (id, name, description, price, stock, category_id, supplier_id,
                             cost, reorder_point, reorder_quantity, sku, barcode)
       select id, name, description, price, stock, category_id, supplier_id, round(price * 0.6, 2),
              case when ${pick('n', 'rp', 2)} = 0 then 5 + ${pick('n', 'rpv', 26)} end,
              case when ${pick('n', 'rp', 2)} = 0 and ${pick('n', 'rq', 4)} = 0 then 24 end,
              ${benchSku('n')}, ${benchBarcode('n')}
       from (
         select i as n, ${uid('p', 'i')} as id,
                ${words}[1 + ${pick('i', 'w1', 20)}] || ' ' || ${words}[1 + ${pick('i', 'w2', 20)}] || ' ' || lpad(i::text, 6, '0') as name,
                'Benchmark product ' || i as description,
                (1 + ${pick('i', 'price', 20000)}) / 100.0 as price,
                case when ${pick('i', 'zero', 50)} = 0 then 0 else ${pick('i', 'stock', 500)} end as stock,
                ${uid('c', `(1 + ${pick('i', 'cat', categories)})`)} as category_id,
                ${uid('s', `(1 + ${pick('i', 'sup', suppliers)})`)} as supplier_id
         from generate_series(1, ${size.products}) i
       ) p`,
    );
    // Orders reference existing users and products and copy their snapshot, like real ones.
    await time(
      'location stock',
      `insert into location_stock (product_id, location_id, stock, stock_value)
       select p.id, w.location_id, ${share('p.stock')}, round(${share('p.stock')} * p.cost, 2)
       from products p cross join ${places} w`,
    );
    await time(
      'orders',
      `insert into orders (user_id, product_id, quantity, unit_price, unit_cost, total_price, product_name,
                           category_name, user_name, user_address, order_date, location_id)
       select u.id, p.id, o.quantity, p.price, p.cost, p.price * o.quantity, p.name, c.name, u.name, u.address,
              o.order_date, case when ${pick('o.i', 'loc', 10)} < 3 then '${shop.id}'::uuid else default_location() end
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
    // The ledger as if every order had gone through the app. Every unit is worth the product's
    // cost (DESIGN §19: an average that never moves), so each value is the sum of its movements'. Products keep the stock loaded
    // above, as their final stock (some sold out, some low), split over the locations. Each
    // (product, location) gets one opening movement of its share plus the units its orders took
    // from there (the main store's always, so every product has one), dated before the first
    // order; each order gets its sale movement at its location, dated like it, whose stock_after
    // is the location's running balance in order-date order: opening − units sold there so far,
    // never below its final share, so never below zero.
    await time(
      'movements',
      bulkLoadMovementsInsert({
        values: {
          product_id: 'ls.product_id',
          kind: "'initial'",
          quantity: 'ls.stock + coalesce(s.units, 0)',
          note: "'Opening balance'",
          at: `now() - make_interval(days => ${days + 1})`,
          location_id: 'ls.location_id',
          value: 'round((ls.stock + coalesce(s.units, 0)) * p.cost, 2)',
        },
        stockAfter: 'ls.stock + coalesce(s.units, 0)',
        from: `location_stock ls
       join products p on p.id = ls.product_id
       left join (select product_id, location_id, sum(quantity)::int as units from orders
                  group by product_id, location_id) s
         on s.product_id = ls.product_id and s.location_id = ls.location_id`,
        where: 'ls.location_id = default_location() or ls.stock + coalesce(s.units, 0) <> 0',
      }),
    );
    await time(
      'movements',
      bulkLoadMovementsInsert({
        values: {
          product_id: 'o.product_id',
          kind: "'sale'",
          quantity: '-o.quantity',
          user_id: 'o.user_id',
          user_name: 'o.user_name',
          order_id: 'o.id',
          at: 'o.order_date',
          location_id: 'o.location_id',
          value: '-round(o.quantity * o.unit_cost, 2)',
        },
        stockAfter: `ls.stock + sum(o.quantity) over (partition by o.product_id, o.location_id)
                      - sum(o.quantity) over (partition by o.product_id, o.location_id order by o.order_date, o.id
                                              rows between unbounded preceding and current row)`,
        from: 'orders o join location_stock ls on ls.product_id = o.product_id and ls.location_id = o.location_id',
      }),
    );
    // The books as if every event had posted its entry (post_movement.sql, post_history.sql's
    // lone order): each opening movement 1300 at its location against 3000; each order 1050 (paid
    // to the safe: it names no till) against 4000 at its location and 2200 for its tax, and 5000
    // against 1300 for the value its movement took. An entry takes its source's id, so its lines
    // are read straight from the source. The kept day totals are summed from the lines, spread over
    // the eight slots live posting writes in (counter_slot), and the books begin before the first
    // event, so the first start posts no opening entry (openBooks). checkLedger proves them.
    const account = (key: string) => `(select id from accounts where system = '${key}')`;
    await time(
      'books',
      `insert into journal_entries (id, date, created_at, memo, source_kind, source_id, user_id, user_name)
       select id, store_day(at), at, memo, kind, id, user_id, user_name from (
         select m.id, m.at, 'Opening balance' as memo, 'movement' as kind, null::uuid as user_id, null as user_name
         from stock_movements m where m.kind = 'initial' and m.value <> 0
         union all
         select o.id, o.order_date, 'Order', 'sale', o.user_id, o.user_name from orders o
       ) e order by at, id`,
    );
    await time(
      'books',
      `insert into journal_lines (entry_id, n, account_id, debit, credit, location_id, tax_rate)
       select m.id, 1, ${account('inventory')}, m.value, 0, m.location_id, null
         from stock_movements m where m.kind = 'initial' and m.value <> 0
       union all
       select m.id, 2, ${account('openingEquity')}, 0, m.value, null, null
         from stock_movements m where m.kind = 'initial' and m.value <> 0
       union all
       select o.id, 1, ${account('safe')}, o.total_price, 0, null, null from orders o where o.total_price > 0
       union all
       select o.id, 2, ${account('sales')}, 0, o.total_price - o.tax, o.location_id, null
         from orders o where o.total_price - o.tax > 0
       union all
       select o.id, 3, ${account('taxPayable')}, 0, o.tax, null, o.tax_rate_name from orders o where o.tax > 0
       union all
       select m.order_id, 4, ${account('cogs')}, -m.value, 0, m.location_id, null
         from stock_movements m where m.kind = 'sale' and m.value < 0
       union all
       select m.order_id, 5, ${account('inventory')}, 0, -m.value, m.location_id, null
         from stock_movements m where m.kind = 'sale' and m.value < 0`,
    );
    await time(
      'books',
      `insert into journal_movements (movement_id, entry_id)
       select id, coalesce(order_id, id) from stock_movements
       where (kind = 'initial' and value <> 0) or (kind = 'sale' and order_id is not null)`,
    );
    await time(
      'books',
      `insert into account_days (account_id, day, slot, debit, credit)
       select l.account_id, e.date, (abs(hashtext(e.id::text)) % 8)::smallint, sum(l.debit), sum(l.credit)
       from journal_lines l join journal_entries e on e.id = l.entry_id
       group by 1, 2, 3`,
    );
    await database.query(
      'update accounting_settings set books_began_at = (select min(at) from stock_movements)',
    );
  } finally {
    for (const [table, trigger] of BOOKS_TRIGGERS)
      await database.query(`alter table ${table} enable trigger ${trigger}`);
    await database.query('alter table location_stock enable trigger location_stock_from_ledger');
    await database.query('alter table stock_movements enable trigger stock_movements_apply');
    await database.query('alter table products enable trigger products_opening_movement');
  }
  // What autovacuum does for a live store: planner statistics and the visibility map that lets
  // index-only scans skip the table.
  const vacuumStarted = performance.now();
  await database.query('vacuum analyze');
  timings['vacuum analyze'] = (performance.now() - vacuumStarted) / 1000;
  return timings;
}

/** The books' triggers the loader turns off while it writes the books in bulk (see loadData). */
const BOOKS_TRIGGERS = [
  ['stock_movements', 'stock_movements_posted'],
  ['journal_entries', 'journal_entries_balanced'],
  ['journal_entries', 'journal_entries_unlocked'],
  ['journal_lines', 'journal_lines_counted'],
] as const;

export interface LedgerCheck {
  products: number;
  movements: number;
  initial: number;
  sales: number;
  orders: number;
  /** Products whose stock ≠ the sum of their movements. */
  mismatches: number;
  /**
   * (product, location) pairs whose stock ≠ the sum of their movements there, products whose
   * stock ≠ the sum over their locations, and (lot, location) pairs likewise (DESIGN §17).
   */
  locationMismatches: number;
  /** Products without an opening movement, or with two at one location. */
  withoutOneInitial: number;
  /**
   * Orders without their sale movements: one of their quantity, or, for a lot-tracked product
   * (DESIGN §15), one per lot it took from, adding up to it.
   */
  ordersWithoutSale: number;
  /** Movements whose stock_after is below zero. */
  negative: number;
  /** Ledger triggers still disabled. */
  disabledTriggers: number;
  /** DESIGN §19: entries that do not balance, orders without their sale's (or their own) entry. */
  unbalancedEntries: number;
  ordersUnposted: number;
  /** Accounts whose kept day totals ≠ the sum of their lines; 1300 ≠ the stock's value (cents). */
  accountDaysOff: number;
  inventoryOff: string;
}

/** Whether the database holds the ledger's invariant: for every product, stock = sum of its movements. */
export async function checkLedger(database: Database): Promise<LedgerCheck> {
  const [row] = await database.query<LedgerCheck>(
    `with ledger as (
       select product_id, sum(quantity)::bigint as total, count(*) filter (where kind = 'initial') as initial
       from stock_movements group by product_id
     ), placed as (
       select product_id, location_id, sum(quantity)::bigint as total, count(*) filter (where kind = 'initial') as initial
       from stock_movements group by product_id, location_id
     ), lotted as (
       select lot_id, location_id, sum(quantity)::bigint as total
       from stock_movements where lot_id is not null group by lot_id, location_id
     ), sales as (
       select order_id, count(*) as n, count(distinct lot_id) as lots, sum(quantity) as quantity
       from stock_movements where kind = 'sale' group by order_id
     )
     select (select count(*)::int from products) as products,
            (select count(*)::int from stock_movements) as movements,
            (select count(*)::int from stock_movements where kind = 'initial') as initial,
            (select count(*)::int from stock_movements where kind = 'sale') as sales,
            (select count(*)::int from orders) as orders,
            (select count(*)::int from products p left join ledger l on l.product_id = p.id
              where p.stock <> coalesce(l.total, 0)) as mismatches,
            (select count(*)::int from placed m full join location_stock s
               on s.product_id = m.product_id and s.location_id = m.location_id
              where coalesce(s.stock, 0) <> coalesce(m.total, 0))
            + (select count(*)::int from products p
               where p.stock <> (select coalesce(sum(s.stock), 0) from location_stock s where s.product_id = p.id))
            + (select count(*)::int from lotted m full join lot_stock s
               on s.lot_id = m.lot_id and s.location_id = m.location_id
              where coalesce(s.quantity, 0) <> coalesce(m.total, 0)) as "locationMismatches",
            (select count(*)::int from products p left join ledger l on l.product_id = p.id
              where coalesce(l.initial, 0) = 0)
            + (select count(*)::int from placed where initial > 1) as "withoutOneInitial",
            (select count(*)::int from orders o left join sales s on s.order_id = o.id
              where s.n is null or s.quantity <> -o.quantity or (s.n > 1 and s.lots <> s.n)) as "ordersWithoutSale",
            (select count(*)::int from stock_movements where stock_after < 0) as negative,
            (select count(*)::int from pg_trigger
              where tgname in ('stock_movements_apply', 'products_opening_movement', 'products_stock_from_ledger',
                               'location_stock_from_ledger')
                and tgenabled = 'D')
            + (select count(*)::int from pg_trigger
              where tgname in (${BOOKS_TRIGGERS.map(([, trigger]) => `'${trigger}'`).join(', ')})
                and tgenabled = 'D') as "disabledTriggers",
            (select count(*)::int from (select entry_id from journal_lines group by entry_id
                                        having sum(debit) <> sum(credit)) u) as "unbalancedEntries",
            (select count(*)::int from orders o where not exists
               (select 1 from journal_entries j where j.source_kind = 'sale' and j.source_id = coalesce(o.sale_id, o.id)))
              as "ordersUnposted",
            (select count(*)::int from (select account_id, sum(debit) as d, sum(credit) as c from account_days group by 1) k
               full join (select account_id, sum(debit) as d, sum(credit) as c from journal_lines group by 1) l
                 using (account_id)
              where k.d is distinct from l.d or k.c is distinct from l.c) as "accountDaysOff",
            ((select coalesce(sum(debit - credit), 0) from journal_lines
               where account_id = (select id from accounts where system = 'inventory'))
             - (select coalesce(sum(stock_value), 0) from location_stock))::text as "inventoryOff"`,
  );
  return row as LedgerCheck;
}

/** The problems a ledger check found, in words; empty when there are none. */
export function ledgerProblems(check: LedgerCheck): string[] {
  return [
    check.mismatches && `${check.mismatches} products whose stock ≠ the sum of their movements`,
    check.locationMismatches &&
      `${check.locationMismatches} locations or lots whose stock ≠ the sum of their movements there`,
    check.withoutOneInitial &&
      `${check.withoutOneInitial} products without one opening movement per location`,
    check.ordersWithoutSale && `${check.ordersWithoutSale} orders without their sale movement`,
    check.negative && `${check.negative} movements with stock_after below zero`,
    check.disabledTriggers && `${check.disabledTriggers} ledger triggers left disabled`,
    check.unbalancedEntries && `${check.unbalancedEntries} journal entries that do not balance`,
    check.ordersUnposted && `${check.ordersUnposted} orders without their entry`,
    check.accountDaysOff && `${check.accountDaysOff} accounts whose kept day totals ≠ their lines`,
    Number(check.inventoryOff) !== 0 && `inventory account ${check.inventoryOff} off the stock's value`,
  ].filter((problem): problem is string => typeof problem === 'string');
}
