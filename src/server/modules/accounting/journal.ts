import {
  type Account,
  type AccountInput,
  type AccountUpdate,
  entryNumberLabel,
  type JournalEntry,
  type JournalQuery,
  type ManualEntryInput,
  type SourceKind,
} from '../../../shared/accounting';
import { billNumberLabel, paymentNumberLabel } from '../../../shared/bills';
import { centsText, toCents } from '../../../shared/money';
import { purchaseOrderNumber } from '../../../shared/purchasing';
import { saleNumberLabel } from '../../../shared/sales';
import { stocktakeNumber } from '../../../shared/stocktakes';
import { refundNumberLabel, sessionNumberLabel } from '../../../shared/till';
import { transferNumber } from '../../../shared/transfers';
import { type Database, type Runner, runnerOf, type Tx } from '../../db/connection';
import { notFound, pgCode, refuse, violatedConstraint } from '../../lib/errors';
import { type Actor, changedFields, createdFields, recordAudit } from '../audit/audit.repository';
import { drawerHolds } from '../till/till.repository';

/**
 * The journal (DESIGN §19, decision 0047). Every entry is written by journal_post.sql, the one
 * writer: the events' own by the database's triggers (journal_source_posted.sql) in the event's
 * transaction, and here an admin's manual entries and reversals, an Orders-screen return
 * (postReturn) and the opening. A line given to it is {account, amount (signed: + debit, −
 * credit), location?, register?, tax_rate?, supplier?, customer?}.
 */
export type PostLine = {
  account: string;
  amount: bigint;
  location?: string | null;
  register?: string | null;
  tax_rate?: string | null;
  supplier?: string | null;
  customer?: string | null;
};
type Who = { id: string; name: string } | null;

/** Posts one entry through journal_post; answers its id. A lock date refusal is IMS11 (409 BOOKS_LOCKED). */
export async function postEntry(
  run: Runner,
  entry: {
    kind: SourceKind;
    sourceId: string | null;
    date: string;
    memo: string;
    lines: readonly PostLine[];
    movements?: readonly string[];
    actor: Who;
    reverses?: string;
  },
): Promise<string> {
  const [row] = await run.query<{ id: string }>(
    'select journal_post($1, $2::uuid, $3::date, $4, $5::jsonb, $6::uuid[], $7::uuid, $8, $9::uuid) as id',
    [
      entry.kind,
      entry.sourceId,
      entry.date,
      entry.memo,
      JSON.stringify(entry.lines.map((line) => ({ ...line, amount: centsText(line.amount) }))),
      entry.movements ?? null,
      entry.actor?.id ?? null,
      entry.actor?.name ?? null,
      entry.reverses ?? null,
    ],
  );
  if (!row) throw new Error('journal_post answers the entry');
  return row.id;
}

/** An Orders-screen return's entry (post_return.sql), in the return's transaction. */
export async function postReturn(
  run: Runner,
  orderId: string,
  given: { total: bigint; tax: bigint },
  actor: Who,
): Promise<void> {
  await run.query('select post_return($1::uuid, $2::numeric, $3::numeric, $4::uuid, $5, null)', [
    orderId,
    centsText(given.total),
    centsText(given.tax),
    actor?.id ?? null,
    actor?.name ?? null,
  ]);
}

// Accounts

type AccountRow = {
  id: string;
  code: string;
  name: string;
  type: Account['type'];
  system: string | null;
  active: boolean;
  balance: string;
};
const toAccount = (row: AccountRow): Account => ({
  _id: row.id,
  code: row.code,
  name: row.name,
  type: row.type,
  system: row.system,
  active: row.active,
  balance: Number(row.balance),
});
const ACCOUNT_SELECT = `select a.id, a.code, a.name, a.type, a.system, a.active,
       coalesce((select sum(d.debit - d.credit) from account_days d where d.account_id = a.id), 0)::text as balance
  from accounts a`;

/** The chart of accounts by code, each with its balance (debit − credit) from the kept totals. */
export async function listAccounts(run: Runner): Promise<Account[]> {
  return (await run.query<AccountRow>(`${ACCOUNT_SELECT} order by a.code`)).map(toAccount);
}

async function accountById(run: Runner, id: string): Promise<Account | undefined> {
  const [row] = await run.query<AccountRow>(`${ACCOUNT_SELECT} where a.id = $1::uuid`, [id]);
  return row ? toAccount(row) : undefined;
}

/** An account's audit entity: its code and name. */
const accountEntity = (account: Account) => ({
  type: 'account' as const,
  id: account._id,
  name: `${account.code} ${account.name}`,
});

export async function createAccount(tx: Tx, input: AccountInput, actor: Actor): Promise<Account> {
  const run = runnerOf(tx);
  try {
    const [row] = await run.query<{ id: string }>(
      'insert into accounts (code, name, type) values ($1, $2, $3) returning id',
      [input.code.trim(), input.name.trim(), input.type],
    );
    const account = (await accountById(run, row?.id as string)) as Account;
    await recordAudit(tx, {
      actor,
      action: 'created',
      entity: accountEntity(account),
      changes: createdFields({ code: account.code, name: account.name, type: account.type }),
    });
    return account;
  } catch (error) {
    if (pgCode(error) === '23505' && violatedConstraint(error) === 'accounts_code_key')
      throw refuse('ACCOUNT_CODE_TAKEN', { code: input.code.trim() });
    throw error;
  }
}

export async function updateAccount(
  tx: Tx,
  id: string,
  body: AccountUpdate,
  actor: Actor,
): Promise<Account | undefined> {
  const run = runnerOf(tx);
  const [row] = await run.query<{ code: string; name: string; system: string | null; active: boolean }>(
    'select code, name, system, active from accounts where id = $1::uuid for update',
    [id],
  );
  if (!row) return undefined;
  if (body.active === false && row.system !== null)
    throw refuse('ACCOUNT_SYSTEM', { account: `${row.code} ${row.name}` });
  await run.query(
    'update accounts set name = coalesce($2, name), active = coalesce($3, active) where id = $1::uuid',
    [id, body.name?.trim() ?? null, body.active ?? null],
  );
  const account = (await accountById(run, id)) as Account;
  const changes = changedFields(
    { name: row.name, active: row.active },
    { name: account.name, active: account.active },
  );
  if (changes.length > 0)
    await recordAudit(tx, {
      actor,
      action: row.active === account.active ? 'updated' : account.active ? 'reactivated' : 'deactivated',
      entity: accountEntity(account),
      changes,
    });
  return account;
}

// Entries

type EntryRow = {
  id: string;
  number: string | number;
  date: string;
  created_at: Date | string;
  memo: string;
  source_kind: SourceKind;
  source_id: string | null;
  source_number: string | number | null;
  reverses: string | null;
  reversed_by: string | null;
  movements: string[] | null;
  lines: {
    account: { _id: string; code: string; name: string };
    debit: string;
    credit: string;
    location: { _id: string; name: string } | null;
    register: { _id: string; name: string } | null;
    taxRate: string | null;
    supplier: { _id: string; name: string } | null;
    customer: { _id: string; name: string } | null;
  }[];
};

/** A source's number as its screens write it. */
export function sourceNumber(kind: SourceKind, n: number): string | undefined {
  switch (kind) {
    case 'sale':
    case 'return':
      return saleNumberLabel(n);
    case 'refund':
      return refundNumberLabel(n);
    case 'receipt':
      return purchaseOrderNumber(n);
    case 'transfer':
      return transferNumber(n);
    case 'stocktake':
      return stocktakeNumber(n);
    case 'sessionOpen':
    case 'sessionClose':
      return sessionNumberLabel(n);
    case 'reversal':
      return entryNumberLabel(n);
    case 'bill':
      return billNumberLabel(n);
    case 'payment':
      return paymentNumberLabel(n);
    default:
      return undefined;
  }
}

const toEntry = (row: EntryRow): JournalEntry => ({
  _id: row.id,
  number: entryNumberLabel(Number(row.number)),
  date: row.date,
  createdAt: new Date(row.created_at).toISOString(),
  memo: row.memo,
  source: {
    kind: row.source_kind,
    _id: row.source_id,
    ...(row.source_number !== null && sourceNumber(row.source_kind, Number(row.source_number))
      ? { number: sourceNumber(row.source_kind, Number(row.source_number)) }
      : {}),
  },
  movements: row.movements ?? [],
  lines: row.lines.map((line) => ({
    account: line.account,
    debit: Number(line.debit),
    credit: Number(line.credit),
    ...(line.location ? { location: line.location } : {}),
    ...(line.register ? { register: line.register } : {}),
    ...(line.taxRate ? { taxRate: line.taxRate } : {}),
    ...(line.supplier ? { supplier: line.supplier } : {}),
    ...(line.customer ? { customer: line.customer } : {}),
  })),
  ...(row.reverses ? { reverses: row.reverses } : {}),
  ...(row.reversed_by ? { reversedBy: row.reversed_by } : {}),
});

/** The number of an entry's (`e`) document, as its table keeps it (sourceNumber writes it). */
export const SOURCE_NUMBER = `case e.source_kind
         when 'sale' then (select number from sales where id = e.source_id)
         when 'return' then (select sale_number from orders where id = e.source_id)
         when 'refund' then (select number from refunds where id = e.source_id)
         when 'receipt' then (select number from purchase_orders where id = e.source_id)
         when 'transfer' then (select number from transfers where id = e.source_id)
         when 'stocktake' then (select number from stocktakes where id = e.source_id)
         when 'sessionOpen' then (select number from register_sessions where id = e.source_id)
         when 'sessionClose' then (select number from register_sessions where id = e.source_id)
         when 'reversal' then (select number from journal_entries where id = e.source_id)
         when 'bill' then (select number from bills where id = e.source_id)
         when 'payment' then (select number from supplier_payments where id = e.source_id)
       end`;

/** An entry's whole answer: its lines (with what they concern, by name), movements, source number. */
const ENTRY_SELECT = `select e.id, e.number, e.date::text as date, e.created_at, e.memo, e.source_kind, e.source_id,
       e.reverses, (select r.id from journal_entries r where r.reverses = e.id) as reversed_by,
       ${SOURCE_NUMBER} as source_number,
       (select array_agg(j.movement_id order by j.movement_id) from journal_movements j where j.entry_id = e.id) as movements,
       (select coalesce(json_agg(json_build_object(
                 'account', json_build_object('_id', a.id, 'code', a.code, 'name', a.name),
                 'debit', l.debit::text, 'credit', l.credit::text,
                 'location', case when l.location_id is not null then json_build_object('_id', l.location_id, 'name', loc.name) end,
                 'register', case when l.register_id is not null then json_build_object('_id', l.register_id, 'name', reg.name) end,
                 'taxRate', l.tax_rate,
                 'supplier', case when l.supplier_id is not null then json_build_object('_id', l.supplier_id, 'name', sup.name) end,
                 'customer', case when l.customer_id is not null then json_build_object('_id', l.customer_id, 'name', cus.name) end)
               order by l.n), '[]'::json)
          from journal_lines l join accounts a on a.id = l.account_id
          left join locations loc on loc.id = l.location_id
          left join registers reg on reg.id = l.register_id
          left join suppliers sup on sup.id = l.supplier_id
          left join customers cus on cus.id = l.customer_id
         where l.entry_id = e.id) as lines
  from journal_entries e`;

export async function findEntry(run: Runner, id: string): Promise<JournalEntry | undefined> {
  const [row] = await run.query<EntryRow>(`${ENTRY_SELECT} where e.id = $1::uuid`, [id]);
  return row ? toEntry(row) : undefined;
}

/** A page of the journal, newest first, filtered by dates, source kind, the document and an account. */
export async function journalPage(
  run: Runner,
  query: JournalQuery,
  window: { offset: number; limit: number },
): Promise<{ entries: JournalEntry[]; total: number }> {
  const where = `($1::date is null or e.date >= $1::date) and ($2::date is null or e.date <= $2::date)
    and ($3::text is null or e.source_kind = $3) and ($4::uuid is null or e.source_id = $4::uuid)
    and ($5::uuid is null or exists (select 1 from journal_lines l where l.entry_id = e.id and l.account_id = $5::uuid))`;
  const params = [
    query.from ?? null,
    query.to ?? null,
    query.source ?? null,
    query.sourceId ?? null,
    query.account ?? null,
  ];
  const rows = await run.query<EntryRow>(
    `${ENTRY_SELECT} where ${where} order by e.date desc, e.number desc limit $6 offset $7`,
    [...params, window.limit, window.offset],
  );
  const [count] = await run.query<{ n: number }>(
    `select count(*)::int as n from journal_entries e where ${where}`,
    params,
  );
  return { entries: rows.map(toEntry), total: count?.n ?? 0 };
}

/** The store's day today (report_settings' time zone), as entries are dated. */
async function today(run: Runner): Promise<string> {
  const [row] = await run.query<{ day: string }>('select store_today()::text as day');
  return row?.day as string;
}

/**
 * An admin's manual entry (DESIGN §19): each line one side above 0 (400 ENTRY_LINE_SIDE), the
 * debits equal to the credits (400 ENTRY_UNBALANCED), every account known (404) and active (409
 * ACCOUNT_INACTIVE), the date after the lock date (409 BOOKS_LOCKED, the database's own check).
 */
export async function postManualEntry(tx: Tx, input: ManualEntryInput, actor: Actor): Promise<string> {
  const run = runnerOf(tx);
  let debit = 0n;
  let credit = 0n;
  const lines: PostLine[] = input.lines.map((line, at) => {
    const d = toCents(line.debit ?? 0);
    const c = toCents(line.credit ?? 0);
    if (d > 0n === c > 0n) throw refuse('ENTRY_LINE_SIDE', { line: at + 1 });
    debit += d;
    credit += c;
    return { account: line.account, amount: d - c };
  });
  if (debit !== credit)
    throw refuse('ENTRY_UNBALANCED', { debit: centsText(debit), credit: centsText(credit) });
  const ids = [...new Set(lines.map((line) => line.account))];
  const known = await run.query<{ id: string; code: string; name: string; active: boolean }>(
    'select id, code, name, active from accounts where id::text = any($1::text[])',
    [ids],
  );
  for (const id of ids) {
    const account = known.find((row) => row.id === id);
    if (!account) throw notFound('Account');
    if (!account.active) throw refuse('ACCOUNT_INACTIVE', { account: `${account.code} ${account.name}` });
  }
  const id = await postEntry(run, {
    kind: 'manual',
    sourceId: null,
    date: input.date,
    memo: input.memo,
    lines,
    actor,
  });
  await recordAudit(tx, {
    actor,
    action: 'posted',
    entity: await entryEntity(run, id),
    changes: createdFields({ date: input.date, memo: input.memo, amount: centsText(debit) }),
  });
  return id;
}

/** An entry's audit entity: its number (JE-000012). */
async function entryEntity(run: Runner, id: string) {
  const [row] = await run.query<{ number: string | number }>(
    'select number from journal_entries where id = $1::uuid',
    [id],
  );
  return { type: 'journalEntry' as const, id, name: entryNumberLabel(Number(row?.number)) };
}

/**
 * Reverses an entry once (DESIGN §19): the same lines on the other side, dated `date` or today
 * (after the lock date), source `reversal` naming it. A second reversal is a 409 ENTRY_REVERSED,
 * also when two race (journal_entries_reverses_key).
 */
export async function reverseEntry(
  tx: Tx,
  id: string,
  date: string | undefined,
  actor: Actor,
): Promise<string | undefined> {
  const run = runnerOf(tx);
  const [entry] = await run.query<{
    id: string;
    number: string | number;
    reversed_by: string | number | null;
  }>(
    `select e.id, e.number, (select r.number from journal_entries r where r.reverses = e.id) as reversed_by
       from journal_entries e where e.id = $1::uuid`,
    [id],
  );
  if (!entry) return undefined;
  const label = entryNumberLabel(Number(entry.number));
  if (entry.reversed_by !== null)
    throw refuse('ENTRY_REVERSED', { entry: label, by: entryNumberLabel(Number(entry.reversed_by)) });
  const lines = await run.query<{
    account_id: string;
    debit: string;
    credit: string;
    location_id: string | null;
    register_id: string | null;
    tax_rate: string | null;
    supplier_id: string | null;
    customer_id: string | null;
  }>('select * from journal_lines where entry_id = $1::uuid order by n', [id]);
  try {
    const reversal = await postEntry(run, {
      kind: 'reversal',
      sourceId: id,
      date: date ?? (await today(run)),
      memo: `Reverses ${label}`,
      lines: lines.map((line) => ({
        account: line.account_id,
        amount: toCents(line.credit) - toCents(line.debit),
        location: line.location_id,
        register: line.register_id,
        tax_rate: line.tax_rate,
        supplier: line.supplier_id,
        customer: line.customer_id,
      })),
      actor,
      reverses: id,
    });
    const by = await entryEntity(run, reversal);
    await recordAudit(tx, {
      actor,
      action: 'reversed',
      entity: { type: 'journalEntry', id, name: label },
      changes: [{ field: 'reversedBy', new: by.name }],
    });
    return reversal;
  } catch (error) {
    if (pgCode(error) === '23505' && violatedConstraint(error) === 'journal_entries_reverses_key')
      throw refuse('ENTRY_REVERSED', { entry: label, by: 'another entry' });
    throw error;
  }
}

// The lock date

export async function lockDate(run: Runner): Promise<string | null> {
  const [row] = await run.query<{ lock_date: string | null }>(
    'select lock_date::text as lock_date from accounting_settings',
  );
  return row?.lock_date ?? null;
}

/**
 * Sets the lock date (DESIGN §19): earlier than today, only forward (an earlier one, or clearing
 * it, is a 409 LOCK_DATE_INVALID); the same one changes nothing.
 */
export async function setLockDate(tx: Tx, next: string | null, actor: Actor): Promise<string | null> {
  const run = runnerOf(tx);
  const [row] = await run.query<{ lock_date: string | null; today: string }>(
    'select lock_date::text as lock_date, store_today()::text as today from accounting_settings for update',
  );
  const current = row?.lock_date ?? null;
  if (next === current) return current;
  if (next === null || (current !== null && next < current))
    throw refuse('LOCK_DATE_INVALID', { why: 'earlier', lockDate: current ?? '' });
  if (next >= (row?.today as string)) throw refuse('LOCK_DATE_INVALID', { why: 'today' });
  await run.query('update accounting_settings set lock_date = $1::date', [next]);
  await recordAudit(tx, {
    actor,
    action: 'updated',
    entity: { type: 'books', id: null, name: 'Lock date' },
    changes: [{ field: 'lockDate', old: current, new: next }],
  });
  return next;
}

/**
 * The day the ledger arrives (DESIGN §19): once, the first time a server starts with the books,
 * one opening entry brings 1300 Inventory to the stock's value at each location (valued at stock
 * × cost when the books began: the revaluation movements of migration 0035, which it lists),
 * 2300 Store credit to what each customer holds and 1000 Till cash to each open drawer, against
 * 3000 Opening balance equity: each by what the books do not hold of it yet (events written
 * before the first start, by a seed or a loader, posted themselves). Nothing earlier is posted. books_began_at marks it done (servers
 * starting at once take turns on the settings row); on a new store there is nothing to open.
 */
export async function openBooks(database: Database): Promise<boolean> {
  return database.db.transaction(async (tx) => {
    const run = runnerOf(tx);
    const [settings] = await run.query<{ began: Date | null }>(
      'select books_began_at as began from accounting_settings for update',
    );
    if (!settings || settings.began !== null) return false;
    const [inventory, storeCredit, tillCash, equity] = (await systemAccounts(run, [
      'inventory',
      'storeCredit',
      'tillCash',
      'openingEquity',
    ])) as [string, string, string, string];
    // What the books hold already of each (events posted before the first start: a seed, a loader).
    const posted = async (account: string, dimension: 'location_id' | 'customer_id' | 'register_id') =>
      new Map(
        (
          await run.query<{ key: string | null; balance: string }>(
            `select ${dimension} as key, sum(debit - credit)::text as balance from journal_lines
              where account_id = $1::uuid group by ${dimension}`,
            [account],
          )
        ).map((row) => [row.key ?? '', toCents(row.balance)]),
      );
    const lines: PostLine[] = [];
    const stock = await run.query<{ location_id: string; value: string }>(
      `select location_id, sum(stock_value)::text as value from location_stock
        group by location_id order by location_id`,
    );
    const credit = await run.query<{ id: string; balance: string }>(
      'select id, credit_balance::text as balance from customers order by id',
    );
    const drawers = await run.query<{ id: string; register_id: string }>(
      "select id, register_id from register_sessions where status = 'open' order by register_id",
    );
    const inStock = await posted(inventory, 'location_id');
    for (const row of stock)
      lines.push({
        account: inventory,
        amount: toCents(row.value) - (inStock.get(row.location_id) ?? 0n),
        location: row.location_id,
      });
    const inCredit = await posted(storeCredit, 'customer_id');
    for (const row of credit)
      lines.push({
        account: storeCredit,
        amount: -toCents(row.balance) - (inCredit.get(row.id) ?? 0n),
        customer: row.id,
      });
    const inDrawers = await posted(tillCash, 'register_id');
    for (const row of drawers)
      lines.push({
        account: tillCash,
        amount: (await drawerHolds(run, row.id)) - (inDrawers.get(row.register_id) ?? 0n),
        register: row.register_id,
      });
    const open = lines.filter((line) => line.amount !== 0n);
    const opened = open.reduce((sum, line) => sum + line.amount, 0n);
    const movements = (
      await run.query<{ id: string }>(
        `select m.id from stock_movements m
          where m.kind = 'revaluation' and m.note = 'Valued when the books began'
            and not exists (select 1 from journal_movements j where j.movement_id = m.id)`,
      )
    ).map((row) => row.id);
    if (open.length > 0 || movements.length > 0)
      await postEntry(run, {
        kind: 'opening',
        sourceId: null,
        date: await today(run),
        memo: 'Opening balances',
        lines: [...open, { account: equity, amount: -opened }],
        movements,
        actor: null,
      });
    await run.query('update accounting_settings set books_began_at = now()');
    return open.length > 0;
  });
}

/** The ids of the accounts the postings use, by key, in the order asked. */
export async function systemAccounts(run: Runner, keys: readonly string[]): Promise<string[]> {
  const rows = await run.query<{ id: string; system: string }>(
    'select id, system from accounts where system = any($1::text[])',
    [keys],
  );
  return keys.map((key) => {
    const found = rows.find((row) => row.system === key);
    if (!found) throw new Error(`the chart has no ${key} account`);
    return found.id;
  });
}

/** The triggers that post each event (migration 0036), set aside while a history is written. */
const POSTING_TRIGGERS = [
  ['sales', 'sales_posted'],
  ['refunds', 'refunds_posted'],
  ['stock_movements', 'stock_movements_posted'],
  ['register_sessions', 'register_sessions_opened'],
  ['register_sessions', 'register_sessions_closed'],
  ['cash_movements', 'cash_movements_posted'],
  ['store_credit_entries', 'store_credit_entries_posted'],
] as const;

/**
 * Writes a history table by table (the demo's ninety days: sales first, their movements later)
 * and then posts it, each event as its trigger would have, in the order they happened
 * (post_history.sql): the posting triggers are set aside meanwhile, since a sale written before
 * its orders and movements has nothing to post yet. For a database nobody else uses yet (a seed),
 * never the app's. The books begin first (openBooks), so the history is posted, not opened.
 */
export async function writeHistory<T>(database: Database, work: () => Promise<T>): Promise<T> {
  await openBooks(database);
  const set = async (how: 'enable' | 'disable') => {
    for (const [table, trigger] of POSTING_TRIGGERS)
      await database.query(`alter table ${table} ${how} trigger ${trigger}`);
  };
  await set('disable');
  try {
    return await work();
  } finally {
    await set('enable');
    await database.withoutTimeLimits((runner) => runner.query('select post_history()'));
  }
}
