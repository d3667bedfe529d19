import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv';

describe('CSV (RFC 4180, no formulas)', () => {
  it.each([
    ['plain', '"plain"'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ['', '""'],
    ['naïve café ✓', '"naïve café ✓"'],
    ['12', '"12"'],
    // A negative number as text is no formula: it comes back as it was (the import's failed rows).
    ['-2', '"-2"'],
    ['-0.50', '"-0.50"'],
  ])('quotes the text %j as %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it.each([
    ['=SUM(A1:A9)', `"'=SUM(A1:A9)"`],
    ['+1', `"'+1"`],
    ['-2+3', `"'-2+3"`],
    ['@cmd', `"'@cmd"`],
    ['\tTab', `"'\tTab"`],
    ['\rCR', `"'\rCR"`],
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
  ])('defuses the formula %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('keeps a cell that holds a semicolon or a tab one quoted cell, so no split starts a formula', () => {
    expect(csvCell("Ann;=cmd|' /C calc'!A0")).toBe(`"Ann;=cmd|' /C calc'!A0"`);
    expect(csvCell('Ann\t=1+1')).toBe('"Ann\t=1+1"');
    expect(csvRow(['Ann;=cmd', 2])).toBe('"Ann;=cmd",2\r\n');
  });

  it('writes a lone minus given as bare without the apostrophe, and any other bare text as a text', () => {
    expect(csvCell('-')).toBe(`"'-"`);
    expect(csvCell({ bare: '-' })).toBe('"-"');
    expect(csvCell({ bare: ' - ' })).toBe('" - "');
    expect(csvCell({ bare: '-1+2' })).toBe(`"'-1+2"`);
    expect(csvCell({ bare: '=cmd' })).toBe(`"'=cmd"`);
    expect(csvCell({ bare: 'plain' })).toBe('"plain"');
  });

  it('writes numbers plainly, negative ones too, and empty for null, undefined and NaN', () => {
    expect(csvRow([-3.5, 0, 12, 0.1, null, undefined, Number.NaN, true])).toBe('-3.5,0,12,0.1,,,,true\r\n');
  });

  it('ends every row with CRLF', () => {
    expect(csvRow(['a', 'b'])).toBe('"a","b"\r\n');
  });
});
