import { readFileSync } from 'node:fs';
import { csvRow } from '../src/shared/csv';
import { IMPORT_FIELD_HEADER, IMPORT_FIELDS } from '../src/shared/imports';
import type { LoadResult } from './http-load';

/** The rows of the benchmark's catalogue file (DESIGN §14's figure). */
export const IMPORT_ROWS = 100_000;
/** Of them, rows naming an existing product by SKU (a price list's changes); the rest are new. */
export const IMPORT_UPDATES = 10_000;

/** The resident memory of process `pid` in MB (Linux), or NaN where /proc is not there. */
function residentMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * A store's spreadsheet as CSV: `updates` rows for the loaded products SKU-000001… with a new
 * price and an empty Stock cell (they keep their stock, so the order runs' stock checks still
 * hold), then new products IMP-… with their stock, over the loaded categories and suppliers.
 */
export function importFile(rows: number, updates: number, categories: number, suppliers: number): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  const parts = [csvRow(IMPORT_FIELDS.map((field) => IMPORT_FIELD_HEADER[field]))];
  for (let i = 1; i <= rows; i++) {
    const update = i <= updates;
    const category = `Category ${pad(1 + (i % categories), 3)}`;
    const supplier = `Supplier ${pad(1 + (i % suppliers), 3)}`;
    const price = ((i % 9000) + 100) / 100;
    parts.push(
      update
        ? csvRow([
            `Updated product ${pad(i, 6)}`,
            `SKU-${pad(i, 6)}`,
            `20${pad(i, 11)}`,
            `Price list ${i}`,
            category,
            supplier,
            price,
            Math.round(price * 60) / 100,
            null,
            null,
            null,
            null,
          ])
        : csvRow([
            `Imported item ${pad(i, 6)}`,
            `IMP-${pad(i, 6)}`,
            `29${pad(i, 11)}`,
            `From the supplier's sheet, row ${i}`,
            category,
            supplier,
            price,
            Math.round(price * 55) / 100,
            i % 40,
            i % 3 === 0 ? 5 : null,
            null,
            null,
          ]),
    );
  }
  return parts.join('');
}

export interface ImportRun {
  rows: number;
  bytes: number;
  uploadSeconds: number;
  checkSeconds: number;
  applySeconds: number;
  summary: { create: number; update: number; unchanged: number; errors: number } | undefined;
  status: string;
  memoryBeforeMb: number;
  memoryPeakMb: number;
  /** The steady dashboard load run while the import applied, and whether the apply outlasted it. */
  during: LoadResult | undefined;
  applyOutlasted: boolean;
  problems: string[];
}

type ImportAnswer = {
  import: {
    _id: string;
    status: string;
    processed: number;
    total: number;
    failure: string | null;
    summary: ImportRun['summary'];
  };
};

/**
 * Uploads, checks and applies the file through the API as an admin would, timing each step and
 * sampling the server's memory every 50 ms throughout; `whileApplying` runs as soon as the apply
 * is accepted (the dashboard at a steady rate: the rest of the app must keep answering).
 */
export async function benchImport(
  url: string,
  headers: Record<string, string>,
  pid: number,
  file: string,
  whileApplying: () => Promise<LoadResult>,
): Promise<ImportRun> {
  const problems: string[] = [];
  const memoryBeforeMb = residentMb(pid);
  let memoryPeakMb = memoryBeforeMb;
  const sampler = setInterval(() => {
    memoryPeakMb = Math.max(memoryPeakMb, residentMb(pid));
  }, 50);
  const call = async (method: string, path: string, body?: string, type = 'application/json') => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': type }) },
      body,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as ImportAnswer;
  };
  const seconds = (since: number) => (performance.now() - since) / 1000;
  const run: ImportRun = {
    rows: file.split('\n').length - 2,
    bytes: Buffer.byteLength(file),
    uploadSeconds: Number.NaN,
    checkSeconds: Number.NaN,
    applySeconds: Number.NaN,
    summary: undefined,
    status: 'not started',
    memoryBeforeMb,
    memoryPeakMb,
    during: undefined,
    applyOutlasted: false,
    problems,
  };
  try {
    let started = performance.now();
    const uploaded = await call(
      'POST',
      '/api/imports/products?fileName=bench-catalogue.csv',
      file,
      'text/csv',
    );
    run.uploadSeconds = seconds(started);
    const id = uploaded.import._id;
    started = performance.now();
    const checked = await call(
      'POST',
      `/api/imports/${id}/check`,
      JSON.stringify({
        mapping: Object.fromEntries(IMPORT_FIELDS.map((field) => [field, IMPORT_FIELD_HEADER[field]])),
        matchBy: 'sku',
        createMissing: { categories: false, suppliers: false },
        stock: 'set',
      }),
    );
    run.checkSeconds = seconds(started);
    run.summary = checked.import.summary;
    started = performance.now();
    await call('POST', `/api/imports/${id}/apply`, '{}');
    let last: ImportAnswer['import'] | undefined;
    const poll = (async () => {
      for (;;) {
        last = (await call('GET', `/api/imports/${id}`)).import;
        if (last.status !== 'applying') return seconds(started);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    run.during = await whileApplying();
    run.applyOutlasted = last?.status === 'applying';
    run.applySeconds = await poll;
    run.status = last?.status ?? 'unknown';
    run.summary = last?.summary ?? run.summary;
    if (last?.status !== 'applied') problems.push(`the import ended ${last?.status}: ${last?.failure ?? ''}`);
    if (last && last.processed !== last.total)
      problems.push(`processed ${last.processed} of ${last.total} rows`);
  } finally {
    clearInterval(sampler);
    run.memoryPeakMb = memoryPeakMb;
  }
  return run;
}
