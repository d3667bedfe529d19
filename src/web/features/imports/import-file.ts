import { csvRow } from '../../../shared/csv';
import {
  CSV_MIME,
  IMPORT_FIELD_HEADER,
  IMPORT_FIELDS,
  type ImportField,
  MAX_IMPORT_BYTES,
  XLSX_MIME,
} from '../../../shared/imports';

/**
 * The file an import takes, as the browser holds it: which Content-Type it is sent with, the name
 * it is sent under, what is refused before sending, and the sample file a store can start from.
 */

/** Types browsers give a CSV file (Windows names it after Excel). */
const CSV_TYPES = new Set([
  CSV_MIME,
  'application/csv',
  'text/comma-separated-values',
  'application/vnd.ms-excel',
]);

/**
 * The Content-Type to send `file` with: its extension decides (a browser's own type for a CSV
 * varies), then the type the browser gave; null for anything else.
 */
export function importContentType(file: { name: string; type: string }): string | null {
  const extension = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase();
  if (extension === 'csv') return CSV_MIME;
  if (extension === 'xlsx') return XLSX_MIME;
  if (file.type === XLSX_MIME) return XLSX_MIME;
  if (extension === undefined && CSV_TYPES.has(file.type)) return CSV_MIME;
  return null;
}

/** The longest name the server keeps (`fileName`, src/shared/imports.ts). */
const MAX_NAME = 255;

/**
 * The name the file is sent under: without control characters or slashes (the server refuses
 * them), and a long name's stem shortened so it fits and keeps its extension.
 */
export function importFileName(name: string): string {
  const clean = [...name]
    .map((c) => (c < ' ' || c === '/' || c === '\\' || c === '\u007f' ? '_' : c))
    .join('')
    .trim();
  if (!clean) return 'products.csv';
  const chars = [...clean];
  if (chars.length <= MAX_NAME) return clean;
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 && clean.length - dot <= 10 ? clean.slice(dot) : '';
  return (
    [...clean.slice(0, clean.length - extension.length)].slice(0, MAX_NAME - extension.length).join('') +
    extension
  );
}

/** Why a file cannot be sent at all, or null when it can. */
export function fileProblem(file: { name: string; type: string; size: number }): string | null {
  if (importContentType(file) === null)
    return /\.xls$/i.test(file.name)
      ? 'Old Excel files (.xls) cannot be read: save the sheet as .xlsx or .csv and choose it again.'
      : 'Only CSV (.csv) and Excel (.xlsx) files can be imported.';
  if (file.size === 0) return 'This file is empty: choose the file that holds your products.';
  if (file.size > MAX_IMPORT_BYTES)
    return `This file is larger than the ${formatBytes(MAX_IMPORT_BYTES)} an import takes: split it into smaller files.`;
  return null;
}

/** A file's size as people read it: "820 bytes", "14.2 KB", "3.5 MB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB'] as const;
  let value = bytes / 1024;
  let unit: (typeof units)[number] = units[0];
  for (const next of units.slice(1)) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value).toLocaleString('en-US')} ${unit}`;
}

type SampleRow = Partial<Record<ImportField, string | number | null>>;

/**
 * Four products a small shop might sell; empty cells take the store's defaults. A row with a Lot
 * is a lot-tracked product whose stock goes into that lot (DESIGN §15).
 */
const SAMPLE_ROWS: readonly SampleRow[] = [
  {
    name: 'Ballpoint pen, blue (pack of 10)',
    sku: 'PEN-BLU-10',
    barcode: '5012345678900',
    description: 'Medium point, smudge-free ink.',
    category: 'Stationery',
    supplier: 'Acme Office Supplies',
    price: 4.99,
    cost: 2.1,
    stock: 120,
    reorderPoint: 20,
    reorderQuantity: 100,
    taxRate: null,
    lot: null,
    expiry: null,
  },
  {
    name: 'A4 copy paper, 500 sheets',
    sku: 'PAP-A4-500',
    barcode: '5012345678917',
    description: '80 gsm, bright white.',
    category: 'Paper',
    supplier: 'Acme Office Supplies',
    price: 6.5,
    cost: 3.75,
    stock: 48,
    reorderPoint: 10,
    reorderQuantity: 40,
    taxRate: null,
    lot: null,
    expiry: null,
  },
  {
    name: 'Stapler, full strip',
    sku: 'STA-FS-01',
    barcode: null,
    description: '',
    category: 'Stationery',
    supplier: 'Northwind Traders',
    price: 12,
    cost: 6.8,
    stock: 15,
    reorderPoint: null,
    reorderQuantity: null,
    taxRate: null,
    lot: null,
    expiry: null,
  },
  {
    name: 'Glue stick, 40 g',
    sku: 'GLU-40',
    barcode: null,
    description: 'Solvent-free; dries clear.',
    category: 'Stationery',
    supplier: 'Northwind Traders',
    price: 2.49,
    cost: 0.9,
    stock: 60,
    reorderPoint: 12,
    reorderQuantity: 48,
    taxRate: null,
    lot: 'GS-2406-117',
    expiry: '2027-06-30',
  },
];

/**
 * The sample file: the import's fourteen columns under their headers (the products CSV's twelve,
 * then Lot and Expiry) and four rows, the last one lot-tracked.
 */
export function sampleCsv(): string {
  const header = csvRow(IMPORT_FIELDS.map((field) => IMPORT_FIELD_HEADER[field]));
  return header + SAMPLE_ROWS.map((row) => csvRow(IMPORT_FIELDS.map((field) => row[field] ?? null))).join('');
}

/** The sample as a link's address: a small text, so no object URL to release. */
export function sampleCsvHref(): string {
  return `data:text/csv;charset=utf-8,${encodeURIComponent(sampleCsv())}`;
}

export const SAMPLE_FILE_NAME = 'products-sample.csv';
