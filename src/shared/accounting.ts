import { z } from 'zod';
import { checkRange, DateOnly, Id, Named, Ok } from './common';
import { ExportFormat, PageInfo, PageQuery } from './paging';

/** DESIGN §19: the books. Money is exact to the cent, as numbers with at most two decimals. */

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'income', 'expense'] as const;
export const AccountType = z.enum(ACCOUNT_TYPES, {
  error: `type must be one of ${ACCOUNT_TYPES.join(', ')}.`,
});
export type AccountType = z.infer<typeof AccountType>;

/** The accounts the postings use, by key: the default chart (DESIGN §19). */
export const SYSTEM_ACCOUNTS = [
  { system: 'tillCash', code: '1000', name: 'Till cash', type: 'asset' },
  { system: 'safe', code: '1050', name: 'Safe', type: 'asset' },
  { system: 'bank', code: '1100', name: 'Bank', type: 'asset' },
  { system: 'clearing', code: '1150', name: 'Card and other clearing', type: 'asset' },
  { system: 'inventory', code: '1300', name: 'Inventory', type: 'asset' },
  { system: 'inTransit', code: '1310', name: 'Goods in transit', type: 'asset' },
  { system: 'inputTax', code: '1400', name: 'Input tax', type: 'asset' },
  { system: 'payable', code: '2000', name: 'Accounts payable', type: 'liability' },
  { system: 'receivedNotBilled', code: '2100', name: 'Goods received not billed', type: 'liability' },
  { system: 'taxPayable', code: '2200', name: 'Tax payable', type: 'liability' },
  { system: 'storeCredit', code: '2300', name: 'Store credit', type: 'liability' },
  { system: 'openingEquity', code: '3000', name: 'Opening balance equity', type: 'equity' },
  { system: 'retainedEarnings', code: '3200', name: 'Retained earnings', type: 'equity' },
  { system: 'sales', code: '4000', name: 'Sales', type: 'income' },
  { system: 'salesReturns', code: '4100', name: 'Sales returns', type: 'income' },
  { system: 'cogs', code: '5000', name: 'Cost of goods sold', type: 'expense' },
  { system: 'writeOffs', code: '5100', name: 'Stock write-offs', type: 'expense' },
  { system: 'adjustments', code: '5150', name: 'Inventory adjustments', type: 'expense' },
  { system: 'priceVariance', code: '5200', name: 'Purchase price variance', type: 'expense' },
  { system: 'overShort', code: '6100', name: 'Cash over and short', type: 'expense' },
  { system: 'expenses', code: '6900', name: 'General expenses', type: 'expense' },
  { system: 'goodwill', code: '6950', name: 'Goodwill', type: 'expense' },
] as const satisfies readonly { system: string; code: string; name: string; type: AccountType }[];
export type SystemAccount = (typeof SYSTEM_ACCOUNTS)[number]['system'];

/** The most an amount of the books may be (a line, a total): 14 digits before the point. */
export const MAX_AMOUNT = 999_999_999_999.99;

export const Account = z.object({
  _id: z.string(),
  code: z.string(),
  name: z.string(),
  type: AccountType,
  /** The posting's key of a default account; null for one an admin added. */
  system: z.string().nullable(),
  active: z.boolean(),
  /** debit − credit over every entry. */
  balance: z.number(),
});
export type Account = z.infer<typeof Account>;
export const AccountsResponse = Ok.extend({ accounts: z.array(Account) });
export const AccountResponse = Ok.extend({ account: Account });

const AccountName = z
  .string({ error: 'name must be text.' })
  .trim()
  .min(1, { error: 'name must not be empty.' })
  .max(100, { error: 'name must be at most 100 characters.' })
  .refine((text) => !text.includes('\u0000'), { error: 'name must not contain NUL.' });

export const AccountInput = z.object({
  code: z
    .string({ error: 'code must be text.' })
    .trim()
    .regex(/^[0-9A-Za-z][0-9A-Za-z.-]{0,19}$/, {
      error: 'code must be 1–20 letters, digits, dots or dashes, starting with a letter or digit.',
    }),
  name: AccountName,
  type: AccountType,
});
export type AccountInput = z.input<typeof AccountInput>;

export const AccountUpdate = z
  .object({
    name: AccountName.optional(),
    active: z.boolean({ error: 'active must be true or false.' }).optional(),
  })
  .refine((body) => body.name !== undefined || body.active !== undefined, {
    error: 'Send a name or active.',
  });
export type AccountUpdate = z.input<typeof AccountUpdate>;

/** The sources an entry names (DESIGN §19). */
export const SOURCE_KINDS = [
  'sale',
  'refund',
  'return',
  'receipt',
  'movement',
  'transfer',
  'stocktake',
  'cash',
  'sessionOpen',
  'sessionClose',
  'credit',
  'bill',
  'payment',
  'manual',
  'reversal',
  'opening',
] as const;
export const SourceKind = z.enum(SOURCE_KINDS, {
  error: `source must be one of ${SOURCE_KINDS.join(', ')}.`,
});
export type SourceKind = z.infer<typeof SourceKind>;

/** JE-000001. */
export const entryNumberLabel = (n: number) => `JE-${String(n).padStart(6, '0')}`;

export const JournalLine = z.object({
  account: z.object({ _id: z.string(), code: z.string(), name: z.string() }),
  debit: z.number(),
  credit: z.number(),
  location: Named.optional(),
  register: Named.optional(),
  taxRate: z.string().optional(),
  supplier: Named.optional(),
  customer: Named.optional(),
});
export type JournalLine = z.infer<typeof JournalLine>;

export const JournalEntry = z.object({
  _id: z.string(),
  number: z.string(),
  date: z.string(),
  createdAt: z.string(),
  memo: z.string(),
  /** The document: its id, and its number where it has one (a sale's receipt number, PO-…, TR-…). */
  source: z.object({ kind: SourceKind, _id: z.string().nullable(), number: z.string().optional() }),
  /** The stock movements it values. */
  movements: z.array(z.string()),
  lines: z.array(JournalLine),
  reverses: z.string().optional(),
  reversedBy: z.string().optional(),
});
export type JournalEntry = z.infer<typeof JournalEntry>;
export const JournalEntryResponse = Ok.extend({ entry: JournalEntry });

const Range = { from: DateOnly.optional(), to: DateOnly.optional() };

export const JournalQuery = PageQuery.pick({ page: true, pageSize: true })
  .extend({
    ...Range,
    source: SourceKind.optional(),
    sourceId: Id.optional(),
    account: Id.optional(),
  })
  .superRefine(checkRange());
export type JournalQuery = z.input<typeof JournalQuery>;
export const JournalResponse = Ok.extend({ entries: z.array(JournalEntry) }).extend(PageInfo.shape);

const Amount = z
  .number({ error: 'Amounts must be numbers.' })
  .min(0, { error: 'Amounts must be 0 or more.' })
  .max(MAX_AMOUNT, { error: 'That amount is too large.' })
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
    error: 'Amounts have at most 2 decimals.',
  });

export const ManualLineInput = z.object({
  account: Id,
  debit: Amount.optional(),
  credit: Amount.optional(),
});

export const ManualEntryInput = z.object({
  date: DateOnly,
  memo: z
    .string({ error: 'memo must be text.' })
    .trim()
    .min(1, { error: 'A manual entry needs a memo.' })
    .max(500, { error: 'memo must be at most 500 characters.' })
    .refine((text) => !text.includes('\u0000'), { error: 'memo must not contain NUL.' }),
  lines: z
    .array(ManualLineInput, { error: 'lines must be a list.' })
    .min(2, { error: 'An entry needs at least two lines.' })
    .max(100, { error: 'An entry has at most 100 lines.' }),
});
export type ManualEntryInput = z.input<typeof ManualEntryInput>;

export const ReverseInput = z.object({ date: DateOnly.optional() });
export type ReverseInput = z.input<typeof ReverseInput>;

export const AccountingSettings = z.object({ lockDate: z.string().nullable() });
export const AccountingSettingsInput = z.object({ lockDate: DateOnly.nullable() });
export type AccountingSettingsInput = z.input<typeof AccountingSettingsInput>;
export const AccountingSettingsResponse = Ok.extend({ settings: AccountingSettings });

export const ReportQuery = z.object({ ...Range, format: ExportFormat }).superRefine(checkRange());
export type ReportQuery = z.input<typeof ReportQuery>;
export const AtQuery = z.object({ at: DateOnly.optional(), format: ExportFormat });

/**
 * DESIGN §20: the files for the accountant. `journal`, one row a line; `xero`, Xero's manual
 * journal CSV (one journal a day, summed by account); `quickbooks`, QuickBooks Online's journal
 * CSV. Dates as `iso` YYYY-MM-DD (default), `us` MM/DD/YYYY or `eu` DD/MM/YYYY.
 */
export const ACCOUNTING_EXPORTS = ['journal', 'xero', 'quickbooks'] as const;
export const AccountingExport = z.enum(ACCOUNTING_EXPORTS, {
  error: `format must be one of ${ACCOUNTING_EXPORTS.join(', ')}.`,
});
export type AccountingExport = z.infer<typeof AccountingExport>;
export const EXPORT_DATE_FORMATS = ['iso', 'us', 'eu'] as const;
export const ExportDateFormat = z.enum(EXPORT_DATE_FORMATS, {
  error: `dateFormat must be one of ${EXPORT_DATE_FORMATS.join(', ')}.`,
});
export type ExportDateFormat = z.infer<typeof ExportDateFormat>;
export const AccountingExportQuery = z
  .object({ ...Range, format: AccountingExport.optional(), dateFormat: ExportDateFormat.optional() })
  .superRefine(checkRange());
export type AccountingExportQuery = z.input<typeof AccountingExportQuery>;
/** Each file's header row (DESIGN §20). */
export const EXPORT_HEADERS: Record<AccountingExport, readonly string[]> = {
  journal: [
    'Date',
    'Entry',
    'Account code',
    'Account name',
    'Debit',
    'Credit',
    'Memo',
    'Source',
    'Source number',
    'Location',
  ],
  xero: ['Narration', 'Date', 'Description', 'AccountCode', 'TaxRate', 'Amount'],
  quickbooks: ['Journal No', 'Journal Date', 'Account Name', 'Description', 'Debits', 'Credits', 'Name'],
};
/** A day (YYYY-MM-DD) as the file's date format writes it. */
export function exportDay(day: string, how: ExportDateFormat = 'iso'): string {
  const [y, m, d] = day.split('-');
  return how === 'us' ? `${m}/${d}/${y}` : how === 'eu' ? `${d}/${m}/${y}` : day;
}

const AccountRef = z.object({ _id: z.string(), code: z.string(), name: z.string(), type: AccountType });

export const TrialBalanceResponse = Ok.extend({
  from: z.string(),
  to: z.string(),
  accounts: z.array(
    z.object({
      account: AccountRef,
      opening: z.number(),
      debit: z.number(),
      credit: z.number(),
      closing: z.number(),
    }),
  ),
  totals: z.object({ debit: z.number(), credit: z.number() }),
});
export type TrialBalanceResponse = z.infer<typeof TrialBalanceResponse>;

const Amounted = z.object({ account: AccountRef, amount: z.number() });
export const ProfitAndLossResponse = Ok.extend({
  from: z.string(),
  to: z.string(),
  income: z.array(Amounted),
  netSales: z.number(),
  costOfSales: z.number(),
  grossProfit: z.number(),
  expenses: z.array(Amounted),
  netProfit: z.number(),
  /** Each month of the range: net sales, cost of sales, net profit (the chart by month). */
  months: z.array(
    z.object({ month: z.string(), netSales: z.number(), costOfSales: z.number(), netProfit: z.number() }),
  ),
});
export type ProfitAndLossResponse = z.infer<typeof ProfitAndLossResponse>;

const Balanced = z.object({ account: AccountRef, balance: z.number() });
export const BalanceSheetResponse = Ok.extend({
  at: z.string(),
  assets: z.array(Balanced),
  liabilities: z.array(Balanced),
  equity: z.array(Balanced),
  earnings: z.number(),
  totals: z.object({ assets: z.number(), liabilities: z.number(), equity: z.number() }),
});
export type BalanceSheetResponse = z.infer<typeof BalanceSheetResponse>;

export const LedgerQuery = PageQuery.pick({ page: true, pageSize: true })
  .extend({ account: Id, ...Range, format: ExportFormat })
  .superRefine(checkRange());
export const LedgerResponse = Ok.extend({
  account: AccountRef,
  opening: z.number(),
  lines: z.array(
    z.object({
      entry: z.object({
        _id: z.string(),
        number: z.string(),
        date: z.string(),
        memo: z.string(),
        source: z.object({ kind: SourceKind, _id: z.string().nullable() }),
      }),
      debit: z.number(),
      credit: z.number(),
      balance: z.number(),
    }),
  ),
}).extend(PageInfo.shape);
export type LedgerResponse = z.infer<typeof LedgerResponse>;

export const BooksCheck = z.object({
  name: z.string(),
  ok: z.boolean(),
  expected: z.number(),
  actual: z.number(),
});
export const BooksCheckResponse = Ok.extend({ ok: z.boolean(), checks: z.array(BooksCheck) });
export type BooksCheckResponse = z.infer<typeof BooksCheckResponse>;
