import { describe, expect, it } from 'vitest';
import { type CsvValue, csvRow } from '../../shared/csv';
import { CsvWriter } from './csv-stream';

const written = (rows: CsvValue[][]) => {
  const out = new CsvWriter();
  for (const row of rows) out.row(row);
  return Buffer.concat(out.take()).toString('utf8');
};

describe('CSV batches written as bytes', () => {
  it('CsvWriter writes what csvRow writes, row after row, in UTF-8', () => {
    const rows: CsvValue[][] = [
      ['=1+2', 'a,b', -1.5, null, undefined, Number.NaN, true],
      ['say "hi"', '\tTab', 0, false, '\rCR', 'two\nlines'],
      [],
      ['naïve café ✓', '😀 emoji', '-2+3', '@cmd', '+1', 'ünïcödé, "quoted"'],
      ['x'.repeat(5000), '€'.repeat(3000)],
    ];
    expect(written(rows)).toBe(rows.map(csvRow).join(''));
    expect(written([])).toBe('');
  });

  it('hands over its bytes in chunks of 64 kB, a longer cell in a chunk of its own', () => {
    const out = new CsvWriter();
    const rows: CsvValue[][] = Array.from({ length: 3000 }, (_, i) => [i, `€ ${'ä'.repeat(i % 400)}`, null]);
    for (const row of rows) out.row(row);
    const chunks = out.take();
    expect(chunks.length).toBeGreaterThan(10);
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThanOrEqual(64 * 1024);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(rows.map(csvRow).join(''));
    expect(out.take()).toEqual([]);
    out.row(['€'.repeat(30_000)]);
    out.row(['a']);
    const long = out.take();
    // Three bytes a euro sign, two quotes, CRLF; then "a" and CRLF.
    expect(long.map((chunk) => chunk.length)).toEqual([90_004, 5]);
    expect(Buffer.concat(long).toString('utf8')).toBe(`"${'€'.repeat(30_000)}"\r\n"a"\r\n`);
  });
});
