import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccountInput,
  AccountingExportQuery,
  AccountingSettingsInput,
  AccountingSettingsResponse,
  AccountResponse,
  AccountsResponse,
  AccountUpdate,
  AtQuery,
  BalanceSheetResponse,
  BooksCheckResponse,
  JournalEntryResponse,
  JournalQuery,
  JournalResponse,
  LedgerQuery,
  LedgerResponse,
  ManualEntryInput,
  ProfitAndLossResponse,
  ReportQuery,
  ReverseInput,
  TrialBalanceResponse,
} from '../../../shared/accounting';
import { IdParams } from '../../../shared/common';
import { onePage } from '../../../shared/paging';
import { runnerOf } from '../../db/connection';
import { currentUser } from '../../lib/auth';
import { sendCsv } from '../../lib/csv-stream';
import { isId, notFound } from '../../lib/errors';
import { answerOnce } from '../../lib/idempotency';
import { accountLedger, balanceSheet, booksCheck, profitAndLoss, trialBalance } from './books';
import { accountingExport } from './exports';
import {
  createAccount,
  findEntry,
  journalPage,
  listAccounts,
  lockDate,
  postManualEntry,
  reverseEntry,
  setLockDate,
  updateAccount,
} from './journal';

const IDEMPOTENT = ' Accepts an Idempotency-Key.';

/** The days a report covers: `to` today unless given, `from` the first of its month unless given. */
async function range(
  run: { query: <T>(text: string) => Promise<T[]> },
  query: { from?: string; to?: string },
) {
  const [row] = await run.query<{ today: string }>('select store_today()::text as today');
  const to = query.to ?? (row?.today as string);
  return { from: query.from ?? `${to.slice(0, 7)}-01`, to };
}

/** The books (DESIGN §19): the chart, the journal, its reports and its check, for admins. */
export const accountingRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = { config: { permission: 'accounting:read' as const } };
  const write = { config: { permission: 'accounting:write' as const } };
  const tags = ['accounting'];

  app.get(
    '/accounting/accounts',
    {
      ...read,
      schema: {
        tags,
        summary: 'The chart of accounts, by code, with balances',
        response: { 200: AccountsResponse },
      },
    },
    async () => ({ success: true as const, accounts: await listAccounts(app.database) }),
  );

  app.post(
    '/accounting/accounts',
    {
      ...write,
      schema: {
        tags,
        summary: 'Adds an account',
        description: `Codes are unique (409 ACCOUNT_CODE_TAKEN).${IDEMPOTENT}`,
        body: AccountInput,
        response: { 201: AccountResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => ({
        status: 201,
        body: {
          success: true as const,
          account: await createAccount(tx, request.body, currentUser(request)),
        },
      })),
  );

  app.put(
    '/accounting/accounts/:id',
    {
      ...write,
      schema: {
        tags,
        summary: 'Renames, deactivates or reactivates an account',
        description: `An account the postings use stays active (409 ACCOUNT_SYSTEM).${IDEMPOTENT}`,
        params: IdParams,
        body: AccountUpdate,
        response: { 200: AccountResponse },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isId(id)) throw notFound('Account');
      return answerOnce(request, reply, async (tx) => {
        const account = await updateAccount(tx, id, request.body, currentUser(request));
        if (!account) throw notFound('Account');
        return { status: 200, body: { success: true as const, account } };
      });
    },
  );

  app.get(
    '/accounting/journal',
    {
      ...read,
      schema: {
        tags,
        summary: 'The journal, newest first',
        description: 'source filters by kind, sourceId by the document, account by an account id.',
        querystring: JournalQuery,
        response: { 200: JournalResponse },
      },
    },
    async (request) => {
      const window = onePage(request.query);
      if (
        (request.query.sourceId && !isId(request.query.sourceId)) ||
        (request.query.account && !isId(request.query.account))
      )
        return {
          success: true as const,
          entries: [],
          total: 0,
          page: window.page,
          pageSize: window.pageSize,
        };
      const page = await journalPage(app.database, request.query, window);
      return { success: true as const, ...page, page: window.page, pageSize: window.pageSize };
    },
  );

  app.get(
    '/accounting/journal/:id',
    {
      ...read,
      schema: { tags, summary: 'One entry', params: IdParams, response: { 200: JournalEntryResponse } },
    },
    async (request) => {
      const entry = isId(request.params.id) ? await findEntry(app.database, request.params.id) : undefined;
      if (!entry) throw notFound('Journal entry');
      return { success: true as const, entry };
    },
  );

  app.post(
    '/accounting/journal',
    {
      ...write,
      schema: {
        tags,
        summary: 'Adds a manual entry',
        description: `At least two lines, each a debit or a credit above 0 (400 ENTRY_LINE_SIDE), balanced (400 ENTRY_UNBALANCED), on active accounts, dated after the lock date (409 BOOKS_LOCKED).${IDEMPOTENT}`,
        body: ManualEntryInput,
        response: { 201: JournalEntryResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => {
        const run = runnerOf(tx);
        const id = await postManualEntry(tx, request.body, currentUser(request));
        return { status: 201, body: { success: true as const, entry: (await findEntry(run, id)) as never } };
      }),
  );

  app.post(
    '/accounting/journal/:id/reverse',
    {
      ...write,
      schema: {
        tags,
        summary: 'Reverses an entry, once',
        description: `The same lines on the other side, dated the day given or today (409 BOOKS_LOCKED on or before the lock date; 409 ENTRY_REVERSED the second time).${IDEMPOTENT}`,
        params: IdParams,
        body: ReverseInput,
        response: { 201: JournalEntryResponse },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isId(id)) throw notFound('Journal entry');
      return answerOnce(request, reply, async (tx) => {
        const run = runnerOf(tx);
        const reversal = await reverseEntry(tx, id, request.body?.date, currentUser(request));
        if (!reversal) throw notFound('Journal entry');
        return {
          status: 201,
          body: { success: true as const, entry: (await findEntry(run, reversal)) as never },
        };
      });
    },
  );

  app.get(
    '/accounting/settings',
    { ...read, schema: { tags, summary: 'The lock date', response: { 200: AccountingSettingsResponse } } },
    async () => ({ success: true as const, settings: { lockDate: await lockDate(app.database) } }),
  );

  app.put(
    '/accounting/settings',
    {
      ...write,
      schema: {
        tags,
        summary: 'Sets the lock date',
        description:
          'Earlier than today, and only forward (409 LOCK_DATE_INVALID); the same one changes nothing.',
        body: AccountingSettingsInput,
        response: { 200: AccountingSettingsResponse },
      },
    },
    async (request) =>
      app.db.transaction(async (tx) => ({
        success: true as const,
        settings: { lockDate: await setLockDate(tx, request.body.lockDate, currentUser(request)) },
      })),
  );

  app.get(
    '/accounting/trial-balance',
    {
      ...read,
      schema: {
        tags,
        summary: 'The trial balance (JSON or CSV)',
        querystring: ReportQuery,
        response: { 200: TrialBalanceResponse },
      },
    },
    async (request, reply) => {
      const { from, to } = await range(app.database, request.query);
      const report = await trialBalance(app.database, from, to);
      if (request.query.format === 'csv')
        return sendCsv(
          reply,
          `trial-balance-${from}-${to}.csv`,
          ['code', 'account', 'type', 'opening', 'debit', 'credit', 'closing'],
          async () => ({
            rows: report.accounts.map((row) => [
              row.account.code,
              row.account.name,
              row.account.type,
              row.opening,
              row.debit,
              row.credit,
              row.closing,
            ]),
          }),
        );
      return { success: true as const, ...report };
    },
  );

  app.get(
    '/accounting/profit-and-loss',
    {
      ...read,
      schema: {
        tags,
        summary: 'Profit and loss (JSON or CSV)',
        querystring: ReportQuery,
        response: { 200: ProfitAndLossResponse },
      },
    },
    async (request, reply) => {
      const { from, to } = await range(app.database, request.query);
      const report = await profitAndLoss(app.database, from, to);
      if (request.query.format === 'csv')
        return sendCsv(
          reply,
          `profit-and-loss-${from}-${to}.csv`,
          ['section', 'code', 'account', 'amount'],
          async () => ({
            rows: [
              ...report.income.map((row) => ['income', row.account.code, row.account.name, row.amount]),
              ['net sales', '', '', report.netSales],
              ['cost of sales', '', '', report.costOfSales],
              ['gross profit', '', '', report.grossProfit],
              ...report.expenses.map((row) => ['expense', row.account.code, row.account.name, row.amount]),
              ['net profit', '', '', report.netProfit],
            ],
          }),
        );
      return { success: true as const, ...report };
    },
  );

  app.get(
    '/accounting/balance-sheet',
    {
      ...read,
      schema: {
        tags,
        summary: 'The balance sheet at a day (JSON or CSV)',
        querystring: AtQuery,
        response: { 200: BalanceSheetResponse },
      },
    },
    async (request, reply) => {
      const { to: at } = await range(app.database, { to: request.query.at });
      const report = await balanceSheet(app.database, at);
      if (request.query.format === 'csv')
        return sendCsv(
          reply,
          `balance-sheet-${at}.csv`,
          ['section', 'code', 'account', 'balance'],
          async () => ({
            rows: [
              ...report.assets.map((row) => ['asset', row.account.code, row.account.name, row.balance]),
              ...report.liabilities.map((row) => [
                'liability',
                row.account.code,
                row.account.name,
                row.balance,
              ]),
              ...report.equity.map((row) => ['equity', row.account.code, row.account.name, row.balance]),
              ['earnings', '', '', report.earnings],
            ],
          }),
        );
      return { success: true as const, ...report };
    },
  );

  app.get(
    '/accounting/ledger',
    {
      ...read,
      schema: {
        tags,
        summary: 'An account’s lines with the running balance (JSON or CSV)',
        querystring: LedgerQuery,
        response: { 200: LedgerResponse },
      },
    },
    async (request, reply) => {
      const accounts = await listAccounts(app.database);
      const account = accounts.find((row) => row._id === request.query.account);
      if (!account) throw notFound('Account');
      const { from, to } = await range(app.database, request.query);
      const ref = { _id: account._id, code: account.code, name: account.name, type: account.type };
      if (request.query.format === 'csv') {
        const all = await accountLedger(app.database, ref, from, to, { offset: 0, limit: 1_000_000 });
        return sendCsv(
          reply,
          `ledger-${account.code}-${from}-${to}.csv`,
          ['date', 'entry', 'memo', 'source', 'debit', 'credit', 'balance'],
          async () => ({
            rows: all.lines.map((line) => [
              line.entry.date,
              line.entry.number,
              line.entry.memo,
              line.entry.source.kind,
              line.debit,
              line.credit,
              line.balance,
            ]),
          }),
        );
      }
      const window = onePage(request.query);
      const page = await accountLedger(app.database, ref, from, to, window);
      return { success: true as const, ...page, page: window.page, pageSize: window.pageSize };
    },
  );

  app.get(
    '/accounting/export',
    {
      ...read,
      schema: {
        tags,
        summary: 'The journal as files for the accountant (CSV)',
        description:
          'format journal (a row a line), xero (manual journals, one a day, summed by account; credits negative) or quickbooks (QuickBooks Online journal entries); dateFormat iso (YYYY-MM-DD), us (MM/DD/YYYY) or eu (DD/MM/YYYY). Each file balances by itself. Streams.',
        querystring: AccountingExportQuery,
      },
    },
    async (request, reply) => {
      const { from, to } = await range(app.database, request.query);
      const format = request.query.format ?? 'journal';
      const file = accountingExport(app.database, format, {
        from,
        to,
        dateFormat: request.query.dateFormat ?? 'iso',
      });
      return sendCsv(reply, `${format}-${from}-${to}.csv`, file.header, file.read);
    },
  );

  app.get(
    '/accounting/check',
    {
      ...read,
      schema: { tags, summary: 'The books checked against the shop', response: { 200: BooksCheckResponse } },
    },
    async () => ({
      success: true as const,
      ...(await app.database.withoutTimeLimits((runner) => booksCheck(runner))),
    }),
  );
};
