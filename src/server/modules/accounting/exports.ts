import {
  type AccountingExport,
  EXPORT_HEADERS,
  type ExportDateFormat,
  entryNumberLabel,
  exportDay,
  type SourceKind,
} from '../../../shared/accounting';
import { centsNumber, toCents } from '../../../shared/money';
import type { Runner } from '../../db/connection';
import type { CsvBatch } from '../../lib/csv-stream';
import { SOURCE_NUMBER, sourceNumber } from './journal';

/**
 * DESIGN §20: the files an accountant imports, read from the journal over a range of days. The
 * journal and QuickBooks files are a row a line, streamed in batches in (date, entry, line) order
 * (a keyset: a million sales never sit in memory); Xero's is one journal a day, its lines summed by
 * account, so it is small. Each file balances by itself: every entry does, and Xero's days are sums
 * of whole entries. Numbers are plain (a credit in Xero's file keeps its minus).
 */
export type ExportRange = { from: string; to: string; dateFormat: ExportDateFormat };

/** Where a line-by-line file stopped: its last line's date, entry number and place in the entry. */
export type LineCursor = { date: string; number: number; n: number };

type LineRow = {
  date: string;
  number: string | number;
  n: number;
  code: string;
  name: string;
  debit: string;
  credit: string;
  memo: string;
  kind: SourceKind;
  source_number: string | number | null;
  location: string | null;
  party: string | null;
};

const BATCH = 5000;

/** The journal's lines in the range after `after`, in (date, entry number, n) order. */
async function linesAfter(
  run: Runner,
  range: ExportRange,
  after: LineCursor | undefined,
): Promise<LineRow[]> {
  return run.query<LineRow>(
    `select e.date::text as date, e.number, l.n, a.code, a.name, l.debit::text as debit, l.credit::text as credit,
            e.memo, e.source_kind as kind, ${SOURCE_NUMBER} as source_number, loc.name as location,
            coalesce(cus.name, sup.name) as party
       from journal_entries e
       join journal_lines l on l.entry_id = e.id
       join accounts a on a.id = l.account_id
       left join locations loc on loc.id = l.location_id
       left join customers cus on cus.id = l.customer_id
       left join suppliers sup on sup.id = l.supplier_id
      where e.date between $1::date and $2::date
        and ($3::date is null or (e.date, e.number, l.n) > ($3::date, $4::bigint, $5::int))
      order by e.date, e.number, l.n
      limit ${BATCH}`,
    [range.from, range.to, after?.date ?? null, after?.number ?? 0, after?.n ?? 0],
  );
}

const plain = (money: string) => centsNumber(toCents(money));

/** A batch of a line-by-line file (journal or QuickBooks), and where the next one starts. */
async function lineBatch(
  run: Runner,
  format: 'journal' | 'quickbooks',
  range: ExportRange,
  after: LineCursor | undefined,
): Promise<CsvBatch<LineCursor>> {
  const rows = await linesAfter(run, range, after);
  const last = rows.at(-1);
  return {
    rows: rows.map((row) => {
      const day = exportDay(row.date, range.dateFormat);
      const entry = entryNumberLabel(Number(row.number));
      const number =
        row.source_number === null ? '' : (sourceNumber(row.kind, Number(row.source_number)) ?? '');
      return format === 'journal'
        ? [
            day,
            entry,
            row.code,
            row.name,
            plain(row.debit),
            plain(row.credit),
            row.memo,
            row.kind,
            number,
            row.location ?? '',
          ]
        : [
            entry,
            day,
            `${row.code} ${row.name}`,
            row.memo,
            plain(row.debit),
            plain(row.credit),
            row.party ?? '',
          ];
    }),
    next:
      rows.length === BATCH && last ? { date: last.date, number: Number(last.number), n: last.n } : undefined,
  };
}

/** Xero's manual journals: one a day, each account's lines of the day summed (0 left out). */
async function xeroRows(run: Runner, range: ExportRange): Promise<(string | number)[][]> {
  const rows = await run.query<{ date: string; code: string; name: string; amount: string }>(
    `select e.date::text as date, a.code, a.name, sum(l.debit - l.credit)::text as amount
       from journal_entries e
       join journal_lines l on l.entry_id = e.id
       join accounts a on a.id = l.account_id
      where e.date between $1::date and $2::date
      group by e.date, a.code, a.name
     having sum(l.debit - l.credit) <> 0
      order by e.date, a.code`,
    [range.from, range.to],
  );
  return rows.map((row) => [
    `Inventory MS journal ${row.date}`,
    exportDay(row.date, range.dateFormat),
    row.name,
    row.code,
    'Tax Exempt',
    plain(row.amount),
  ]);
}

/** The file's header and its batches, for sendCsv. */
export function accountingExport(
  run: Runner,
  format: AccountingExport,
  range: ExportRange,
): {
  header: readonly string[];
  read: (after: LineCursor | undefined) => Promise<CsvBatch<LineCursor>>;
} {
  const header = EXPORT_HEADERS[format];
  if (format === 'xero') return { header, read: async () => ({ rows: await xeroRows(run, range) }) };
  return { header, read: (after) => lineBatch(run, format, range, after) };
}
