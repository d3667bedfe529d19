import { centsText, formatCents, toCents } from '../../../shared/money';
import type { CreditEntry } from '../../../shared/till';
import { type Runner, runnerOf, type Tx } from '../../db/connection';
import { refuse } from '../../lib/errors';
import { type Actor, recordAudit } from '../audit/audit.repository';
import { storeCurrency } from '../store/store.repository';

/**
 * A customer's store credit (DESIGN §13): their balance, kept by the trigger store_credit_apply
 * on every entry, and the entries themselves. Sales spend it (sell.ts), refunds give it, admins
 * adjust it here.
 */

type EntryRow = {
  id: string;
  at: string | Date;
  amount: string;
  kind: CreditEntry['kind'];
  sale_id: string | null;
  sale_number: string | number | null;
  refund_id: string | null;
  refund_number: string | number | null;
  user_id: string | null;
  user_name: string;
  note: string;
  balance_after: string;
};

/** An entry's columns with the numbers of its sale and refund (still there, or null). */
const ENTRY_FIELDS = `e.id, e.at, e.amount::text as amount, e.kind, e.sale_id,
  (select s.number from sales s where s.id = e.sale_id) as sale_number, e.refund_id,
  (select r.number from refunds r where r.id = e.refund_id) as refund_number,
  e.user_id, e.user_name, e.note, e.balance_after::text as balance_after`;

function toEntry(row: EntryRow): CreditEntry {
  return {
    _id: row.id,
    at: new Date(row.at).toISOString(),
    amount: Number(row.amount),
    kind: row.kind,
    sale:
      row.sale_id === null || row.sale_number === null
        ? null
        : { _id: row.sale_id, number: Number(row.sale_number) },
    refund:
      row.refund_id === null || row.refund_number === null
        ? null
        : { _id: row.refund_id, number: Number(row.refund_number) },
    user: { _id: row.user_id, name: row.user_name },
    note: row.note,
    balanceAfter: Number(row.balance_after),
  };
}

/**
 * A customer's balance and one page of their entries, newest first (the index on customer and
 * time serves it), or undefined when there is no such customer.
 */
export async function creditPage(
  runner: Runner,
  customerId: string,
  window: { limit: number; offset: number },
): Promise<{ balance: number; entries: CreditEntry[]; total: number } | undefined> {
  const [customer] = await runner.query<{ balance: string; total: number }>(
    `select c.credit_balance::text as balance,
            (select count(*)::int from store_credit_entries e where e.customer_id = c.id) as total
     from customers c where c.id = $1::uuid`,
    [customerId],
  );
  if (!customer) return undefined;
  const rows = await runner.query<EntryRow>(
    `select ${ENTRY_FIELDS} from store_credit_entries e where e.customer_id = $1::uuid
     order by e.at desc, e.id desc limit $2 offset $3`,
    [customerId, window.limit, window.offset],
  );
  return { balance: Number(customer.balance), entries: rows.map(toEntry), total: customer.total };
}

/**
 * An admin's adjustment of a customer's store credit, in the caller's transaction: + gives, −
 * takes. The customer's row is locked first, so the balance judged is the one changed: taking
 * more than it holds is a 409 naming it (the trigger refuses it as well, IMS03). The entry and
 * an audit entry (`creditAdjusted`, with the amount, the note and the balance before and after)
 * are written together. Undefined when there is no such customer.
 */
export async function adjustCredit(
  tx: Tx,
  customerId: string,
  input: { amount: number; note: string },
  actor: Actor,
): Promise<{ balance: number; entry: CreditEntry } | undefined> {
  const run = runnerOf(tx);
  const [customer] = await run.query<{ name: string; balance: string }>(
    `select name, credit_balance::text as balance from customers where id = $1::uuid for no key update`,
    [customerId],
  );
  if (!customer) return undefined;
  const amount = toCents(input.amount.toFixed(2));
  const before = toCents(customer.balance);
  if (before + amount < 0n)
    throw refuse('CREDIT_SHORT', {
      customer: customer.name,
      balance: formatCents(before, await storeCurrency(run)),
    });
  const [row] = await run.query<EntryRow>(
    `with e as (
       insert into store_credit_entries (customer_id, amount, kind, user_id, user_name, note)
       values ($1::uuid, $2::numeric, 'adjustment', $3::uuid, $4::text, $5::text)
       returning *
     )
     select ${ENTRY_FIELDS} from e`,
    [customerId, centsText(amount), actor.id, actor.name, input.note],
  );
  if (!row) throw new Error('an inserted entry is answered');
  const entry = toEntry(row);
  await recordAudit(tx, {
    actor,
    action: 'creditAdjusted',
    entity: { type: 'customer', id: customerId, name: customer.name },
    changes: [
      { field: 'amount', new: entry.amount },
      { field: 'note', new: entry.note },
      { field: 'creditBalance', old: Number(customer.balance), new: entry.balanceAfter },
    ],
  });
  return { balance: entry.balanceAfter, entry };
}
