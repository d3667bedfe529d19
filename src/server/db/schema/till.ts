// Tills, their sessions and the cash put in or taken out.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { accounts } from './accounting';
import { createdAt, id } from './columns';
import { locations } from './locations';
import { users } from './users';

/** A till (DESIGN §13): a drawer that sessions open and close. "Till 1" exists from the start. */
export const registers = pg.pgTable(
  'registers',
  {
    id: id(),
    name: pg.text('name').notNull(),
    active: pg.boolean('active').notNull().default(true),
    /** Where its sessions' sales take stock from (DESIGN §17). */
    locationId: pg
      .uuid('location_id')
      .notNull()
      .default(sql`default_location()`)
      .references(() => locations.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [pg.uniqueIndex('registers_name_lower_key').on(sql`lower(${t.name})`)],
);

/** Till session numbers: unique and increasing. */
export const registerSessionNumbers = pg.pgSequence('register_session_number_seq');

/**
 * A till session (DESIGN §13): opened with a float, closed with the drawer counted. What the
 * drawer should hold is never stored while open: the report sums the session's sales' payments,
 * its refunds and its cash movements (src/shared/till.ts sessionReport). At close, expected_cash is
 * kept beside counted_cash as the Z report said it. At most one open session per register.
 */
export const registerSessions = pg.pgTable(
  'register_sessions',
  {
    id: id(),
    number: pg
      .bigint('number', { mode: 'number' })
      .notNull()
      .default(sql`nextval('register_session_number_seq')`),
    registerId: pg
      .uuid('register_id')
      .notNull()
      .references(() => registers.id, { onDelete: 'restrict' }),
    status: pg.text('status').notNull().default('open'),
    openedById: pg.uuid('opened_by_id').references(() => users.id, { onDelete: 'set null' }),
    openedByName: pg.text('opened_by_name').notNull(),
    openedAt: pg.timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    openingFloat: pg.numeric('opening_float', { precision: 14, scale: 2 }).notNull(),
    closedById: pg.uuid('closed_by_id').references(() => users.id, { onDelete: 'set null' }),
    closedByName: pg.text('closed_by_name'),
    closedAt: pg.timestamp('closed_at', { withTimezone: true }),
    countedCash: pg.numeric('counted_cash', { precision: 14, scale: 2 }),
    expectedCash: pg.numeric('expected_cash', { precision: 20, scale: 2 }),
    note: pg.text('note').notNull().default(''),
  },
  (t) => [
    pg.check('register_sessions_status_known', sql`${t.status} in ('open','closed')`),
    pg.check('register_sessions_float_nonnegative', sql`${t.openingFloat} >= 0`),
    pg.check(
      'register_sessions_closed_whole',
      sql`(${t.status} = 'closed') = (${t.closedAt} is not null and ${t.countedCash} is not null and ${t.expectedCash} is not null)`,
    ),
    pg.uniqueIndex('register_sessions_number_key').on(t.number),
    pg.uniqueIndex('register_sessions_one_open').on(t.registerId).where(sql`${t.status} = 'open'`),
    pg.index('register_sessions_opened_idx').on(t.openedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg
      .index('register_sessions_user_opened_idx')
      .on(t.openedById, t.openedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/** Cash put into (amount > 0) or taken out of (< 0) a session's drawer, with why (DESIGN §13). */
export const cashMovements = pg.pgTable(
  'cash_movements',
  {
    id: id(),
    sessionId: pg
      .uuid('session_id')
      .notNull()
      .references(() => registerSessions.id, { onDelete: 'restrict' }),
    amount: pg.numeric('amount', { precision: 14, scale: 2 }).notNull(),
    reason: pg.text('reason').notNull(),
    /** DESIGN §19: the account the cash comes from or goes to (null: 1050 Safe in, 6900 out). */
    accountId: pg.uuid('account_id').references(() => accounts.id, { onDelete: 'restrict' }),
    userId: pg.uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: pg.text('user_name').notNull(),
    at: pg.timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * DESIGN §20: the supplier payment this cash paid (written with it, in its transaction; no
     * foreign key, as the payments' schema comes after the till's); the payment posts it, not post_cash.
     */
    paymentId: pg.uuid('payment_id'),
  },
  (t) => [
    pg.check('cash_movements_amount_nonzero', sql`${t.amount} <> 0`),
    pg.index('cash_movements_session_idx').on(t.sessionId),
  ],
);
