import { describe, expect, it } from 'vitest';
import {
  CSV_MIME,
  IMPORT_FIELD_HEADER,
  IMPORT_FIELDS,
  ImportFileQuery,
  MAX_IMPORT_BYTES,
  XLSX_MIME,
} from '../../../shared/imports';
import {
  fileProblem,
  formatBytes,
  importContentType,
  importFileName,
  SAMPLE_FILE_NAME,
  sampleCsv,
  sampleCsvHref,
} from './import-file';

/** The cells of one CSV line (RFC 4180: quoted cells may hold commas and doubled quotes). */
function cellsOf(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  return [...cells, cell];
}

describe('the sample file', () => {
  it('has exactly the import header, IMPORT_FIELD_HEADER in field order, then four full rows, the last one into a lot', () => {
    const lines = sampleCsv().split('\r\n');
    expect(cellsOf(lines[0] ?? '')).toEqual(IMPORT_FIELDS.map((field) => IMPORT_FIELD_HEADER[field]));
    expect(lines.at(-1)).toBe('');
    const rows = lines.slice(1, -1);
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(cellsOf(row)).toHaveLength(IMPORT_FIELDS.length);
    // Believable: every row names a product with a price, and the SKUs differ.
    const skus = rows.map((row) => cellsOf(row)[1]);
    expect(new Set(skus).size).toBe(4);
    for (const row of rows) expect(Number(cellsOf(row)[6])).toBeGreaterThan(0);
    // One lot-tracked product: its Lot and a real Expiry day, the others without either.
    const lot = IMPORT_FIELDS.indexOf('lot');
    const expiry = IMPORT_FIELDS.indexOf('expiry');
    expect(rows.map((row) => cellsOf(row)[lot])).toEqual(['', '', '', 'GS-2406-117']);
    expect(rows.map((row) => cellsOf(row)[expiry])).toEqual(['', '', '', '2027-06-30']);
  });

  it('is offered as a data address that decodes back to the same text, named as a CSV', () => {
    const href = sampleCsvHref();
    expect(href.startsWith('data:text/csv;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(href.slice(href.indexOf(',') + 1))).toBe(sampleCsv());
    expect(SAMPLE_FILE_NAME.endsWith('.csv')).toBe(true);
  });
});

describe('the Content-Type a file is sent with', () => {
  it('follows the extension first, in any case, whatever type the browser gave', () => {
    expect(importContentType({ name: 'stock.csv', type: 'application/vnd.ms-excel' })).toBe(CSV_MIME);
    expect(importContentType({ name: 'STOCK.CSV', type: '' })).toBe(CSV_MIME);
    expect(importContentType({ name: 'list.xlsx', type: '' })).toBe(XLSX_MIME);
    expect(importContentType({ name: 'list.XLSX', type: 'application/octet-stream' })).toBe(XLSX_MIME);
  });

  it('falls back on the browser type only without an extension, and refuses anything else', () => {
    expect(importContentType({ name: 'export', type: 'text/csv' })).toBe(CSV_MIME);
    expect(importContentType({ name: 'export', type: XLSX_MIME })).toBe(XLSX_MIME);
    expect(importContentType({ name: 'export', type: '' })).toBeNull();
    expect(importContentType({ name: 'old.xls', type: 'application/vnd.ms-excel' })).toBeNull();
    expect(importContentType({ name: 'photo.png', type: 'image/png' })).toBeNull();
    expect(importContentType({ name: 'notes.txt', type: 'text/plain' })).toBeNull();
    expect(importContentType({ name: '', type: '' })).toBeNull();
    expect(importContentType({ name: '.csv\0', type: '' })).toBeNull();
  });
});

describe('the name a file is sent under', () => {
  const accepted = (name: string) => ImportFileQuery.safeParse({ fileName: name }).success;

  it('keeps an ordinary name as it is', () => {
    expect(importFileName('Spring catalogue 2026.xlsx')).toBe('Spring catalogue 2026.xlsx');
    expect(importFileName('prix d’été.csv')).toBe('prix d’été.csv');
  });

  it('is always a name the server accepts: no NUL, control characters or slashes, at most 255 characters', () => {
    const awkward = [
      'a\0b.csv',
      'tab\there.csv',
      'line\r\nbreak.csv',
      'dir/sub\\file.csv',
      '\u007f.csv',
      `${'x'.repeat(10_000)}.csv`,
      `${'é'.repeat(300)}.xlsx`,
      `${'😀'.repeat(300)}.csv`,
      '   ',
      '',
      '\0',
    ];
    for (const name of awkward) {
      const sent = importFileName(name);
      expect(accepted(sent), JSON.stringify(sent)).toBe(true);
      expect([...sent].length).toBeLessThanOrEqual(255);
    }
    expect(importFileName('a\0b.csv')).toBe('a_b.csv');
    expect(importFileName('')).toBe('products.csv');
  });

  it('keeps the extension when a long name is shortened', () => {
    const sent = importFileName(`${'x'.repeat(10_000)}.xlsx`);
    expect(sent.endsWith('.xlsx')).toBe(true);
    expect(sent.length).toBe(255);
  });
});

describe('a file refused before it is sent', () => {
  const file = (name: string, size: number, type = '') => ({ name, size, type });

  it('says why in one sentence ending with a full stop', () => {
    const problems = [
      fileProblem(file('old.xls', 10)),
      fileProblem(file('photo.png', 10, 'image/png')),
      fileProblem(file('empty.csv', 0)),
      fileProblem(file('huge.csv', MAX_IMPORT_BYTES + 1)),
      fileProblem(file('enormous.xlsx', Number.MAX_SAFE_INTEGER)),
    ];
    for (const problem of problems) expect(problem).toMatch(/^[A-Z].*\.$/);
    expect(problems[0]).toContain('.xlsx or .csv');
    expect(problems[3]).toBe(
      'This file is larger than the 50 MB an import takes: split it into smaller files.',
    );
  });

  it('lets through a file at the limit, of either kind', () => {
    expect(fileProblem(file('ok.csv', MAX_IMPORT_BYTES))).toBeNull();
    expect(fileProblem(file('ok.xlsx', 1))).toBeNull();
  });
});

describe('a file size as people read it', () => {
  it('uses bytes, KB, MB and GB', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(820)).toBe('820 bytes');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(14_540)).toBe('14 KB');
    expect(formatBytes(3.5 * 1024 * 1024)).toBe('3.5 MB');
    expect(formatBytes(50 * 1024 * 1024)).toBe('50 MB');
    expect(formatBytes(5 * 1024 ** 4)).toBe('5,120 GB');
  });

  it('says nothing for sizes that are not sizes', () => {
    expect(formatBytes(Number.NaN)).toBe('');
    expect(formatBytes(-1)).toBe('');
    expect(formatBytes(Number.POSITIVE_INFINITY)).toBe('');
  });
});
