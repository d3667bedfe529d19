import { describe, expect, it } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import { MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS } from '../../../shared/imports';
import {
  CsvParser,
  csvRecords,
  readSpreadsheet,
  type SheetRow,
  sniffDelimiter,
  xlsxCellText,
} from './spreadsheet';

/** The records of a CSV text, pushed in pieces of `piece` characters. */
function parse(text: string, delimiter = ',', piece = text.length || 1): string[][] {
  const records: string[][] = [];
  const parser = new CsvParser(delimiter.charCodeAt(0), (cells) => records.push(cells));
  for (let at = 0; at < text.length; at += piece) parser.push(text.slice(at, at + piece));
  parser.end();
  return records;
}

async function* chunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** A CSV read as the upload reads it: header and rows. */
async function readCsv(
  input: string | Uint8Array,
  chunkSize = 7,
): Promise<{ columns: string[]; rows: SheetRow[] }> {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const sheet = await readSpreadsheet('csv', chunks(bytes, chunkSize), 3);
  const rows: SheetRow[] = [];
  for await (const batch of sheet.batches) rows.push(...batch);
  return { columns: sheet.columns, rows };
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { status: (error as { status: number }).status, message: (error as Error).message };
  }
  throw new Error('expected a refusal');
}

describe('CsvParser', () => {
  it('reads quoted commas, doubled quotes, line breaks inside quotes and every line end', () => {
    const text = 'a,"b,1","say ""hi"""\r\n"two\nlines",x,\rlast,"",z';
    expect(parse(text)).toEqual([
      ['a', 'b,1', 'say "hi"'],
      ['two\nlines', 'x', ''],
      ['last', '', 'z'],
    ]);
    // The same, whatever the pieces the text arrives in.
    for (const piece of [1, 2, 3, 5]) expect(parse(text, ',', piece)).toEqual(parse(text));
  });

  it('keeps a quote inside an unquoted cell and text after a closing quote', () => {
    expect(parse('5" screen,"ab"c\n')).toEqual([['5" screen', 'abc']]);
  });

  it('refuses an unterminated quote naming the line it opens on', () => {
    expect(() => parse('a,b\nc,"open\nmore\n')).toThrow(/line 2 is never closed/);
  });

  it('refuses a NUL character naming its line', () => {
    expect(() => parse('a\nb\u0000\n')).toThrow(/Line 2 holds a NUL/);
  });

  it('a CRLF split between pieces ends one record, not two', () => {
    expect(parse('a\r\nb\r\n', ',', 2)).toEqual([['a'], ['b']]);
  });
});

describe('sniffDelimiter', () => {
  const name = (text: string, complete = true) =>
    String.fromCharCode(sniffDelimiter(text, complete)).replace('\t', 'tab');

  it('finds comma, semicolon and tab', () => {
    expect(name('a,b,c\n1,2,3\n')).toBe(',');
    expect(name('a;b;c\n1;2;3\n')).toBe(';');
    expect(name('a\tb\tc\n1\t2\t3\n')).toBe('tab');
  });

  it('a ; file whose quoted text holds commas is a ; file', () => {
    expect(name('"Name";"Description"\n"Tea";"Green, loose, 100 g"\n"Cup";"White, 2, 3, 4"\n')).toBe(';');
  });

  it('a ; file with decimal commas is a ; file', () => {
    expect(name('Name;Price\nTea;12,5\nCoffee;3,75\n')).toBe(';');
  });

  it('a comma file whose names hold semicolons is a comma file', () => {
    expect(name('Name,Price\nA;B,3\nC;D;E,4\n')).toBe(',');
  });

  it('a single-column file is read as one column (comma)', () => {
    expect(name('Name\nTea\nCoffee, black\n')).toBe(',');
    expect(parse('Name\nTea\n"Coffee, black"\n')).toEqual([['Name'], ['Tea'], ['Coffee, black']]);
  });

  it('prefers the delimiter that splits the rows like the header', () => {
    // The header splits on both; only ; gives every row the header's width.
    expect(name('a,b;c;d\n1;2;3\n4;5;6\n')).toBe(';');
  });

  it('ignores a record cut off at the end of an incomplete sample', () => {
    expect(name('a;b\n1;2\n3;"cut, off', false)).toBe(';');
  });
});

describe('reading a CSV upload', () => {
  it('drops a BOM, pads short rows, skips blank rows but counts them, names blank headers', async () => {
    const read = await readCsv('\ufeffName;;Price\r\nTea;x\r\n\r\n;;\r\nCup;y;2,5\r\n');
    expect(read.columns).toEqual(['Name', 'Column 2', 'Price']);
    expect(read.rows).toEqual([
      { line: 2, cells: ['Tea', 'x', ''] },
      { line: 5, cells: ['Cup', 'y', '2,5'] },
    ]);
  });

  it('numbers rows by record: a cell with a line break does not shift the next row', async () => {
    const read = await readCsv('Name,Description\nTea,"two\nlines"\nCup,plain\n', 3);
    expect(read.rows.map((row) => row.line)).toEqual([2, 3]);
  });

  it('reads a multi-byte character split across chunks', async () => {
    const read = await readCsv('Name\nCafé crème ☕\n', 1);
    expect(read.rows[0]?.cells).toEqual(['Café crème ☕']);
  });

  it('refuses invalid UTF-8, an empty file, a blank header, duplicate headers', async () => {
    expect(await refusal(readCsv(new Uint8Array([0x4e, 0x61, 0x0a, 0xff, 0xfe, 0x0a])))).toEqual({
      status: 400,
      message: 'The file is not UTF-8 text; save it as CSV UTF-8 and upload it again.',
    });
    expect((await refusal(readCsv(''))).status).toBe(400);
    expect((await refusal(readCsv('\ufeff'))).message).toMatch(/empty/);
    expect((await refusal(readCsv(',,\nTea,1,2\n'))).message).toMatch(/no header row/);
    expect((await refusal(readCsv('Price,name, PRICE \n1,2,3\n'))).message).toBe(
      'Two columns are named "PRICE"; give each column its own header.',
    );
  });

  it('ends a batch early when its rows hold much text', async () => {
    const long = 'x'.repeat(600_000);
    const sheet = await readSpreadsheet(
      'csv',
      chunks(new TextEncoder().encode(`A\n${long}\n${long}\n${long}\n${long}\nb\n`), 65_536),
      1000,
    );
    const sizes: number[] = [];
    for await (const batch of sheet.batches) sizes.push(batch.length);
    expect(sizes).toEqual([4, 1]);
  });

  it('refuses a row with cells beyond the header, but not empty ones', async () => {
    expect((await readCsv('a,b\n1,2,,\n')).rows).toEqual([{ line: 2, cells: ['1', '2'] }]);
    expect((await refusal(readCsv('a,b\n1,2\n1,2,3\n'))).message).toMatch(/^Line 3 has more cells/);
  });

  it('refuses too many columns and more rows than an import takes', async () => {
    const wide = `${Array.from({ length: MAX_IMPORT_COLUMNS + 1 }, (_, i) => `c${i}`).join(',')}\n`;
    expect((await refusal(readCsv(wide))).message).toMatch(/201 columns/);
    const many = `Name\n${'x\n'.repeat(MAX_IMPORT_ROWS + 1)}`;
    expect(await refusal(readCsv(many, 64 * 1024))).toEqual({
      status: 413,
      message: 'The file has more than 200,000 rows.',
    });
  });

  it('csvRecords reads a file with no line break at its end', async () => {
    const groups: string[][][] = [];
    for await (const group of csvRecords(chunks(new TextEncoder().encode('a;b\n1;2'), 100)))
      groups.push(group);
    expect(groups.flat()).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
});

describe('xlsxCellText', () => {
  it('writes numbers plainly, dates as days, booleans as words', () => {
    expect(xlsxCellText(12.500000000000002)).toBe('12.5');
    expect(xlsxCellText(0.1 + 0.2)).toBe('0.3');
    expect(xlsxCellText(5012345678900)).toBe('5012345678900');
    expect(xlsxCellText(1e21)).toBe('1000000000000000000000');
    expect(xlsxCellText(1.5e-7)).toBe('0.00000015');
    expect(xlsxCellText(new Date('2024-02-29T00:00:00Z'))).toBe('2024-02-29');
    expect(xlsxCellText(true)).toBe('true');
    expect(xlsxCellText(false)).toBe('false');
    expect(xlsxCellText(null)).toBe('');
    expect(xlsxCellText(' text ')).toBe(' text ');
  });
});

describe('reading an XLSX upload', () => {
  it('refuses a workbook whose header names a column twice, and stops reading it', async () => {
    const file = await writeExcelFile([
      ['Name', ' name '],
      ['Tea', 'x'],
      ['Cup', 'y'],
    ]).toBuffer();
    expect(await refusal(readSpreadsheet('xlsx', chunks(file, 1000), 10))).toEqual({
      status: 400,
      message: 'Two columns are named "name"; give each column its own header.',
    });
  });

  it('a workbook read halfway and closed stops its worker', async () => {
    const rows = [['Name'], ...Array.from({ length: 5000 }, (_, i) => [`Product ${i}`])];
    const sheet = await readSpreadsheet('xlsx', chunks(await writeExcelFile(rows).toBuffer(), 4096), 100);
    const first = await sheet.batches.next();
    expect(first.value).toHaveLength(100);
    await sheet.batches.return(undefined);
    expect(await sheet.batches.next()).toEqual({ done: true, value: undefined });
  });
});
