// Tills, their sessions and the cash put in or taken out.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  numeric,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { users } from './users';

/** A till (DESIGN §13): a drawer that sessions open and close. "Till 1" exists from the start. */
export const registers = pgTable(
  'registers',
  {
    id: id(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('registers_name_lower_key').on(sql`lower(${t.name})`)],
);

/** Till session numbers: unique and increasing. */
export const registerSessionNumbers = pgSequence('register_session_number_seq');

/**
 * A till session (DESIGN §13): opened with a float, closed with the drawer counted. What the
 * drawer should hold is never stored while open: the report sums the session's sales' payments,
 * its refunds and its cash movements (src/shared/till.ts sessionReport). At close, expected_cash is
 * kept beside counted_cash as the Z report said it. At most one open session per register.
 */
export const registerSessions = pgTable(
  'register_sessions',
  {
    id: id(),
    number: bigint('number', { mode: 'number' })
      .notNull()
      .default(sql`nextval('register_session_number_seq')`),
    registerId: uuid('register_id')
      .notNull()
      .references(() => registers.id, { onDelete: 'restrict' }),
    status: text('status').notNull().default('open'),
    openedById: uuid('opened_by_id').references(() => users.id, { onDelete: 'set null' }),
    openedByName: text('opened_by_name').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    openingFloat: numeric('opening_float', { precision: 14, scale: 2 }).notNull(),
    closedById: uuid('closed_by_id').references(() => users.id, { onDelete: 'set null' }),
    closedByName: text('closed_by_name'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    countedCash: numeric('counted_cash', { precision: 14, scale: 2 }),
    expectedCash: numeric('expected_cash', { precision: 20, scale: 2 }),
    note: text('note').notNull().default(''),
  },
  (t) => [
    check('register_sessions_status_known', sql`${t.status} in ('open','closed')`),
    check('register_sessions_float_nonnegative', sql`${t.openingFloat} >= 0`),
    check(
      'register_sessions_closed_whole',
      sql`(${t.status} = 'closed') = (${t.closedAt} is not null and ${t.countedCash} is not null and ${t.expectedCash} is not null)`,
    ),
    uniqueIndex('register_sessions_number_key').on(t.number),
    uniqueIndex('register_sessions_one_open').on(t.registerId).where(sql`${t.status} = 'open'`),
    index('register_sessions_opened_idx').on(t.openedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('register_sessions_user_opened_idx').on(
      t.openedById,
      t.openedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
  ],
);

/** Cash put into (amount > 0) or taken out of (< 0) a session's drawer, with why (DESIGN §13). */
export const cashMovements = pgTable(
  'cash_movements',
  {
    id: id(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => registerSessions.id, { onDelete: 'restrict' }),
    amount: numeric('amount', { precision: 14, scale: 2 }).notNull(),
    reason: text('reason').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('cash_movements_amount_nonzero', sql`${t.amount} <> 0`),
    index('cash_movements_session_idx').on(t.sessionId),
  ],
);
