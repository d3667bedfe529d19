// The books (DESIGN §19, decision 0047): the chart of accounts, the journal and what is kept of it.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';

/**
 * The chart of accounts. `system` names an account the postings use (its key, e.g. 'tillCash');
 * null for one an admin added. Codes are unique; a system account is never deactivated.
 */
export const accounts = pg.pgTable(
  'accounts',
  {
    id: id(),
    code: pg.text('code').notNull(),
    name: pg.text('name').notNull(),
    type: pg.text('type').notNull(),
    system: pg.text('system'),
    active: pg.boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    pg.uniqueIndex('accounts_code_key').on(t.code),
    pg.uniqueIndex('accounts_system_key').on(t.system),
    pg.check('accounts_type_known', sql`${t.type} in ('asset','liability','equity','income','expense')`),
    pg.check('accounts_system_active', sql`${t.system} is null or ${t.active}`),
  ],
);

export const journalEntryNumbers = pg.pgSequence('journal_entry_number_seq');

/**
 * One journal entry: posted by journal_post.sql alone (the one writer), in the transaction of the
 * event it names (source_kind, source_id). Nothing updates or deletes an entry, a line or a link
 * (journal_append_only); each balances at commit (journal_entries_balanced, a deferred constraint
 * trigger); none is dated on or before the lock date (journal_entries_unlocked); each source
 * document that is posted once has one entry (journal_entries_source_key).
 */
export const journalEntries = pg.pgTable(
  'journal_entries',
  {
    /**
     * Time-ordered (time_ordered_uuid.sql): entries come in time order, so the key and the lines'
     * keys that start with it grow at their end instead of touching a random page of a large index
     * at every sale (decision 0047's bench).
     */
    id: pg.uuid('id').primaryKey().default(sql`time_ordered_uuid()`),
    number: pg
      .bigint('number', { mode: 'number' })
      .notNull()
      .default(sql`nextval('journal_entry_number_seq')`),
    date: pg.date('date', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
    memo: pg.text('memo').notNull().default(''),
    sourceKind: pg.text('source_kind').notNull(),
    sourceId: pg.uuid('source_id'),
    /** The entry this one reverses (a reversal), at most once. */
    reverses: pg.uuid('reverses'),
    userId: pg.uuid('user_id'),
    userName: pg.text('user_name'),
  },
  (t) => [
    pg.uniqueIndex('journal_entries_number_key').on(t.number),
    pg.uniqueIndex('journal_entries_reverses_key').on(t.reverses).where(sql`${t.reverses} is not null`),
    pg
      .uniqueIndex('journal_entries_source_key')
      .on(t.sourceKind, t.sourceId)
      .where(
        sql`${t.sourceKind} in ('sale','refund','movement','cash','sessionOpen','sessionClose','credit','bill','payment','opening')`,
      ),
    pg.index('journal_entries_source_idx').on(t.sourceId),
    pg.index('journal_entries_date_idx').on(t.date, t.number),
    pg.check(
      'journal_entries_source_known',
      sql`${t.sourceKind} in ('sale','refund','return','receipt','movement','transfer','stocktake','cash','sessionOpen','sessionClose','credit','bill','payment','manual','reversal','opening')`,
    ),
  ],
);

/** A line of an entry: one side, > 0, on one account, with what it concerns. */
export const journalLines = pg.pgTable(
  'journal_lines',
  {
    /**
     * No foreign keys to the entry or the account: an entry and its lines are written by one
     * statement of the one writer (journal_post) and never deleted (journal_append_only), and
     * accounts are never deleted (accounts_kept); a key would cost every posting a check per line
     * and share-lock the same few account rows in every sale (decision 0047's bench).
     */
    entryId: pg.uuid('entry_id').notNull(),
    n: pg.integer('n').notNull(),
    accountId: pg.uuid('account_id').notNull(),
    debit: pg.numeric('debit', { precision: 20, scale: 2 }).notNull().default('0'),
    credit: pg.numeric('credit', { precision: 20, scale: 2 }).notNull().default('0'),
    locationId: pg.uuid('location_id'),
    registerId: pg.uuid('register_id'),
    taxRate: pg.text('tax_rate'),
    supplierId: pg.uuid('supplier_id'),
    customerId: pg.uuid('customer_id'),
  },
  (t) => [
    // A line is its entry's n-th: no id of its own.
    pg.primaryKey({ name: 'journal_lines_entry_n_key', columns: [t.entryId, t.n] }),
    pg.index('journal_lines_account_idx').on(t.accountId, t.entryId),
    pg.check(
      'journal_lines_one_side',
      sql`${t.debit} >= 0 and ${t.credit} >= 0 and (${t.debit} > 0) <> (${t.credit} > 0)`,
    ),
  ],
);

/** Which entry values each stock movement: at most one (DESIGN §19). */
export const journalMovements = pg.pgTable(
  'journal_movements',
  {
    movementId: pg.uuid('movement_id').primaryKey(),
    /** No foreign key, as a line's (written with its entry by journal_post, never deleted). */
    entryId: pg.uuid('entry_id').notNull(),
  },
  (t) => [pg.index('journal_movements_entry_idx').on(t.entryId)],
);

/**
 * Each account's debits and credits per day, kept by journal_lines_counted in the transaction's
 * slot (as sales_days, so concurrent sales do not queue on one row): the reports sum these.
 */
export const accountDays = pg.pgTable(
  'account_days',
  {
    accountId: pg.uuid('account_id').notNull(),
    day: pg.date('day', { mode: 'string' }).notNull(),
    slot: pg.smallint('slot').notNull(),
    debit: pg.numeric('debit', { precision: 20, scale: 2 }).notNull().default('0'),
    credit: pg.numeric('credit', { precision: 20, scale: 2 }).notNull().default('0'),
  },
  (t) => [pg.primaryKey({ columns: [t.accountId, t.day, t.slot] })],
);

/** The books' settings: one row. The lock date: no entry on or before it. */
export const accountingSettings = pg.pgTable(
  'accounting_settings',
  {
    id: pg.boolean('id').primaryKey().default(true),
    lockDate: pg.date('lock_date', { mode: 'string' }),
    /** When the books began (the opening entry, journal.ts openBooks); null until the first start. */
    booksBeganAt: pg.timestamp('books_began_at', { withTimezone: true }),
  },
  (t) => [pg.check('accounting_settings_one_row', sql`${t.id}`)],
);
