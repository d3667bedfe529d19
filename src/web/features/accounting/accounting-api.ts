import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { z } from 'zod';
import {
  type AccountInput,
  type AccountingExportQuery,
  AccountingSettingsResponse,
  AccountResponse,
  AccountsResponse,
  type AccountUpdate,
  BalanceSheetResponse,
  BooksCheckResponse,
  JournalEntryResponse,
  type JournalQuery,
  JournalResponse,
  LedgerResponse,
  type ManualEntryInput,
  ProfitAndLossResponse,
  TrialBalanceResponse,
} from '../../../shared/accounting';
import { PayablesResponse, ReceivedNotBilledResponse, TaxReturnResponse } from '../../../shared/bills';
import { SupplierListResponse } from '../../../shared/suppliers';
import { api } from '../../lib/api';
import { idempotencyKeys } from '../../lib/idempotency';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

/**
 * The books' reads and writes (DESIGN §19). Only these screens read the books, so their keys live
 * here, all under `accounting`: every sale, refund or till step elsewhere changes them, so each
 * read is asked again whenever a screen opens (staleTime 0), and every write here refreshes all.
 */

export const JOURNAL_PAGE_SIZE = 20;
export const LEDGER_PAGE_SIZE = 50;

/** The days a report covers; either left out is the server's own (the month to date). */
export type Range = { from?: string; to?: string };

const ROOT = ['accounting'] as const;

/**
 * The API path of each read for a view: the screen asks it, and Download CSV asks the same path
 * with format=csv (csvPath), so the file holds what the screen shows.
 */
export const accountingPaths = {
  accounts: '/accounting/accounts',
  journal: (query: JournalQuery) => withQuery('/accounting/journal', query),
  entry: (id: string) => `/accounting/journal/${encodeURIComponent(id)}`,
  ledger: (account: string, range: Range, page: number) =>
    withQuery('/accounting/ledger', { account, ...range, page, pageSize: LEDGER_PAGE_SIZE }),
  trialBalance: (range: Range) => withQuery('/accounting/trial-balance', range),
  profitAndLoss: (range: Range) => withQuery('/accounting/profit-and-loss', range),
  balanceSheet: (at?: string) => withQuery('/accounting/balance-sheet', { at }),
  check: '/accounting/check',
  settings: '/accounting/settings',
  // DESIGN §20: what is owed to suppliers, what was received and not billed, the tax return.
  payables: (at?: string) => withQuery('/accounting/payables', { at }),
  receivedNotBilled: (supplier?: string) => withQuery('/accounting/received-not-billed', { supplier }),
  taxReturn: (range: Range) => withQuery('/accounting/tax-return', range),
  /** The accountant's file: its `format` is the file's kind, so it is asked as it is (not csvPath). */
  export: (query: AccountingExportQuery) => withQuery('/accounting/export', query),
};

const read = <S extends z.ZodType>(path: string, schema: S, paged = false) =>
  queryOptions({
    queryKey: [...ROOT, path],
    queryFn: ({ signal }) => api(path, { schema, signal }),
    staleTime: 0,
    ...(paged ? { placeholderData: keepPreviousData } : {}),
  });

/** The chart of accounts, by code, with their balances. */
export const accountsQuery = read(accountingPaths.accounts, AccountsResponse);
/** A page of the journal, newest first; the page shown stays while another loads. */
export const journalQuery = (query: JournalQuery) =>
  read(accountingPaths.journal(query), JournalResponse, true);
export const entryQuery = (id: string) => read(accountingPaths.entry(id), JournalEntryResponse);
export const ledgerQuery = (account: string, range: Range, page: number) =>
  read(accountingPaths.ledger(account, range, page), LedgerResponse, true);
export const trialBalanceQuery = (range: Range) =>
  read(accountingPaths.trialBalance(range), TrialBalanceResponse, true);
export const profitAndLossQuery = (range: Range) =>
  read(accountingPaths.profitAndLoss(range), ProfitAndLossResponse, true);
export const balanceSheetQuery = (at?: string) =>
  read(accountingPaths.balanceSheet(at), BalanceSheetResponse, true);
export const booksCheckQuery = read(accountingPaths.check, BooksCheckResponse);
export const settingsQuery = read(accountingPaths.settings, AccountingSettingsResponse);
export const payablesQuery = (at?: string) => read(accountingPaths.payables(at), PayablesResponse, true);
export const receivedNotBilledQuery = (supplier?: string) =>
  read(accountingPaths.receivedNotBilled(supplier), ReceivedNotBilledResponse, true);
export const taxReturnQuery = (range: Range) =>
  read(accountingPaths.taxReturn(range), TaxReturnResponse, true);

/** The suppliers (the Suppliers screen's read): Received not billed is filtered by one. */
export const suppliersQuery = queryOptions({
  queryKey: queryKeys.suppliers,
  queryFn: ({ signal }) => api('/supplier', { schema: SupplierListResponse, signal }),
});

/** One key store per screen or dialog: a write retried after no answer keeps its key. */
export function useKeys() {
  return useRef(idempotencyKeys()).current;
}

/** Whatever a write changes, every figure of the books may change with it: all are asked again. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: ROOT });
}

type Keyed<T> = { input: T; key: string };

export function useCreateAccount() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ input, key }: Keyed<AccountInput>) =>
      api(accountingPaths.accounts, {
        method: 'POST',
        body: input,
        schema: AccountResponse,
        idempotencyKey: key,
      }),
    meta: { inlineErrors: true },
    onSuccess: refresh,
  });
}

/** Renames, deactivates or reactivates an account. */
export function useUpdateAccount() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, input, key }: Keyed<AccountUpdate> & { id: string }) =>
      api(`${accountingPaths.accounts}/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: input,
        schema: AccountResponse,
        idempotencyKey: key,
      }),
    meta: { inlineErrors: true },
    onSettled: refresh,
  });
}

export function usePostEntry() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ input, key }: Keyed<ManualEntryInput>) =>
      api('/accounting/journal', {
        method: 'POST',
        body: input,
        schema: JournalEntryResponse,
        idempotencyKey: key,
      }),
    meta: { inlineErrors: true },
    onSuccess: refresh,
  });
}

/** Reverses an entry, dated today (the server's day); a second time is refused with its sentence. */
export function useReverseEntry() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, key }: { id: string; key: string }) =>
      api(`${accountingPaths.entry(id)}/reverse`, {
        method: 'POST',
        body: {},
        schema: JournalEntryResponse,
        idempotencyKey: key,
      }),
    meta: { inlineErrors: true },
    onSettled: refresh,
  });
}

export function useSetLockDate() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (lockDate: string) =>
      api(accountingPaths.settings, {
        method: 'PUT',
        body: { lockDate },
        schema: AccountingSettingsResponse,
      }),
    meta: { inlineErrors: true },
    onSettled: refresh,
  });
}
