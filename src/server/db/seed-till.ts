import { centsText, refundDue, toCents } from '../../shared/money';
import { refundNumberLabel } from '../../shared/till';
import { recordMovements } from '../modules/stock/movements';
import { drawerHolds } from '../modules/till/till.repository';
import type { Runner } from './connection';

type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;
type Person = { id: string; name: string };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The demo's till (DESIGN §13): "Till 1" worked the last four days, each day a session opened
 * with a float of 150.00 and closed at night with the drawer counted a little over or short; a
 * second till "Till 2" stands by; today's session is open. The counter sales of those hours
 * belong to their session; a few were paid part cash, part card; the payouts and change drawn
 * are cash movements; three sales were refunded at the counter, to cash, to card and to store
 * credit; one customer holds store credit from a goodwill adjustment.
 */
export async function seedTill(
  database: Runner,
  seed: { now: Date; admin: Person | undefined; seller: Person; random: () => number },
): Promise<void> {
  const q: Query = database.query.bind(database);
  const { now, random } = seed;
  const admin = seed.admin ?? seed.seller;
  const [till] = await q<{ id: string; name: string }>(
    `select id, name from registers where name = 'Till 1'`,
  );
  if (!till) throw new Error('Till 1 exists from the start');
  await q(`insert into registers (name) values ('Till 2') on conflict do nothing`);

  // Four closed days, then today's open session: [opened, closed | null, counted over/short].
  // A day's session runs 8:55 to 19:05 in the store's time zone (the reports' zone).
  const [zone] = await q<{ morning: Date }>(
    `select (date_trunc('day', $1::timestamptz at time zone time_zone) + interval '8 hours 55 minutes')
              at time zone time_zone as morning
     from report_settings`,
    [now.toISOString()],
  );
  const morning = new Date(zone?.morning ?? now.getTime() - 3 * HOUR);
  const days: Array<{ opened: Date; closed: Date | null; over: string; user: Person }> = [];
  for (let back = 4; back >= 1; back -= 1) {
    const opened = new Date(morning.getTime() - back * DAY);
    days.push({
      opened,
      closed: new Date(opened.getTime() + 10 * HOUR + 10 * 60_000),
      over: ['-0.50', '0.00', '1.00', '-2.35'][4 - back] as string,
      user: back % 2 === 0 ? admin : seed.seller,
    });
  }
  // Today's is open since this morning, or, before the store's morning, since a little before the
  // last hour's sales.
  const today = morning.getTime() < now.getTime() - 2 * HOUR ? morning : new Date(now.getTime() - 2 * HOUR);
  days.push({ opened: today, closed: null, over: '0.00', user: seed.seller });

  const sessions: Array<{ id: string; number: number; opened: Date; closed: Date | null }> = [];
  for (const day of days) {
    const [session] = await q<{ id: string; number: string | number }>(
      // A past day is closed at once (one open session per register); its count is written below.
      `insert into register_sessions (register_id, opened_by_id, opened_by_name, opened_at, opening_float,
                                      status, closed_at, counted_cash, expected_cash)
       values ($1, $2, $3, $4, 150.00, $5, $6, $7, $7) returning id, number`,
      [
        till.id,
        day.user.id,
        day.user.name,
        day.opened.toISOString(),
        day.closed ? 'closed' : 'open',
        day.closed?.toISOString() ?? null,
        day.closed ? '0' : null,
      ],
    );
    if (!session) throw new Error('a session is written');
    sessions.push({ id: session.id, number: Number(session.number), opened: day.opened, closed: day.closed });
    // The counter sales of its hours were sold in it (the lone orders of the first version were not).
    await q(
      `update sales set session_id = $1
       where created_at >= $2 and created_at < coalesce($3::timestamptz, 'infinity')`,
      [session.id, day.opened.toISOString(), day.closed?.toISOString() ?? null],
    );
    await audit(q, day.user, 'opened', session.id, `${till.name} #${session.number}`, day.opened, [
      { field: 'openingFloat', new: 150 },
    ]);
  }

  // A few sales of the sessions paid part by card, the rest in cash with change.
  const splits = await q<{ id: string; total: string }>(
    `select id, total::text as total from sales
     where session_id is not null and total >= 12 and payment_method in ('cash', 'card')
     order by created_at limit 3`,
  );
  for (const sale of splits) {
    const total = toCents(sale.total);
    const card = (total / 2n / 100n) * 100n; // half, to the dollar, on the card
    const owed = total - card;
    const handed = ((owed + 499n) / 500n) * 500n; // cash handed over, rounded up to 5.00
    await q('delete from sale_payments where sale_id = $1', [sale.id]);
    await q(
      `insert into sale_payments (sale_id, n, method, amount, tendered)
       values ($1, 1, 'card', $2, null), ($1, 2, 'cash', $3, $4)`,
      [sale.id, centsText(card), centsText(owed), centsText(handed)],
    );
    await q(`update sales set payment_method = 'split', tendered = $2, change = $3 where id = $1`, [
      sale.id,
      centsText(handed),
      centsText(handed - owed),
    ]);
  }

  // Each session takes some cash: the demo's random sales may leave a day's hours to cards alone
  // (the refund to cash and the drawer's counts need it), so its latest card sale was paid in cash.
  const cashless = await q<{ id: string }>(
    `select (select x.id from sales x where x.session_id = s.id and x.payment_method = 'card'
              order by x.created_at desc limit 1) as id
       from register_sessions s
      where not exists (select 1 from sales x where x.session_id = s.id and x.payment_method = 'cash')`,
  );
  for (const sale of cashless) {
    if (!sale.id) continue;
    await q(`update sale_payments set method = 'cash', tendered = amount where sale_id = $1`, [sale.id]);
    await q(`update sales set payment_method = 'cash', tendered = total, change = 0 where id = $1`, [
      sale.id,
    ]);
  }

  // Cash movements: change drawn from the bank one morning, a window cleaner paid another day.
  const movements: Array<{ session: number; amount: string; reason: string }> = [
    { session: 0, amount: '50.00', reason: 'Change drawn from the bank' },
    { session: 2, amount: '-12.50', reason: 'Window cleaner' },
    { session: 4, amount: '-8.00', reason: 'Milk for the staff room' },
  ];
  for (const movement of movements) {
    const session = sessions[movement.session];
    if (!session) continue;
    const at = new Date(session.opened.getTime() + (0.5 + random()) * HOUR);
    await q(
      `insert into cash_movements (session_id, amount, reason, user_id, user_name, at) values ($1, $2, $3, $4, $5, $6)`,
      [session.id, movement.amount, movement.reason, admin.id, admin.name, at.toISOString()],
    );
    await audit(q, admin, 'cashMoved', session.id, `${till.name} #${session.number}`, at, [
      { field: 'amount', new: Number(movement.amount) },
      { field: 'reason', new: movement.reason },
    ]);
  }

  // Refunds at the counter: a line back to cash (today, out of the open drawer), one to the card
  // it was paid with, and one to the customer's store credit, written off as damaged.
  const refundable = await q<{
    sale_id: string;
    sale_number: string | number;
    session_id: string | null;
    method: string;
    customer_id: string | null;
    customer_name: string | null;
    order_id: string;
    product_id: string | null;
    product_name: string;
    quantity: number;
    total_price: string;
    tax: string;
    discount: string;
    tax_rate_name: string | null;
    tax_rate: string | null;
    created_at: Date;
  }>(
    `select s.id as sale_id, s.number as sale_number, s.session_id, s.payment_method as method, s.customer_id,
            s.customer_name, o.id as order_id, o.product_id, o.product_name, o.quantity,
            o.total_price::text as total_price, o.tax::text as tax, o.discount::text as discount, o.tax_rate_name,
            o.tax_rate::text as tax_rate,
            s.created_at
     from sales s join orders o on o.sale_id = s.id and o.sale_line = 1
     where s.session_id is not null and o.returned_quantity = 0 and o.product_id is not null
     order by s.created_at desc`,
  );
  const open = sessions[sessions.length - 1];
  // Three different sales: the cash one out of today's drawer when it can, then a card one, then
  // one of a named customer (to their credit).
  type Refundable = (typeof refundable)[number];
  const choices: (Refundable | undefined)[] = [];
  const pick = (...tests: ((row: Refundable) => boolean)[]) => {
    const free = refundable.filter((one) => !choices.some((chosen) => chosen?.sale_id === one.sale_id));
    choices.push(tests.map((test) => free.find(test)).find((row) => row !== undefined));
  };
  pick(
    (row) => row.method === 'cash' && row.session_id === open?.id,
    (row) => row.method === 'cash',
  );
  pick((row) => row.method === 'card');
  pick((row) => row.customer_id !== null && row.method !== 'split');
  const kinds = ['cash', 'card', 'storeCredit'] as const;
  const taken = new Set<string>();
  for (const [at, row] of choices.entries()) {
    if (!row || taken.has(row.order_id)) continue;
    taken.add(row.order_id);
    const method = kinds[at] as (typeof kinds)[number];
    const restock = method !== 'storeCredit';
    const quantity = 1;
    const amount = refundDue(toCents(row.total_price), row.quantity, quantity, 0n);
    const tax = refundDue(toCents(row.tax), row.quantity, quantity, 0n);
    const discount = refundDue(toCents(row.discount), row.quantity, quantity, 0n);
    const when = new Date(Math.min(now.getTime() - 10 * 60_000, new Date(row.created_at).getTime() + HOUR));
    // A cash refund comes out of the drawer of the session it was given in.
    const session =
      method === 'cash'
        ? (sessions.find((s) => s.opened <= when && (s.closed === null || when < s.closed)) ?? open)
        : null;
    const [refund] = await q<{ id: string; number: string | number }>(
      `insert into refunds (sale_id, sale_number, session_id, method, restock, reason, total, tax,
                            customer_id, customer_name, user_id, user_name, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning id, number`,
      [
        row.sale_id,
        row.sale_number,
        session?.id ?? null,
        method,
        restock,
        restock ? 'Changed their mind' : 'Arrived damaged',
        centsText(amount),
        centsText(tax),
        row.customer_id,
        row.customer_name,
        seed.seller.id,
        seed.seller.name,
        when.toISOString(),
      ],
    );
    if (!refund) throw new Error('a refund is written');
    const label = refundNumberLabel(Number(refund.number));
    await q(
      `insert into refund_lines (refund_id, n, order_id, product_id, product_name, quantity, amount, tax,
                                 tax_rate_name, tax_rate)
       values ($1, 1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        refund.id,
        row.order_id,
        row.product_id,
        row.product_name,
        quantity,
        centsText(amount),
        centsText(tax),
        row.tax_rate_name,
        row.tax_rate,
      ],
    );
    await q(
      `update orders set returned_quantity = returned_quantity + $2, returned_total = returned_total + $3,
                         returned_tax = returned_tax + $4, returned_discount = returned_discount + $5,
                         status = case when returned_quantity + $2 = quantity then 'returned' else 'placed' end
       where id = $1`,
      [row.order_id, quantity, centsText(amount), centsText(tax), centsText(discount)],
    );
    const note = `Refund ${label}`;
    const back = {
      // The rows read are of orders whose product is still there.
      productId: row.product_id as string,
      note,
      actor: seed.seller,
      refundId: refund.id,
      at: when,
    };
    await recordMovements(database, [
      { ...back, kind: 'return', quantity, reason: 'returned', orderId: row.order_id },
      ...(restock
        ? []
        : [{ ...back, kind: 'adjustment' as const, quantity: -quantity, reason: 'damaged' as const }]),
    ]);
    if (method === 'storeCredit' && row.customer_id)
      await q(
        `insert into store_credit_entries (customer_id, at, amount, kind, sale_id, refund_id, user_id, user_name, note)
         values ($1, $2, $3, 'refund', $4, $5, $6, $7, $8)`,
        [
          row.customer_id,
          when.toISOString(),
          centsText(amount),
          row.sale_id,
          refund.id,
          seed.seller.id,
          seed.seller.name,
          note,
        ],
      );
    await audit(q, seed.seller, 'refunded', refund.id, label, when, [
      { field: 'sale', new: `S-${String(row.sale_number).padStart(6, '0')}` },
      { field: 'total', new: Number(centsText(amount)) },
      { field: 'method', new: method },
    ]);
  }

  // Goodwill credit for one customer.
  const [regular] = await q<{ id: string; name: string }>(
    `select id, name from customers order by name limit 1`,
  );
  if (regular) {
    const at = new Date(now.getTime() - 6 * DAY);
    await q(
      `insert into store_credit_entries (customer_id, at, amount, kind, user_id, user_name, note)
       values ($1, $2, 25.00, 'adjustment', $3, $4, 'Goodwill: a late special order')`,
      [regular.id, at.toISOString(), admin.id, admin.name],
    );
    await audit(q, admin, 'creditAdjusted', regular.id, regular.name, at, [
      { field: 'storeCredit', new: 25 },
      { field: 'note', new: 'Goodwill: a late special order' },
    ]);
  }

  // Close the past days: what the drawer should hold, and a count a little over or short.
  for (const [at, session] of sessions.entries()) {
    const day = days[at];
    if (!session.closed || !day) continue;
    // What the drawer should hold, by the till's own rule (its report's expected cash).
    const expected = await drawerHolds(database, session.id);
    const counted = expected + toCents(day.over);
    await q(
      `update register_sessions set status = 'closed', closed_by_id = $2, closed_by_name = $3, closed_at = $4,
                                    counted_cash = $5, expected_cash = $6, note = $7
       where id = $1`,
      [
        session.id,
        day.user.id,
        day.user.name,
        session.closed.toISOString(),
        centsText(counted),
        centsText(expected),
        day.over === '0.00' ? '' : 'Counted twice.',
      ],
    );
    await audit(q, day.user, 'closed', session.id, `${till.name} #${session.number}`, session.closed, [
      { field: 'expectedCash', new: Number(centsText(expected)) },
      { field: 'countedCash', new: Number(centsText(counted)) },
      { field: 'difference', new: Number(day.over) },
    ]);
  }
}

async function audit(
  q: Query,
  actor: Person,
  action: string,
  entityId: string,
  entityName: string,
  at: Date,
  changes: Array<{ field: string; new: string | number }>,
): Promise<void> {
  const entity =
    action === 'refunded' ? 'refund' : action === 'creditAdjusted' ? 'customer' : 'registerSession';
  await q(
    `insert into audit_log (actor_id, actor_name, actor_role, action, entity_type, entity_id, entity_name, changes, at)
     values ($1, $2, (select role from users where id = $1), $3, $4, $5, $6, $7::jsonb, $8)`,
    [actor.id, actor.name, action, entity, entityId, entityName, JSON.stringify(changes), at.toISOString()],
  );
}
