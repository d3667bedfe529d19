import type { BillInput } from '../../shared/bills';
import type { Actor } from '../modules/audit/audit.repository';
import { createBill, postBill } from '../modules/bills/bills.repository';
import { createPayment } from '../modules/bills/payments.repository';
import { drawerHolds } from '../modules/till/till.repository';
import type { Database, Tx } from './connection';

/**
 * The demo's bills and payments (DESIGN §20), made through the bills' own functions after the
 * history is in the books, each step its own transaction as the app runs it:
 * - the oldest received order billed at its cost and paid by bank a month later;
 * - the next billed with a freight line, due five weeks ago and paid half: part paid, overdue;
 * - the next billed 3 % above its cost (the difference to purchase price variance), overdue, unpaid;
 * - one billed a month ago, due in days, paid in part in cash from today's open till;
 * - the latest received order's bill still a draft, so it shows as received and not billed;
 * - a deposit paid to another supplier, not allocated yet (the supplier's credit).
 * Lines on received purchase order lines take the store's standard rate as input tax.
 */
export async function seedBills(database: Database, admin: Actor): Promise<void> {
  const q = database.query.bind(database);
  const step = <T>(work: (tx: Tx) => Promise<T>): Promise<T> => database.db.transaction(work);
  const [today] = await q<{ day: string }>('select store_today()::text as day');
  const day = (back: number) => {
    const date = new Date(`${today?.day}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() - back);
    return date.toISOString().slice(0, 10);
  };
  const orders = await q<{ id: string; supplier_id: string; number: number }>(
    `select id, supplier_id, number from purchase_orders
      where status in ('received', 'partially_received') order by number`,
  );
  const [rate] = await q<{ id: string }>(
    `select r.id from tax_rates r join store_settings s on s.default_tax_rate_id = r.id`,
  );
  const [freight] = await q<{ id: string }>("select id from accounts where code = '6900'");
  const [session] = await q<{ id: string }>("select id from register_sessions where status = 'open' limit 1");
  const linesOf = async (order: string, markUp = 1) =>
    (
      await q<{ id: string; quantity: number; unit_cost: string }>(
        `select id, (received - billed)::int as quantity, unit_cost::text from purchase_order_lines
          where purchase_order_id = $1 and received > billed order by position`,
        [order],
      )
    ).map((line) => ({
      purchaseOrderLine: line.id,
      quantity: line.quantity,
      unitPrice: Math.round(Number(line.unit_cost) * markUp * 100) / 100,
      ...(rate ? { taxRate: rate.id } : {}),
    }));
  const bill = async (
    order: { id: string; supplier_id: string; number: number },
    plan: { date: string; due: string; markUp?: number; extra?: BillInput['lines']; post: boolean },
  ) => {
    const lines = [...(await linesOf(order.id, plan.markUp)), ...(plan.extra ?? [])];
    if (lines.length === 0) return undefined;
    const made = await step((tx) =>
      createBill(
        tx,
        {
          supplier: order.supplier_id,
          reference: `INV-${20_260_000 + order.number * 37}`,
          date: plan.date,
          dueDate: plan.due,
          lines,
        },
        admin,
      ),
    );
    return plan.post ? step((tx) => postBill(tx, made._id, admin)) : made;
  };
  const pay = (input: Parameters<typeof createPayment>[1]) => step((tx) => createPayment(tx, input, admin));
  const [first, second, third, fourth, fifth] = orders;
  if (!first || !second || !third || !fourth || !fifth) return;

  const paid = await bill(first, { date: day(80), due: day(50), post: true });
  if (paid)
    await pay({
      supplier: first.supplier_id,
      date: day(52),
      amount: paid.total,
      method: 'bank',
      allocations: [{ bill: paid._id, amount: paid.total }],
    });
  const half = await bill(second, {
    date: day(66),
    due: day(36),
    post: true,
    extra: freight
      ? [{ description: 'Freight and handling', quantity: 1, unitPrice: 18.5, account: freight.id }]
      : [],
  });
  if (half) {
    const amount = Math.round(half.total * 50) / 100;
    await pay({
      supplier: second.supplier_id,
      date: day(30),
      amount,
      method: 'bank',
      allocations: [{ bill: half._id, amount }],
    });
  }
  await bill(third, { date: day(54), due: day(40), markUp: 1.03, post: true });
  const recent = await bill(fourth, { date: day(33), due: day(-4), post: true });
  // Paid in part from today's drawer, when it holds that much.
  if (recent && session && (await drawerHolds(database, session.id)) >= 2500n)
    await pay({
      supplier: fourth.supplier_id,
      date: day(0),
      amount: 25,
      method: 'cash',
      session: session.id,
      allocations: [{ bill: recent._id, amount: 25 }],
    });
  await bill(fifth, { date: day(20), due: day(-10), post: false });
  const other = orders.find(
    (order) => order.supplier_id !== first.supplier_id && order.supplier_id !== second.supplier_id,
  );
  await pay({
    supplier: (other ?? first).supplier_id,
    date: day(9),
    amount: 150,
    method: 'bank',
    allocations: [],
  });
}
