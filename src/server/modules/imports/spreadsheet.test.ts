import { describe, expect, it } from 'vitest';
import writeExcelFile from 'write-excel-file/node';
import {
  MAX_IMPORT_CELL_CHARS,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_ROW_CELLS,
  MAX_IMPORT_ROWS,
} from '../../../shared/imports';
import { spacesPart, textCell, workbookFile } from '../../test/zip-files';
import {
  CsvParser,
  csvRecords,
  readSpreadsheet,
  type SheetRow,
  sniffDelimiter,
  Turns,
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

  /** The message of the push that refuses; fails the test when none does. */
  function refusedPush(pieces: string[]): string {
    const parser = new CsvParser(0x2c, () => {});
    for (const piece of pieces) {
      try {
        parser.push(piece);
      } catch (error) {
        return (error as Error).message;
      }
    }
    throw new Error('no piece was refused');
  }

  it('refuses a cell over 10,000 characters while reading it, naming its line and column', () => {
    const max = MAX_IMPORT_CELL_CHARS;
    expect(parse(`a,b\n1,${'x'.repeat(max)}\n`)[1]?.[1]).toHaveLength(max);
    expect(parse(`a,b\n1,"${'x'.repeat(max)}"\n`)[1]?.[1]).toHaveLength(max);
    const message = 'Line 2, column 2 holds more than 10,000 characters; a cell may hold 10,000 at most.';
    // Unquoted and quoted, in one piece or many: refused in the piece that passes the limit,
    // before the file ends (no end() here) and before the cell is made.
    expect(refusedPush([`a,b\n1,${'x'.repeat(max + 1)}`])).toBe(message);
    expect(refusedPush([`a,b\n1,"${'x'.repeat(max + 1)}`])).toBe(message);
    expect(refusedPush(['a,b\n1,"', ...Array.from({ length: 20 }, () => 'x'.repeat(1000))])).toBe(message);
    expect(refusedPush(['a,b\n1,"x""', ...Array.from({ length: 20 }, () => 'y""'.repeat(300))])).toBe(
      message,
    );
    // A quoted cell of line breaks is named by the line it opens on.
    expect(refusedPush([`a,b\nx,y\n1,"${'a\n'.repeat(max)}`])).toBe(
      'Line 3, column 2 holds more than 10,000 characters; a cell may hold 10,000 at most.',
    );
  });

  it('refuses a row over 500 cells while reading it, naming its line', () => {
    expect(parse(`${','.repeat(MAX_IMPORT_ROW_CELLS - 1)}\n`)[0]).toHaveLength(MAX_IMPORT_ROW_CELLS);
    const message = 'Line 2 has more than 500 cells; a row may have 500 at most.';
    expect(refusedPush([`a\n${','.repeat(MAX_IMPORT_ROW_CELLS)}`])).toBe(message);
    expect(refusedPush(['a\n', ...Array.from({ length: 100 }, () => ',,,,,,,,,,')])).toBe(message);
    expect(refusedPush(['a\n', ...Array.from({ length: 100 }, () => '"",'.repeat(10))])).toBe(message);
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
    // Rows of 600,000 characters: 100 cells of 6,000.
    const header = Array.from({ length: 100 }, (_, i) => `c${i}`).join(',');
    const long = Array.from({ length: 100 }, () => 'x'.repeat(6000)).join(',');
    const sheet = await readSpreadsheet(
      'csv',
      chunks(new TextEncoder().encode(`${header}\n${long}\n${long}\n${long}\n${long}\nb\n`), 65_536),
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

  it('a workbook read halfway and closed stops its reading, and ends its turn', async () => {
    const rows = [['Name'], ...Array.from({ length: 5000 }, (_, i) => [`Product ${i}`])];
    const file = await writeExcelFile(rows).toBuffer();
    const sheet = await readSpreadsheet('xlsx', chunks(file, 4096), 100);
    const first = await sheet.batches.next();
    expect(first.value).toHaveLength(100);
    await sheet.batches.return(undefined);
    expect(await sheet.batches.next()).toEqual({ done: true, value: undefined });
    // The next workbook is read at once (a turn not ended would keep it waiting a minute).
    const started = performance.now();
    expect((await readXlsx(file)).rows).toHaveLength(5000);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

/** A workbook read as the upload reads it: header and rows. */
async function readXlsx(file: Uint8Array): Promise<{ columns: string[]; rows: SheetRow[] }> {
  const sheet = await readSpreadsheet('xlsx', chunks(file, 4096), 100);
  const rows: SheetRow[] = [];
  for await (const batch of sheet.batches) rows.push(...batch);
  return { columns: sheet.columns, rows };
}

/** Styles: 0 general, 1 a built-in date (14), 2 a custom date, 3 a custom number, 4 based on a date style. */
const STYLES =
  '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  '<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd;@"/><numFmt numFmtId="165" formatCode="0.00&quot; kg&quot;"/></numFmts>' +
  '<cellStyleXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellStyleXfs>' +
  '<cellXfs count="5"><xf numFmtId="0" xfId="0"/><xf numFmtId="14" xfId="0"/><xf numFmtId="164" xfId="0"/><xf numFmtId="165" xfId="0"/><xf xfId="1"/></cellXfs>' +
  '</styleSheet>';

describe('reading a workbook', () => {
  it('reads shared, rich, inline and formula strings, numbers as stored, dates by their style, booleans, errors', async () => {
    const file = workbookFile(
      '<row r="1">' +
        ['Name', 'Barcode', 'Price', 'Since', 'Active', 'Note', 'Formula']
          .map((text, i) => textCell(`${'ABCDEFG'[i]}1`, text))
          .join('') +
        '</row>' +
        '<row r="2" spans="1:7"><c r="A2" t="s"><v>0</v></c><c r="B2"><v>05012345678900</v></c>' +
        '<c r="C2" s="0"><v>12.500000000000002</v></c><c r="D2" s="1"><v>45351</v></c>' +
        '<c r="E2" t="b"><v>1</v></c><c r="F2" t="s"><v>2</v></c>' +
        '<c r="G2" t="str"><f>A2&amp;"x"</f><v>Teax</v></c></row>' +
        '<row r="4"><c r="A4" t="s"><v>1</v></c><c r="B4" t="e"><f>1/0</f><v>#DIV/0!</v></c>' +
        '<c r="C4" s="3"><v>0.1</v></c><c r="D4" s="2"><v>45352.75</v></c><c r="E4" t="b"><v>0</v></c>' +
        '<c r="F4" t="inlineStr"><is><r><t>in</t></r><r><rPr><b/></rPr><t xml:space="preserve">line </t></r></is></c>' +
        '<c r="G4" s="4"><v>45353</v></c></row>' +
        '<row r="6"><c r="A6" t="s"><v>3</v></c><c r="C6"><v>1E+21</v></c>' +
        '<c r="F6" t="s"><v>4</v></c><c r="G6" t="s"><v>5</v></c></row>' +
        '<row r="7" customFormat="1" s="1"/><row r="8"><c r="A8" s="1"/><c r="B8" t="s"><v>6</v></c></row>',
      {
        sharedStrings: [
          '<t>Tea</t>',
          '<r><t>Gr</t></r><r><rPr><i/></rPr><t>een</t></r>',
          '<t>a_x000D_b &#233;</t>',
          '<t>漢字</t><rPh sb="0" eb="2"><t>かんじ</t></rPh>',
          '<t xml:space="preserve">  spaced  </t>',
          '<t>Fish &amp; chips &lt;3&gt; &quot;x&quot;</t>',
          '<t></t>',
        ],
        styles: STYLES,
      },
    );
    const read = await readXlsx(file);
    expect(read.columns).toEqual(['Name', 'Barcode', 'Price', 'Since', 'Active', 'Note', 'Formula']);
    expect(read.rows).toEqual([
      { line: 2, cells: ['Tea', '5012345678900', '12.5', '2024-02-29', 'true', 'a\rb é', 'Teax'] },
      { line: 4, cells: ['Green', '', '0.1', '2024-03-01', 'false', 'inline ', '2024-03-02'] },
      {
        line: 6,
        cells: ['漢字', '', '1000000000000000000000', '', '', '  spaced  ', 'Fish & chips <3> "x"'],
      },
    ]);
  });

  it('reads dates of a 1904 workbook', async () => {
    const file = workbookFile(
      `<row r="1">${textCell('A1', 'Expiry')}</row><row r="2"><c r="A2" s="1"><v>0</v></c></row>`,
      { styles: STYLES, date1904: true },
    );
    expect((await readXlsx(file)).rows).toEqual([{ line: 2, cells: ['1904-01-01'] }]);
  });

  it('reads cells without references: each after the one before it', async () => {
    const file = workbookFile(
      `<row>${textCell('A1', 'Name')}<c t="inlineStr"><is><t>Price</t></is></c></row>` +
        '<row><c t="inlineStr"><is><t>Tea</t></is></c><c><v>3</v></c></row>' +
        '<row r="4"><c><v>1</v></c><c r="C4"><v>2</v></c></row>',
    );
    expect(await refusal(readXlsx(file))).toEqual({
      status: 400,
      message: 'Line 4 has more cells than the header has columns; give each of its columns a header.',
    });
    // An empty row without a number is a row too: Cup is on line 4.
    const narrow = workbookFile(
      `<row>${textCell('A1', 'Name')}<c t="inlineStr"><is><t>Price</t></is></c></row>` +
        '<row><c t="inlineStr"><is><t>Tea</t></is></c><c><v>3</v></c></row><row/>' +
        '<row><c t="inlineStr"><is><t>Cup</t></is></c></row>',
    );
    expect((await readXlsx(narrow)).rows).toEqual([
      { line: 2, cells: ['Tea', '3'] },
      { line: 4, cells: ['Cup', ''] },
    ]);
  });

  it("refuses a cell past a sheet's last column or row before reading it, naming the cell", async () => {
    const header = `<row r="1">${textCell('A1', 'Name')}</row>`;
    const cases: [string, string][] = [
      [
        `<row r="2">${textCell('ZZZZZZZ2', 'x')}</row>`,
        'Cell ZZZZZZZ2 is past column XFD, the last a sheet can have, so the workbook cannot be read.',
      ],
      [
        '<row r="2"><c r="XFE2" s="1"/></row>',
        'Cell XFE2 is past column XFD, the last a sheet can have, so the workbook cannot be read.',
      ],
      [
        `<row r="1048577">${textCell('A1048577', 'x')}</row>`,
        'Row 1048577 is past row 1,048,576, the last a sheet can have, so the workbook cannot be read.',
      ],
      [
        '<row r="900000000"><c r="A900000000"><v>1</v></c></row>',
        'Row 900000000 is past row 1,048,576, the last a sheet can have, so the workbook cannot be read.',
      ],
      [
        `<row>${textCell('A99999999999999999999', 'x')}</row>`,
        'Cell A99999999999999999999 is past row 1,048,576, the last a sheet can have, so the workbook cannot be read.',
      ],
    ];
    for (const [rows, message] of cases)
      expect(await refusal(readXlsx(workbookFile(header + rows))), message).toEqual({ status: 400, message });
  });

  it("refuses a cell holding a value past the import's columns or rows, and skips an empty one there", async () => {
    const header = `<row r="1">${textCell('A1', 'Name')}</row>`;
    expect(
      await refusal(readXlsx(workbookFile(`${header}<row r="2">${textCell('GS2', 'x')}</row>`))),
    ).toEqual({
      status: 400,
      message: `Cell GS2 is past column GR: an import reads ${MAX_IMPORT_COLUMNS} columns at most.`,
    });
    const below = `A${MAX_IMPORT_ROWS + 2}`;
    expect(
      await refusal(
        readXlsx(workbookFile(`${header}<row r="${MAX_IMPORT_ROWS + 2}">${textCell(below, 'x')}</row>`)),
      ),
    ).toEqual({
      status: 413,
      message: `Cell ${below} is past row 200,001: an import reads a header and 200,000 rows at most.`,
    });
    // Formatted but empty, far out: nothing is read there, so nothing is refused.
    const formatted = workbookFile(
      `${header}<row r="2">${textCell('A2', 'Tea')}<c r="GS2" s="1"/><c r="XFD2" s="1"/></row>` +
        `<row r="1048576"><c r="A1048576" s="1"/></row>`,
      { styles: STYLES },
    );
    expect((await readXlsx(formatted)).rows).toEqual([{ line: 2, cells: ['Tea'] }]);
  });

  it('refuses a cell over 10,000 characters, inline or shared, naming it', async () => {
    const long = 'x'.repeat(MAX_IMPORT_CELL_CHARS + 1);
    const header = `<row r="1">${textCell('A1', 'Name')}${textCell('B1', 'Note')}</row>`;
    const message = 'Cell B2 holds more than 10,000 characters; a cell may hold 10,000 at most.';
    expect(
      await refusal(readXlsx(workbookFile(`${header}<row r="2">${textCell('B2', long)}</row>`))),
    ).toEqual({
      status: 400,
      message,
    });
    const shared = workbookFile(`${header}<row r="2"><c r="B2" t="s"><v>1</v></c></row>`, {
      sharedStrings: ['<t>short</t>', `<t>${long}</t>`],
    });
    expect(await refusal(readXlsx(shared))).toEqual({ status: 400, message });
    // A long string no cell of the first sheet uses is never a problem.
    const unused = workbookFile(`${header}<row r="2"><c r="B2" t="s"><v>0</v></c></row>`, {
      sharedStrings: ['<t>short</t>', `<t>${long}</t>`],
    });
    expect((await readXlsx(unused)).rows).toEqual([{ line: 2, cells: ['', 'short'] }]);
    const exact = 'y'.repeat(MAX_IMPORT_CELL_CHARS);
    expect(
      (await readXlsx(workbookFile(`${header}<row r="2">${textCell('B2', exact)}</row>`))).rows[0]?.cells[1],
    ).toBe(exact);
  });

  it('unpacks only the parts it reads: 800 MB entries elsewhere in the workbook are never inflated', async () => {
    const file = workbookFile(
      `<row r="1">${textCell('A1', 'Name')}</row><row r="2">${textCell('A2', 'Tea')}</row>`,
      {
        parts: [
          spacesPart('xl/worksheets/sheet2.xml', 800),
          spacesPart('xl/media/image1.png', 800),
          spacesPart('xl/theme/theme1.xml', 800),
          spacesPart('docProps/core.xml', 800),
        ],
      },
    );
    const started = performance.now();
    expect((await readXlsx(file)).rows).toEqual([{ line: 2, cells: ['Tea'] }]);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses a part its directory says unpacks past its limit, and parts past 200 MB in all, before inflating them', async () => {
    const rows = `<row r="1">${textCell('A1', 'Name')}</row>`;
    const started = performance.now();
    expect(
      await refusal(readXlsx(workbookFile(rows, { parts: [spacesPart('xl/worksheets/sheet1.xml', 800)] }))),
    ).toEqual({
      status: 413,
      message:
        "The workbook's sheet unpacks to more than the 200 MB an import reads; save the sheet as CSV and upload that.",
    });
    expect(
      await refusal(
        readXlsx(
          workbookFile(rows, {
            sharedStrings: ['<t>x</t>'],
            parts: [spacesPart('xl/sharedStrings.xml', 101)],
          }),
        ),
      ),
    ).toEqual({
      status: 413,
      message:
        "The workbook's shared strings unpack to more than the 100 MB an import reads; save the sheet as CSV and upload that.",
    });
    expect(
      await refusal(
        readXlsx(
          workbookFile(rows, {
            sharedStrings: ['<t>x</t>'],
            parts: [spacesPart('xl/sharedStrings.xml', 90), spacesPart('xl/worksheets/sheet1.xml', 120)],
          }),
        ),
      ),
    ).toEqual({
      status: 413,
      message:
        'The parts of the workbook an import reads unpack to more than 200 MB in all; save the sheet as CSV and upload that.',
    });
    // Refused from the zip's directory: nothing was inflated.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('reads sizes a zip64 field declares, and bounds them alike', async () => {
    const rows = `<row r="1">${textCell('A1', 'Name')}</row><row r="2">${textCell('A2', 'Tea')}</row>`;
    // Its sheet's sizes declared in a zip64 field.
    const sheet = `<?xml version="1.0"?><worksheet><sheetData>${rows}</sheetData></worksheet>`;
    const wide = workbookFile(rows, {
      parts: [{ name: 'xl/worksheets/sheet1.xml', data: sheet, zip64: true }],
    });
    expect((await readXlsx(wide)).rows).toEqual([{ line: 2, cells: ['Tea'] }]);
    const bomb = { ...spacesPart('xl/worksheets/sheet1.xml', 800), zip64: true };
    expect(await refusal(readXlsx(workbookFile(rows, { parts: [bomb] })))).toEqual({
      status: 413,
      message:
        "The workbook's sheet unpacks to more than the 200 MB an import reads; save the sheet as CSV and upload that.",
    });
  });

  it('stops inflating a part the moment it passes what its directory declares', async () => {
    const rows = `<row r="1">${textCell('A1', 'Name')}</row>`;
    const base = process.memoryUsage.rss();
    const lying = workbookFile(rows, { parts: [spacesPart('xl/worksheets/sheet1.xml', 800, 1000)] });
    const started = performance.now();
    expect(await refusal(readXlsx(lying))).toEqual({
      status: 400,
      message:
        'The workbook is damaged: its sheet unpacks to more than its zip directory says; save it again and upload it.',
    });
    expect(performance.now() - started).toBeLessThan(2000);
    expect((process.memoryUsage.rss() - base) / 2 ** 20).toBeLessThan(100);
  });
});

describe('Turns', () => {
  it('lets one in at a time, a few wait in order, and more are refused', async () => {
    const turns = new Turns(2, 10_000, 'busy.', 'waited.');
    const order: number[] = [];
    const first = await turns.take();
    const second = turns.take().then((done) => {
      order.push(2);
      return done;
    });
    const third = turns.take().then((done) => {
      order.push(3);
      return done;
    });
    expect(await refusal(turns.take())).toEqual({ status: 503, message: 'busy.' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    first();
    (await second)();
    (await third)();
    expect(order).toEqual([2, 3]);
    // Free again: the next goes in at once.
    (await turns.take())();
  });

  it('refuses one that waited too long', async () => {
    const turns = new Turns(2, 30, 'busy.', 'waited.');
    const first = await turns.take();
    expect(await refusal(turns.take())).toEqual({ status: 503, message: 'waited.' });
    first();
    (await turns.take())();
  });
});
