import { entryNumberLabel } from '../../../shared/accounting';
import {
  type AllocateInput,
  billNumberLabel,
  paymentNumberLabel,
  type SupplierPayment,
  type SupplierPaymentInput,
  type SupplierPaymentMethod,
} from '../../../shared/bills';
import { centsNumber, centsText, moneyOfText, toCents } from '../../../shared/money';
import { sessionNumberLabel } from '../../../shared/till';
import { type Runner, runnerOf, type Tx } from '../../db/connection';
import { isId, notFound, refuse } from '../../lib/errors';
import { postEntry, systemAccounts } from '../accounting/journal';
import { type Actor, createdFields, recordAudit } from '../audit/audit.repository';
import { drawerMovement } from '../till/till.repository';
import { allocate } from './bills.repository';

/**
 * Payments to suppliers (DESIGN §20): Dr 2000 Accounts payable, Cr 1100 Bank (bank, card), 1000
 * Till cash (cash from an open session: a cash movement of its drawer, so its report counts it as
 * cash out) or 1050 Safe (cash without a session). Allocations go through allocate, the one writer.
 */

type PaymentRow = {
  id: string;
  number: string | number;
  supplier_id: string;
  supplier_name: string;
  date: string;
  amount: string;
  method: SupplierPaymentMethod;
  session_id: string | null;
  session_number: string | number | null;
  allocated: string;
  entry_id: string | null;
  entry_number: string | number | null;
  created_at: Date | string;
  allocations: { bill: string; number: number; amount: string }[];
};

const PAYMENT_SELECT = `select p.id, p.number, p.supplier_id, s.name as supplier_name, p.date::text as date,
       p.amount::text, p.method, p.session_id, r.number as session_number, p.allocated::text,
       e.id as entry_id, e.number as entry_number, p.created_at,
       (select coalesce(json_agg(json_build_object('bill', a.bill_id, 'number', b.number, 'amount', a.amount::text)
                 order by a.created_at, b.number), '[]'::json)
          from payment_allocations a join bills b on b.id = a.bill_id where a.payment_id = p.id) as allocations
  from supplier_payments p join suppliers s on s.id = p.supplier_id
  left join register_sessions r on r.id = p.session_id
  left join journal_entries e on e.source_kind = 'payment' and e.source_id = p.id`;

const money = moneyOfText;

function toPayment(row: PaymentRow): SupplierPayment {
  return {
    _id: row.id,
    number: paymentNumberLabel(Number(row.number)),
    supplier: { _id: row.supplier_id, name: row.supplier_name },
    date: row.date,
    amount: money(row.amount),
    method: row.method,
    ...(row.session_id
      ? { session: { _id: row.session_id, number: sessionNumberLabel(Number(row.session_number)) } }
      : {}),
    allocations: row.allocations.map((a) => ({
      bill: { _id: a.bill, number: billNumberLabel(Number(a.number)) },
      amount: money(a.amount),
    })),
    unallocated: centsNumber(toCents(row.amount) - toCents(row.allocated)),
    ...(row.entry_id
      ? { entry: { _id: row.entry_id, number: entryNumberLabel(Number(row.entry_number)) } }
      : {}),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export async function findPayment(run: Runner, id: string): Promise<SupplierPayment | undefined> {
  if (!isId(id)) return undefined;
  const [row] = await run.query<PaymentRow>(`${PAYMENT_SELECT} where p.id = $1::uuid`, [id]);
  return row ? toPayment(row) : undefined;
}

/** A page of payments, newest first; `unallocated` keeps those with credit left. */
export async function paymentPage(
  run: Runner,
  query: { supplier?: string; unallocated?: boolean },
  window: { offset: number; limit: number },
): Promise<{ payments: SupplierPayment[]; total: number }> {
  if (query.supplier !== undefined && !isId(query.supplier)) return { payments: [], total: 0 };
  const where =
    '($1::uuid is null or p.supplier_id = $1::uuid) and (not $2::boolean or p.allocated < p.amount)';
  const params = [query.supplier ?? null, query.unallocated === true];
  const rows = await run.query<PaymentRow>(
    `${PAYMENT_SELECT} where ${where} order by p.date desc, p.number desc limit $3 offset $4`,
    [...params, window.limit, window.offset],
  );
  const [count] = await run.query<{ n: number }>(
    `select count(*)::int as n from supplier_payments p where ${where}`,
    params,
  );
  return { payments: rows.map(toPayment), total: count?.n ?? 0 };
}

/**
 * Pays a supplier (DESIGN §20), all in the caller's transaction: the payment, its allocations (the
 * rest stays the supplier's credit), the cash out of the session's drawer when it names one (the
 * drawer's lock and cap: 409 CASH_CAP, SESSION_CLOSED; paid today, 409 PAYMENT_TILL_TODAY) and its
 * entry, dated the payment's date (not after today: 409 DATE_IN_FUTURE; after the lock date).
 */
export async function createPayment(
  tx: Tx,
  input: SupplierPaymentInput,
  actor: Actor,
): Promise<SupplierPayment> {
  const run = runnerOf(tx);
  const [supplier] = isId(input.supplier)
    ? await run.query<{ id: string; name: string }>('select id, name from suppliers where id = $1::uuid', [
        input.supplier,
      ])
    : [];
  if (!supplier) throw notFound('Supplier');
  const [today] = await run.query<{ day: string }>('select store_today()::text as day');
  const day = today?.day as string;
  if (input.date > day) throw refuse('DATE_IN_FUTURE', { what: 'The payment', date: input.date });
  if (input.session !== undefined && !isId(input.session)) throw notFound('Session');
  if (input.session !== undefined && input.date !== day) throw refuse('PAYMENT_TILL_TODAY', { today: day });
  const amount = toCents(input.amount);
  const [made] = await run.query<{ id: string; number: string | number }>(
    `insert into supplier_payments (supplier_id, date, amount, method, session_id, user_id, user_name)
     values ($1::uuid, $2::date, $3::numeric, $4, $5::uuid, $6::uuid, $7) returning id, number`,
    [supplier.id, input.date, centsText(amount), input.method, input.session ?? null, actor.id, actor.name],
  );
  const { id, number } = made as { id: string; number: string | number };
  const label = paymentNumberLabel(Number(number));
  const [payable, bank, safe, tillCash] = (await systemAccounts(run, [
    'payable',
    'bank',
    'safe',
    'tillCash',
  ])) as [string, string, string, string];
  let from: { account: string; register?: string | null } = {
    account: input.method === 'cash' ? safe : bank,
  };
  if (input.session !== undefined) {
    const { row } = await drawerMovement(
      run,
      input.session,
      { amount: -amount, reason: `${label} to ${supplier.name}`, account: payable, paymentId: id },
      undefined,
      actor,
    );
    from = { account: tillCash, register: row.register_id };
  }
  await allocate(
    run,
    { id, label, supplierId: supplier.id, supplierName: supplier.name, left: amount },
    input.allocations ?? [],
  );
  await postEntry(run, {
    kind: 'payment',
    sourceId: id,
    date: input.date,
    memo: `${label} to ${supplier.name}`,
    lines: [
      { account: payable, amount, supplier: supplier.id },
      { account: from.account, amount: -amount, register: from.register ?? null, supplier: supplier.id },
    ],
    actor,
  });
  const payment = (await findPayment(run, id)) as SupplierPayment;
  await recordAudit(tx, {
    actor,
    action: 'paid',
    entity: { type: 'supplierPayment', id, name: label },
    changes: createdFields({
      supplier: supplier.name,
      amount: payment.amount,
      method: input.method,
      allocated: centsNumber(amount - toCents(payment.unallocated)),
    }),
  });
  return payment;
}

/** Allocates what a payment has left to bills of its supplier (DESIGN §20). */
export async function allocatePayment(
  tx: Tx,
  id: string,
  input: AllocateInput,
  actor: Actor,
): Promise<SupplierPayment> {
  const run = runnerOf(tx);
  const [row] = isId(id)
    ? await run.query<{
        number: number;
        supplier_id: string;
        name: string;
        amount: string;
        allocated: string;
      }>(
        `select p.number, p.supplier_id, s.name, p.amount::text, p.allocated::text
           from supplier_payments p join suppliers s on s.id = p.supplier_id where p.id = $1::uuid for update of p`,
        [id],
      )
    : [];
  if (!row) throw notFound('Payment');
  const label = paymentNumberLabel(Number(row.number));
  await allocate(
    run,
    {
      id,
      label,
      supplierId: row.supplier_id,
      supplierName: row.name,
      left: toCents(row.amount) - toCents(row.allocated),
    },
    input.allocations,
  );
  const payment = (await findPayment(run, id)) as SupplierPayment;
  await recordAudit(tx, {
    actor,
    action: 'allocated',
    entity: { type: 'supplierPayment', id, name: label },
    changes: [
      { field: 'allocated', new: input.allocations.length },
      {
        field: 'unallocated',
        old: centsNumber(toCents(row.amount) - toCents(row.allocated)),
        new: payment.unallocated,
      },
    ],
  });
  return payment;
}
