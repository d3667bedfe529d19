import { centsNumber, centsText, formatCents, toCents } from '../../../shared/money';
import {
  PAYMENT_METHODS,
  type PaymentMethod,
  type Register,
  type RegisterSession,
  type SessionFigures,
  type SessionReport,
  type SessionSummary,
  sessionNumberLabel,
  sessionReport,
} from '../../../shared/till';
import { type Runner, runnerOf } from '../../db/connection';
import { conflict, isId, notFound, pgCode, refuse, refuseWith, violatedConstraint } from '../../lib/errors';
import { type Actor, changedFields, createdFields, recordAudit, type Tx } from '../audit/audit.repository';
import { locationFor } from '../locations/location-for';
import { storeCurrency } from '../store/store.repository';

/**
 * Registers and their sessions (DESIGN §13). A drawer's money is never stored while it is open:
 * `sessionFigures` sums what the session's sales, refunds and cash movements hold, and the shared
 * `sessionReport` turns that into the report, so an X report, a cash-out's check and a Z report
 * are one computation. Every write locks the rows it judges (the register, the session) first.
 */

// ---------------------------------------------------------------------------------------------
// Registers

type RegisterRow = { id: string; name: string; active: boolean; location_id: string; location_name: string };

/** A register's columns as toRegister reads them, its location by name (DESIGN §17). */
const REGISTER_COLUMNS = `id, name, active, location_id,
  (select l.name from locations l where l.id = registers.location_id) as location_name`;

const toRegister = (row: RegisterRow): Register => ({
  _id: row.id,
  name: row.name,
  active: row.active,
  location: { _id: row.location_id, name: row.location_name },
});

/**
 * The location a register is given (DESIGN §17): locationFor's (unknown: 404, inactive: 409),
 * held FOR SHARE so it is not deactivated before the transaction ends.
 */
async function registerLocation(run: Runner, id: string | undefined) {
  if (id !== undefined && isId(id))
    await run.query('select 1 from locations where id = $1::uuid for share', [id]);
  return locationFor(run, id);
}

/** A unique-name refusal, also when two writers race past the check (registers_name_lower_key). */
const duplicateRegister = (name: string, existing?: RegisterRow) =>
  refuseWith('NAME_TAKEN', existing ? { existing: { _id: existing.id, name: existing.name } } : {}, {
    kind: 'register',
    name,
  });

/** Runs a write whose unique index may refuse it: that refusal becomes `refusal`, not a 500. */
async function unlessDuplicate<T>(index: string, write: () => Promise<T>, refusal: () => Error): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (pgCode(error) === '23505' && violatedConstraint(error) === index) throw refusal();
    throw error;
  }
}

/** Every register by name (the counter lists them; inactive ones too, marked). */
export async function listRegisters(runner: Runner): Promise<Register[]> {
  const rows = await runner.query<RegisterRow>(
    `select ${REGISTER_COLUMNS} from registers order by lower(name), id`,
  );
  return rows.map(toRegister);
}

/** The register with this name ignoring case (but `exceptId`), if any. */
async function registerNamed(run: Runner, name: string, exceptId: string | null) {
  const [row] = await run.query<RegisterRow>(
    `select ${REGISTER_COLUMNS} from registers
     where lower(name) = lower($1::text) and ($2::uuid is null or id <> $2::uuid)`,
    [name, exceptId],
  );
  return row;
}

/** Creates a register (names unique ignoring case: 409), with its audit entry. */
export async function createRegister(
  tx: Tx,
  input: { name: string; location?: string },
  actor: Actor,
): Promise<Register> {
  const run = runnerOf(tx);
  const { name } = input;
  const existing = await registerNamed(run, name, null);
  if (existing) throw duplicateRegister(name, existing);
  const location = await registerLocation(run, input.location);
  const [row] = await unlessDuplicate(
    'registers_name_lower_key',
    () =>
      run.query<RegisterRow>(
        `insert into registers (name, location_id) values ($1, $2::uuid) returning ${REGISTER_COLUMNS}`,
        [name, location.id],
      ),
    () => duplicateRegister(name),
  );
  const register = toRegister(row as RegisterRow);
  await recordAudit(tx, {
    actor,
    action: 'created',
    entity: { type: 'register', id: register._id, name: register.name },
    changes: createdFields({
      name: register.name,
      active: register.active,
      location: register.location.name,
    }),
  });
  return register;
}

/**
 * Renames a register and/or (de)activates it; undefined when there is none. The register is
 * locked first, so an opening (which holds it FOR SHARE) either finishes before a deactivation
 * looks for open sessions or finds the register inactive: a deactivated register never keeps an
 * open session.
 */
export async function updateRegister(
  tx: Tx,
  id: string,
  changes: { name?: string; active?: boolean; location?: string },
  actor: Actor,
): Promise<Register | undefined> {
  const run = runnerOf(tx);
  const [row] = await run.query<RegisterRow>(
    `select ${REGISTER_COLUMNS} from registers where id = $1::uuid for update`,
    [id],
  );
  if (!row) return undefined;
  if (changes.name !== undefined) {
    const existing = await registerNamed(run, changes.name, id);
    if (existing) throw duplicateRegister(changes.name, existing);
  }
  if (changes.active === false && row.active) {
    const [open] = await run.query(
      `select 1 from register_sessions where register_id = $1::uuid and status = 'open'`,
      [id],
    );
    if (open) throw conflict('Close its open session first.');
  }
  const location = changes.location === undefined ? undefined : await registerLocation(run, changes.location);
  if (location && location.id !== row.location_id) {
    const [open] = await run.query(
      `select 1 from register_sessions where register_id = $1::uuid and status = 'open'`,
      [id],
    );
    if (open) throw refuse('REGISTER_SESSION_OPEN', { register: row.name });
  }
  const [updated] = await unlessDuplicate(
    'registers_name_lower_key',
    () =>
      run.query<RegisterRow>(
        `update registers set name = coalesce($2::text, name), active = coalesce($3::boolean, active),
                location_id = coalesce($4::uuid, location_id)
         where id = $1::uuid returning ${REGISTER_COLUMNS}`,
        [id, changes.name ?? null, changes.active ?? null, location?.id ?? null],
      ),
    () => duplicateRegister(changes.name ?? row.name),
  );
  const before = toRegister(row);
  const after = toRegister(updated as RegisterRow);
  const changed = changedFields(
    { name: before.name, active: before.active, location: before.location.name },
    { name: after.name, active: after.active, location: after.location.name },
  );
  if (changed.length > 0) {
    await recordAudit(tx, {
      actor,
      action: 'updated',
      entity: { type: 'register', id, name: after.name },
      changes: changed,
    });
  }
  return after;
}

// ---------------------------------------------------------------------------------------------
// Sessions

type SessionRow = {
  id: string;
  number: string | number;
  register_id: string;
  register_name: string;
  location_id: string;
  location_name: string;
  status: 'open' | 'closed';
  opened_by_id: string | null;
  opened_by_name: string;
  opened_at: string | Date;
  opening_float: string;
  closed_by_id: string | null;
  closed_by_name: string | null;
  closed_at: string | Date | null;
  counted_cash: string | null;
  expected_cash: string | null;
  note: string;
};

/** A session's columns as every answer reads them (rs: register_sessions, r: its register). */
const SESSION_FIELDS = `rs.id, rs.number, rs.register_id, r.name as register_name,
  r.location_id, (select l.name from locations l where l.id = r.location_id) as location_name, rs.status,
  rs.opened_by_id, rs.opened_by_name, rs.opened_at, rs.opening_float::text as opening_float,
  rs.closed_by_id, rs.closed_by_name, rs.closed_at, rs.counted_cash::text as counted_cash,
  rs.expected_cash::text as expected_cash, rs.note`;

const money = (text: string | null) => (text === null ? null : centsNumber(toCents(text)));

function toSession(row: SessionRow): RegisterSession {
  return {
    _id: row.id,
    number: Number(row.number),
    register: { _id: row.register_id, name: row.register_name },
    location: { _id: row.location_id, name: row.location_name },
    status: row.status,
    openedBy: { _id: row.opened_by_id, name: row.opened_by_name },
    openedAt: new Date(row.opened_at).toISOString(),
    openingFloat: centsNumber(toCents(row.opening_float)),
    closedBy: row.closed_by_name === null ? null : { _id: row.closed_by_id, name: row.closed_by_name },
    closedAt: row.closed_at === null ? null : new Date(row.closed_at).toISOString(),
    countedCash: money(row.counted_cash),
    note: row.note,
  };
}

/** How audit entries and messages name a session: "Till 1 #12". */
const sessionName = (row: Pick<SessionRow, 'register_name' | 'number'>) =>
  `${row.register_name} ${sessionNumberLabel(Number(row.number))}`;

/**
 * One session, or undefined: `openedBy` limits it to the sessions that user opened and every open
 * one (a till is shared: whoever works the counter sells in, moves cash of and closes its open
 * session; a seller's closed sessions are their own; an admin passes undefined). `lock` takes the row FOR UPDATE, so the
 * writes that judge the drawer (a cash movement, the close) run one after the other.
 */
async function sessionRow(
  run: Runner,
  id: string,
  openedBy: string | undefined,
  lock = false,
): Promise<SessionRow | undefined> {
  const [row] = await run.query<SessionRow>(
    `select ${SESSION_FIELDS}
     from register_sessions rs join registers r on r.id = rs.register_id
     where rs.id = $1::uuid and ($2::uuid is null or rs.opened_by_id = $2::uuid or rs.status = 'open')
     ${lock ? 'for update of rs' : ''}`,
    [id, openedBy ?? null],
  );
  return row;
}

/**
 * What a session's report needs, summed by the database in one statement, money as exact text
 * (see SessionFigures): its sales (count, total, discount), what their payments put towards
 * their totals by method (cash already net of change), its refunds (count, total, by method),
 * its cash movements (in, out), and the tax by rate snapshot of its sales' lines less the tax
 * and net its refunds' lines gave back. A sale or refund counts in the session it names.
 * Undefined when there is no such session.
 */
export async function sessionFigures(runner: Runner, sessionId: string): Promise<SessionFigures | undefined> {
  const [row] = await runner.query<{
    opening_float: string;
    counted_cash: string | null;
    sales_count: number;
    sales_total: string;
    discount: string;
    refunds_count: number;
    refunds_total: string;
    cash_in: string;
    cash_out: string;
    payments: { method: PaymentMethod; in: string; out: string }[];
    taxes: { name: string; rate: string; base: string; tax: string }[];
  }>(
    `with session as (
       select id, opening_float, counted_cash from register_sessions where id = $1::uuid
     ), sold as (
       select id, total, discount from sales where session_id = $1::uuid
     ), refunded as (
       select id, method, total from refunds where session_id = $1::uuid
     ), paid as (
       select p.method, sum(p.amount) as amount
       from sale_payments p join sold on sold.id = p.sale_id group by p.method
     ), given_back as (
       select method, sum(total) as amount from refunded group by method
     ), taxed as (
       select name, rate, sum(base) as base, sum(tax) as tax from (
         select o.tax_rate_name as name, o.tax_rate as rate, o.total_price - o.tax as base, o.tax
         from orders o join sold on sold.id = o.sale_id
         where o.tax_rate_name is not null and o.tax_rate is not null
         union all
         select l.tax_rate_name, l.tax_rate, -(l.amount - l.tax), -l.tax
         from refund_lines l join refunded on refunded.id = l.refund_id
         where l.tax_rate_name is not null and l.tax_rate is not null
       ) lines group by name, rate
     ), moved as (
       select coalesce(sum(amount) filter (where amount > 0), 0) as cash_in,
              coalesce(-sum(amount) filter (where amount < 0), 0) as cash_out
       from cash_movements where session_id = $1::uuid
     )
     select session.opening_float::text as opening_float, session.counted_cash::text as counted_cash,
            (select count(*) from sold)::int as sales_count,
            (select coalesce(sum(total), 0) from sold)::text as sales_total,
            (select coalesce(sum(discount), 0) from sold)::text as discount,
            (select count(*) from refunded)::int as refunds_count,
            (select coalesce(sum(total), 0) from refunded)::text as refunds_total,
            moved.cash_in::text as cash_in, moved.cash_out::text as cash_out,
            (select coalesce(json_agg(json_build_object(
                      'method', coalesce(paid.method, given_back.method),
                      'in', coalesce(paid.amount, 0)::text,
                      'out', coalesce(given_back.amount, 0)::text)), '[]'::json)
             from paid full join given_back on given_back.method = paid.method) as payments,
            (select coalesce(json_agg(json_build_object(
                      'name', name, 'rate', rate::text, 'base', base::text, 'tax', tax::text)
                      order by rate, name), '[]'::json)
             from taxed) as taxes
     from session cross join moved`,
    [sessionId],
  );
  if (!row) return undefined;
  const parse = <T>(value: T | string): T => (typeof value === 'string' ? JSON.parse(value) : value);
  return {
    openingFloat: row.opening_float,
    sales: { count: row.sales_count, total: row.sales_total },
    refunds: { count: row.refunds_count, total: row.refunds_total },
    payments: parse(row.payments).filter((payment) => PAYMENT_METHODS.includes(payment.method)),
    cashIn: row.cash_in,
    cashOut: row.cash_out,
    discount: row.discount,
    taxes: parse(row.taxes).map((tax) => ({ ...tax, rate: Number(tax.rate) })),
    countedCash: row.counted_cash,
  };
}

/** A session's report as it stands (an X report while open, the Z report once closed). */
async function reportOf(run: Runner, sessionId: string): Promise<SessionReport> {
  const figures = await sessionFigures(run, sessionId);
  if (!figures) throw new Error(`session ${sessionId} vanished inside its own transaction`);
  return sessionReport(figures);
}

/**
 * What a session's drawer holds now, in cents: its report's expected cash (sessionReport), the one
 * rule for a cash-out, a cash refund and the close. The caller holds the session's lock.
 */
export async function drawerHolds(run: Runner, sessionId: string): Promise<bigint> {
  return toCents((await reportOf(run, sessionId)).expectedCash);
}

/** A session and its report, or undefined; `openedBy` as in sessionRow. */
export async function findSession(
  runner: Runner,
  id: string,
  openedBy: string | undefined,
): Promise<{ session: RegisterSession; report: SessionReport } | undefined> {
  const row = await sessionRow(runner, id, openedBy);
  if (!row) return undefined;
  return { session: toSession(row), report: await reportOf(runner, id) };
}

/**
 * Opens a session on a register with its float (DESIGN §13). The register is held FOR SHARE
 * (see updateRegister); at most one open session per register is the partial unique index
 * register_sessions_one_open: the check below gives the usual refusal, the index refuses an
 * opening that raced past it, with the same 409.
 */
export async function openSession(
  tx: Tx,
  registerId: string,
  openingFloat: number,
  actor: Actor,
): Promise<{ session: RegisterSession; report: SessionReport }> {
  const run = runnerOf(tx);
  const [register] = await run.query<RegisterRow>(
    `select ${REGISTER_COLUMNS} from registers where id = $1::uuid for share`,
    [registerId],
  );
  if (!register) throw notFound('Register');
  if (!register.active) throw conflict(`${register.name} is inactive; an admin can reactivate it.`);
  // Held FOR SHARE: a deactivation (FOR UPDATE) either sees this session open or is seen here.
  await registerLocation(run, register.location_id);
  const [open] = await run.query<{ id: string; number: string }>(
    `select id, number from register_sessions where register_id = $1::uuid and status = 'open'`,
    [registerId],
  );
  if (open) throw refuse('SESSION_OPEN');
  const float = centsText(toCents(openingFloat));
  const [inserted] = await unlessDuplicate(
    'register_sessions_one_open',
    () =>
      run.query<{ id: string }>(
        `insert into register_sessions (register_id, opened_by_id, opened_by_name, opening_float)
         values ($1::uuid, $2::uuid, $3::text, $4::numeric) returning id`,
        [registerId, actor.id, actor.name, float],
      ),
    () => refuse('SESSION_OPEN'),
  );
  const row = (await sessionRow(run, (inserted as { id: string }).id, undefined)) as SessionRow;
  await recordAudit(tx, {
    actor,
    action: 'opened',
    entity: { type: 'registerSession', id: row.id, name: sessionName(row) },
    changes: createdFields({ register: row.register_name, openingFloat: centsNumber(toCents(float)) }),
  });
  return { session: toSession(row), report: await reportOf(run, row.id) };
}

/** The session a write works on, locked, or the refusal: unknown (404) or closed (409). */
async function openSessionLocked(run: Runner, id: string, openedBy: string | undefined): Promise<SessionRow> {
  const row = await sessionRow(run, id, openedBy, true);
  if (!row) throw notFound('Session');
  if (row.status !== 'open') throw refuse('SESSION_CLOSED', { session: sessionName(row) });
  return row;
}

/**
 * The one writer of a drawer's cash movements: locks the open session (404 unknown, 409 closed),
 * refuses taking out more than the drawer holds (409 CASH_CAP, judged under the lock) and writes
 * the movement (its trigger posts it, unless it pays a supplier: DESIGN §20, the payment posts it).
 */
export async function drawerMovement(
  run: Runner,
  sessionId: string,
  movement: { amount: bigint; reason: string; account: string | null; paymentId: string | null },
  openedBy: string | undefined,
  actor: Actor,
) {
  const row = await openSessionLocked(run, sessionId, openedBy);
  const { amount } = movement;
  if (amount < 0n) {
    const holds = await drawerHolds(run, sessionId);
    if (-amount > holds) {
      const currency = await storeCurrency(run);
      throw refuse('CASH_CAP', { holds: formatCents(holds, currency), out: formatCents(-amount, currency) });
    }
  }
  const [moved] = await run.query<{ id: string; at: string | Date }>(
    `insert into cash_movements (session_id, amount, reason, user_id, user_name, account_id, payment_id)
     values ($1::uuid, $2::numeric, $3::text, $4::uuid, $5::text, $6::uuid, $7::uuid) returning id, at`,
    [
      sessionId,
      centsText(amount),
      movement.reason,
      actor.id,
      actor.name,
      movement.account,
      movement.paymentId,
    ],
  );
  return { row, moved: moved as { id: string; at: string | Date } };
}

/**
 * Puts cash in (amount > 0) or takes it out (< 0) of an open session's drawer. The session row is
 * locked FOR UPDATE before the drawer is summed, so two cash-outs racing are judged one after the
 * other and never take it below 0: taking out more than it holds (its expected cash now) is a
 * 409 naming what it holds. Answers the movement and the report after it.
 */
export async function moveCash(
  tx: Tx,
  sessionId: string,
  movement: { amount: number; reason: string; account?: string },
  openedBy: string | undefined,
  actor: Actor,
) {
  const run = runnerOf(tx);
  const amount = toCents(movement.amount);
  // DESIGN §19: the account the cash comes from or goes to, when named: an active one of the chart.
  if (movement.account !== undefined) {
    const [account] = isId(movement.account)
      ? await run.query<{ code: string; name: string; active: boolean }>(
          'select code, name, active from accounts where id = $1::uuid',
          [movement.account],
        )
      : [];
    if (!account) throw notFound('Account');
    if (!account.active) throw refuse('ACCOUNT_INACTIVE', { account: `${account.code} ${account.name}` });
  }
  const { row, moved } = await drawerMovement(
    run,
    sessionId,
    { amount, reason: movement.reason, account: movement.account ?? null, paymentId: null },
    openedBy,
    actor,
  );
  const { id, at } = moved;
  await recordAudit(tx, {
    actor,
    action: 'cashMoved',
    entity: { type: 'registerSession', id: sessionId, name: sessionName(row) },
    changes: createdFields({ amount: centsNumber(amount), reason: movement.reason }),
  });
  return {
    movement: {
      _id: id,
      amount: centsNumber(amount),
      reason: movement.reason,
      user: { _id: actor.id, name: actor.name },
      at: new Date(at).toISOString(),
    },
    report: await reportOf(run, sessionId),
  };
}

/**
 * Closes an open session with the drawer counted: the session row is locked FOR UPDATE, the
 * report computed, and the count stored beside the expected cash it was judged against (a count
 * that differs is recorded, never refused). Answers the session and its Z report.
 */
export async function closeSession(
  tx: Tx,
  sessionId: string,
  count: { countedCash: number; note?: string },
  openedBy: string | undefined,
  actor: Actor,
): Promise<{ session: RegisterSession; report: SessionReport }> {
  const run = runnerOf(tx);
  const row = await openSessionLocked(run, sessionId, openedBy);
  const figures = await sessionFigures(run, sessionId);
  if (!figures) throw notFound('Session');
  const counted = centsText(toCents(count.countedCash));
  const report = sessionReport({ ...figures, countedCash: counted });
  await run.query(
    `update register_sessions
     set status = 'closed', counted_cash = $2::numeric, expected_cash = $3::numeric,
         closed_by_id = $4::uuid, closed_by_name = $5::text, closed_at = now(), note = $6::text
     where id = $1::uuid`,
    [sessionId, counted, centsText(toCents(report.expectedCash)), actor.id, actor.name, count.note ?? ''],
  );
  await recordAudit(tx, {
    actor,
    action: 'closed',
    entity: { type: 'registerSession', id: sessionId, name: sessionName(row) },
    changes: createdFields({
      countedCash: report.countedCash,
      expectedCash: report.expectedCash,
      difference: report.difference,
      note: count.note ?? '',
    }),
  });
  const closed = (await sessionRow(run, sessionId, undefined)) as SessionRow;
  return { session: toSession(closed), report };
}

/** What a sessions list is filtered by (see sessionPage). */
export type SessionFilter = {
  registerId?: string;
  /** Only the sessions this user opened (everyone but admins). */
  openedBy?: string;
  status?: 'open' | 'closed';
  /** Days (YYYY-MM-DD) the session was opened, both included, in the server's time zone. */
  from?: string;
  to?: string;
};

/** Whether a register exists (a list filtered by an unknown one is a 404, not an empty page). */
export async function registerExists(runner: Runner, id: string): Promise<boolean> {
  const [row] = await runner.query('select 1 from registers where id = $1::uuid', [id]);
  return row !== undefined;
}

/**
 * Sessions newest first, one page, and how many match. A closed session carries the expected
 * cash and difference its close stored (the Z report's); an open one null for both (its drawer
 * is summed only by its own report). The opened_at indexes (all, and per opener) are in the
 * list's order.
 */
export async function sessionPage(
  runner: Runner,
  filter: SessionFilter,
  window: { limit: number; offset: number },
  timeZone: string,
): Promise<{ sessions: SessionSummary[]; total: number }> {
  const params: unknown[] = [
    filter.registerId ?? null,
    filter.openedBy ?? null,
    filter.status ?? null,
    filter.from ?? null,
    filter.to ?? null,
    timeZone,
  ];
  const where = `($1::uuid is null or rs.register_id = $1::uuid)
    and ($2::uuid is null or rs.opened_by_id = $2::uuid or rs.status = 'open')
    and ($3::text is null or rs.status = $3::text)
    and ($4::date is null or rs.opened_at >= ($4::date)::timestamp at time zone $6::text)
    and ($5::date is null or rs.opened_at < ($5::date + 1)::timestamp at time zone $6::text)`;
  const [rows, [counted]] = await Promise.all([
    runner.query<SessionRow>(
      `select ${SESSION_FIELDS}
       from register_sessions rs join registers r on r.id = rs.register_id
       where ${where}
       order by rs.opened_at desc, rs.id desc limit $7 offset $8`,
      [...params, window.limit, window.offset],
    ),
    runner.query<{ n: number }>(`select count(*)::int as n from register_sessions rs where ${where}`, params),
  ]);
  return {
    sessions: rows.map((row) => {
      const expected = row.expected_cash === null ? null : toCents(row.expected_cash);
      const counted = row.counted_cash === null ? null : toCents(row.counted_cash);
      return {
        ...toSession(row),
        expectedCash: expected === null ? null : centsNumber(expected),
        difference: expected === null || counted === null ? null : centsNumber(counted - expected),
      };
    }),
    total: counted?.n ?? 0,
  };
}
