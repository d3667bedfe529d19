import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { type CsvValue, csvRow } from '../../../shared/csv';
import {
  COUNT_SHEET_HEADER,
  CountsResponse,
  type Stocktake,
  StocktakeLinesResponse,
  StocktakeResponse,
} from '../../../shared/stocktakes';
import { nth, tag } from '../../test/fixtures';
import { type Account, parsed, startApp, type TestApp, targets } from '../../test/harness';
import { parseCsv } from '../../test/parse-csv';
import { recordMovements } from '../stock/movements';

/**
 * The count sheet (DESIGN §18, "Paper and files"): GET /api/stocktakes/:id/lines?format=csv is
 * the sheet to fill in; the same file with Counted filled goes back to POST
 * /api/stocktakes/:id/counts as CSV, each filled row setting its line, all rows or none.
 */
describe.each(targets)('the stocktake count sheet on $name', (target) => {
  let t: TestApp;
  let main: string;
  beforeAll(async () => {
    t = await startApp(target);
    main = (await t.sql<{ id: string }>('select default_location() as id'))[0]?.id as string;
  });
  afterAll(() => t?.close());

  const HEADER = COUNT_SHEET_HEADER.join(',');

  /** An untracked product with stock at the main location, its SKU and barcode as given. */
  async function plain(name: string, codes: { sku?: string | null; barcode?: string | null }, stock = 5) {
    const { id } = await t.product({ name, stock });
    await t.sql('update products set sku = $2, barcode = $3 where id = $1', [
      id,
      codes.sku ?? null,
      codes.barcode ?? null,
    ]);
    return id;
  }

  /** A lot-tracked product whose lots are filled by receipts (a lot with 0 holds nothing there). */
  async function tracked(
    name: string,
    sku: string,
    lots: { number: string; expiresOn: string | null; quantity: number }[],
  ) {
    const { id } = await t.product({ name, stock: 0 });
    await t.sql(`update products set tracking = 'lot', sku = $2 where id = $1`, [id, sku]);
    for (const lot of lots) {
      const [row] = await t.sql<{ id: string }>(
        'insert into lots (product_id, number, expires_on) values ($1, $2, $3) returning id',
        [id, lot.number, lot.expiresOn],
      );
      if (lot.quantity > 0)
        await recordMovements({ query: t.sql }, [
          { productId: id, kind: 'receipt', quantity: lot.quantity, lotId: row?.id },
        ]);
    }
    return id;
  }

  async function make(products: string[]): Promise<Stocktake> {
    const answer = await t.call('POST', '/api/stocktakes', {
      token: t.as.admin.token,
      body: { location: main, products },
    });
    expect(answer.status, answer.text).toBe(201);
    return parsed(answer, StocktakeResponse).stocktake;
  }

  const download = (id: string, query = '', who: Account = t.as.salesRep) =>
    t.call('GET', `/api/stocktakes/${id}/lines?format=csv${query}`, { token: who.token });

  function upload(
    id: string,
    body: string | Buffer,
    { type = 'text/csv', who = t.as.salesRep, headers = {} as Record<string, string> } = {},
  ) {
    return t.call('POST', `/api/stocktakes/${id}/counts`, {
      token: who.token,
      body,
      headers: { 'content-type': type, ...headers },
    });
  }

  /** A sheet written as the server writes one: the header, then the rows. */
  const sheet = (rows: CsvValue[][]) => [COUNT_SHEET_HEADER, ...rows].map(csvRow).join('');

  const linesOf = async (id: string) =>
    parsed(
      await t.call('GET', `/api/stocktakes/${id}/lines?pageSize=100`, { token: t.as.admin.token }),
      StocktakeLinesResponse,
    ).lines;

  const countsOf = async (id: string) =>
    t.sql<{ mode: string; quantity: number; sku: string | null; lot: string | null }>(
      `select c.mode, c.quantity, p.sku, lt.number as lot from stocktake_counts c
         join stocktake_lines l on l.id = c.line_id join products p on p.id = l.product_id
         left join lots lt on lt.id = l.lot_id
        where l.stocktake_id = $1 order by c.at, lower(p.name), lt.expires_on nulls last`,
      [id],
    );

  it('GET /api/stocktakes/:id/lines?format=csv answers every line as the six columns, lots with their expiry, Counted empty', async () => {
    const k = tag();
    const tea = await plain(`${k} a Tea, "green"; strong`, { sku: `T-${k}`, barcode: `501${k}` });
    const pills = await tracked(`${k} b Pills`, `P-${k}`, [
      { number: `L1-${k}`, expiresOn: '2027-03-31', quantity: 3 },
      { number: `L2-${k}`, expiresOn: null, quantity: 2 },
      { number: `L0-${k}`, expiresOn: '2026-12-31', quantity: 0 },
    ]);
    const formula = await plain(`=${k} c formula`, { sku: `+F-${k}` });
    const bare = await plain(`${k} d no codes`, {});
    const take = await make([tea, pills, formula, bare]);

    const answer = await download(take._id);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(
      `attachment; filename="${take.number}-count-sheet.csv"`,
    );
    expect(answer.text.startsWith(`"Name","SKU","Barcode","Lot","Expiry","Counted"\r\n`)).toBe(true);
    expect(answer.text).toContain(`"${k} a Tea, ""green""; strong","T-${k}","501${k}",,,\r\n`);
    // Ordered by name: '=' sorts before the tag's digits.
    expect(parseCsv(answer.text)).toEqual([
      [...COUNT_SHEET_HEADER],
      [`'=${k} c formula`, `'+F-${k}`, '', '', '', ''],
      [`${k} a Tea, "green"; strong`, `T-${k}`, `501${k}`, '', '', ''],
      [`${k} b Pills`, `P-${k}`, '', `L1-${k}`, '2027-03-31', ''],
      [`${k} b Pills`, `P-${k}`, '', `L2-${k}`, '', ''],
      [`${k} d no codes`, '', '', '', '', ''],
    ]);

    // A line counted already still has Counted empty; filters hold, paging does not.
    const counted = await t.call('POST', `/api/stocktakes/${take._id}/counts`, {
      token: t.as.salesRep.token,
      body: { counts: [{ product: `T-${k}`, quantity: 7, mode: 'set' }] },
    });
    expect(counted.status, counted.text).toBe(200);
    const all = parseCsv((await download(take._id, '&page=2&pageSize=1')).text);
    expect(all).toHaveLength(6);
    expect(all[2]).toEqual([`${k} a Tea, "green"; strong`, `T-${k}`, `501${k}`, '', '', '']);
    const uncounted = parseCsv((await download(take._id, '&counted=false&pageSize=1')).text);
    expect(uncounted.map((row) => row[0])).toEqual([
      'Name',
      `'=${k} c formula`,
      `${k} b Pills`,
      `${k} b Pills`,
      `${k} d no codes`,
    ]);
    expect(parseCsv((await download(take._id, `&search=L2-${k}`)).text)).toEqual([
      [...COUNT_SHEET_HEADER],
      [`${k} b Pills`, `P-${k}`, '', `L2-${k}`, '', ''],
    ]);
    // The medical rep and the employee read it too; the superAdmin does not; unknown is a 404.
    expect((await download(take._id, '', t.as.medicalRep)).status).toBe(200);
    expect((await download(take._id, '', t.as.user)).status).toBe(200);
    expect((await download(take._id, '', t.as.superAdmin)).status).toBe(403);
    expect((await download('00000000-0000-0000-0000-000000000000')).status).toBe(404);
  });

  it('POST /api/stocktakes/:id/counts takes the downloaded sheet back filled in: filled rows set their lines, empty ones are skipped', async () => {
    const k = tag();
    const tea = await plain(`${k} a Tea`, { sku: `T-${k}`, barcode: `501${k}` }, 10);
    const cup = await plain(`${k} b Cup`, { barcode: `777${k}` }, 4);
    const mug = await plain(`${k} c Mug`, { sku: `M-${k}` }, 2);
    const formula = await plain(`${k} d formula`, { sku: `+F-${k}` }, 1);
    const pills = await tracked(`${k} e Pills`, `P-${k}`, [
      { number: `L1-${k}`, expiresOn: '2027-03-31', quantity: 3 },
      { number: `L2-${k}`, expiresOn: null, quantity: 2 },
    ]);
    const take = await make([tea, cup, mug, formula, pills]);
    // Scanned twice before the sheet comes back: the sheet's count replaces them.
    const scans = await t.call('POST', `/api/stocktakes/${take._id}/counts`, {
      token: t.as.medicalRep.token,
      body: { counts: [{ product: `501${k}`, quantity: 2, mode: 'add' }] },
    });
    expect(scans.status, scans.text).toBe(200);

    const rows = parseCsv((await download(take._id)).text);
    const filled: Record<string, string> = {
      [`${k} a Tea`]: '9',
      [`${k} b Cup`]: ' 4 ',
      [`${k} d formula`]: '0',
    };
    const back = rows.map((row, index) => {
      if (index === 0) return row;
      const [name = '', , , lot] = row;
      const counted = lot === `L1-${k}` ? '5' : (filled[name] ?? '');
      // A spreadsheet saving the file writes its own date format: a known lot is found by its Lot.
      return [...row.slice(0, 4), lot === `L1-${k}` ? '31/03/2027' : (row[4] ?? ''), counted];
    });
    // A lot found on the shelf that the list does not have: a new line, with its expiry.
    back.push([`${k} e Pills`, `P-${k}`, '', `L9-${k}`, '2028-05-01', '1']);
    const text = back.map((row) => csvRow(row)).join('');
    const answer = await upload(take._id, text);
    expect(answer.status, answer.text).toBe(200);
    const body = parsed(answer, CountsResponse);
    expect(body.stocktake.lines).toBe(7);
    expect(body.counted.map((line) => [line.product.name, line.lot?.number ?? null, line.counted])).toEqual([
      [`${k} a Tea`, null, 9],
      [`${k} b Cup`, null, 4],
      [`${k} d formula`, null, 0],
      [`${k} e Pills`, `L1-${k}`, 5],
      [`${k} e Pills`, `L9-${k}`, 1],
    ]);
    expect(body.counted.every((line) => line.countedBy?.name === t.as.salesRep.name)).toBe(true);
    const lines = await linesOf(take._id);
    expect(lines.map((line) => [line.product.name, line.lot?.number ?? null, line.counted])).toEqual([
      [`${k} a Tea`, null, 9],
      [`${k} b Cup`, null, 4],
      [`${k} c Mug`, null, null],
      [`${k} d formula`, null, 0],
      [`${k} e Pills`, `L1-${k}`, 5],
      [`${k} e Pills`, `L9-${k}`, 1],
      [`${k} e Pills`, `L2-${k}`, null],
    ]);
    expect(await countsOf(take._id)).toEqual([
      { mode: 'add', quantity: 2, sku: `T-${k}`, lot: null },
      { mode: 'set', quantity: 9, sku: `T-${k}`, lot: null },
      { mode: 'set', quantity: 4, sku: null, lot: null },
      { mode: 'set', quantity: 0, sku: `+F-${k}`, lot: null },
      { mode: 'set', quantity: 5, sku: `P-${k}`, lot: `L1-${k}` },
      { mode: 'set', quantity: 1, sku: `P-${k}`, lot: `L9-${k}` },
    ]);
    const [lot] = await t.sql<{ expires_on: string }>(
      'select expires_on::text from lots where product_id = $1 and number = $2',
      [pills, `L9-${k}`],
    );
    expect(lot?.expires_on).toBe('2028-05-01');
  });

  it('POST /api/stocktakes/:id/counts refuses a sheet with bad rows by line, and counts none of it', async () => {
    const k = tag();
    const tea = await plain(`${k} a Tea`, { sku: `T-${k}` }, 10);
    const pills = await tracked(`${k} b Pills`, `P-${k}`, [
      { number: `L1-${k}`, expiresOn: '2027-03-31', quantity: 3 },
    ]);
    await plain(`${k} other`, { sku: `O-${k}` }, 1);
    const take = await make([tea, pills]);

    // Two bad rows among good ones (the file's lines 3 and 5; the header is line 1).
    const two = await upload(
      take._id,
      sheet([
        ['Tea', `T-${k}`, null, null, null, 4],
        ['Tea', `T-${k}`, null, null, null, 'four'],
        ['Pills', `P-${k}`, null, `L1-${k}`, null, 3],
        ['Other', `O-${k}`, null, null, null, 1],
      ]),
    );
    expect(two.status, two.text).toBe(400);
    expect(parsed(two, ApiError)).toEqual({
      success: false,
      code: 'STOCKTAKE_SHEET_INVALID',
      error: '2 rows of the sheet cannot be counted, so nothing was counted.',
      details: [
        { path: 'line 3', message: 'Counted must be a whole number from 0 to 1,000,000.' },
        { path: 'line 5', message: `${k} other is not counted in ${take.number}.` },
      ],
    });

    // Every kind of bad row, each named; a new lot on a good row is not kept either.
    const many = await upload(
      take._id,
      sheet([
        ['Tea', `T-${k}`, null, null, null, -1],
        ['Tea', `T-${k}`, null, null, null, 1_000_001],
        ['Tea', `T-${k}`, null, null, null, 2.5],
        ['Nameless', null, null, null, null, 1],
        ['Pills', `P-${k}`, null, null, null, 1],
        ['Tea', `T-${k}`, null, `L1-${k}`, null, 1],
        ['Pills', `P-${k}`, null, `L7-${k}`, '2027-02-30', 1],
        ['Pills', `P-${k}`, null, 'two words ', null, 1],
        ['Tea', `T-${k}`, null, null, null, 1_000_000],
        ['Pills', `P-${k}`, null, `L8-${k}`, '2029-01-01', 2],
      ]),
    );
    expect(many.status, many.text).toBe(400);
    const refused = parsed(many, ApiError);
    expect(refused.code).toBe('STOCKTAKE_SHEET_INVALID');
    expect(refused.details?.map((detail) => detail.path)).toEqual([
      'line 2',
      'line 3',
      'line 4',
      'line 5',
      'line 6',
      'line 7',
      'line 8',
    ]);
    expect(refused.error).toBe('7 rows of the sheet cannot be counted, so nothing was counted.');
    expect(refused.details?.slice(3).map((detail) => detail.message)).toEqual([
      'Give the product’s SKU or barcode: the row has neither.',
      'Name the lot: this product is tracked by lot.',
      `${k} a Tea is not tracked by lot, so name no lot.`,
      'Expiry: That date does not exist.',
    ]);
    // The stocktake's own refusals alone, each named.
    const lots = await upload(
      take._id,
      sheet([
        ['Pills', `P-${k}`, null, null, null, 1],
        ['Tea', `T-${k}`, null, `L1-${k}`, null, 1],
        ['Pills', `P-${k}`, null, `L1-${k}`, '2027-04-01', 1],
      ]),
    );
    expect(parsed(lots, ApiError).details).toEqual([
      { path: 'line 2', message: 'Name the lot: this product is tracked by lot.' },
      { path: 'line 3', message: `${k} a Tea is not tracked by lot, so name no lot.` },
    ]);
    const expiry = await upload(take._id, sheet([['Pills', `P-${k}`, null, `L1-${k}`, '2027-04-01', 1]]));
    expect(parsed(expiry, ApiError).details?.map((d) => d.path)).toEqual(['line 2']);
    expect(parsed(expiry, ApiError).details?.[0]?.message).toContain('2027-03-31');

    // A bad row read after a good new lot: the lot is not made, no line, no count.
    const late = await upload(
      take._id,
      sheet([
        ['Pills', `P-${k}`, null, `L8-${k}`, '2029-01-01', 2],
        ['Tea', `T-${k}`, null, null, null, 'x'],
      ]),
    );
    expect(late.status).toBe(400);
    expect(await countsOf(take._id)).toEqual([]);
    expect(await t.sql('select 1 from lots where number in ($1, $2)', [`L8-${k}`, `L7-${k}`])).toEqual([]);
    expect((await linesOf(take._id)).map((line) => line.counted)).toEqual([null, null]);
  });

  it('POST /api/stocktakes/:id/counts reads a BOM, CRLF or LF, semicolons, quotes, any header case and the other CSV types', async () => {
    const k = tag();
    const tea = await plain(`${k} a Tea`, { sku: `T-${k}` }, 10);
    const cup = await plain(`${k} b Cup`, { barcode: `777${k}` }, 4);
    const take = await make([tea, cup]);
    const bom = await upload(
      take._id,
      `\ufeff${HEADER}\r\n"Tea, green",T-${k},,,,3\r\n"Cup ""big""",,777${k},,,\r\n\r\n`,
    );
    expect(bom.status, bom.text).toBe(200);
    expect(parsed(bom, CountsResponse).counted.map((line) => line.counted)).toEqual([3]);
    const semi = await upload(
      take._id,
      `name;sku;barcode;lot;expiry;counted\n${k} a Tea;T-${k};;;;4\n${k} b Cup;;777${k};;;2`,
      { type: 'application/vnd.ms-excel' },
    );
    expect(semi.status, semi.text).toBe(200);
    expect(parsed(semi, CountsResponse).counted.map((line) => line.counted)).toEqual([4, 2]);
    for (const type of ['text/csv; charset=utf-8', 'application/csv', 'text/plain']) {
      const res = await upload(take._id, `${HEADER}\n,T-${k},,,,5\n`, { type });
      expect(res.status, type).toBe(200);
    }
    const latin = await upload(take._id, `${HEADER}\n,T-${k},,,,5\n`, { type: 'text/csv; charset=latin1' });
    expect(latin.status).toBe(415);
    const other = await upload(take._id, `${HEADER}\n,T-${k},,,,5\n`, { type: 'application/octet-stream' });
    expect(other.status).toBe(415);
  });

  it('POST /api/stocktakes/:id/counts refuses a sheet whose header is not the six columns, saying which', async () => {
    const k = tag();
    const take = await make([await plain(`${k} Tea`, { sku: `T-${k}` })]);
    const cases: [string, string][] = [
      ['Name,SKU,Barcode,Lot,Expiry', 'The sheet has no Counted column'],
      ['Name,SKU,Barcode,Lot,Expiry,Qty', 'The sheet has no Counted column'],
      ['Name,Code,Barcode,Lot,Expiry,Count', 'The sheet has no SKU or Counted column'],
      ['Name,Barcode,SKU,Lot,Expiry,Counted', 'Column 2 must be SKU, not Barcode'],
      [`${HEADER},Notes`, 'The sheet has a column the count sheet does not (Notes)'],
    ];
    for (const [header, message] of cases) {
      const res = await upload(take._id, `${header}\nTea,T-${k},,,,1,\n`);
      expect(res.status, header).toBe(400);
      expect(parsed(res, ApiError).error).toBe(
        `${message}: ${message.startsWith('Column') ? 'the' : 'its'} header must be Name, SKU, Barcode, Lot, Expiry, Counted.`,
      );
    }
    const empty = await upload(take._id, '');
    expect(parsed(empty, ApiError).error).toMatch(/^The file is empty/);
    const unfilled = await upload(take._id, `${HEADER}\nTea,T-${k},,,,\n,,,,, \n`);
    expect(unfilled.status).toBe(400);
    expect(parsed(unfilled, ApiError).error).toBe(
      'No row of the sheet has Counted filled in: write the counts there and send it again.',
    );
    expect(await countsOf(take._id)).toEqual([]);
  });

  it('POST /api/stocktakes/:id/counts holds a sheet to its limits: long cells, NUL, junk bytes, more than 10,000 counts', async () => {
    const k = tag();
    const take = await make([await plain(`${k} Tea`, { sku: `T-${k}` })]);
    // A cell of 10,000 characters is read (the name is not what finds the product); one more is not.
    const long = await upload(take._id, `${HEADER}\n${'n'.repeat(10_000)},T-${k},,,,2\n`);
    expect(long.status, long.text.slice(0, 300)).toBe(200);
    const longer = await upload(take._id, `${HEADER}\n${'n'.repeat(10_001)},T-${k},,,,2\n`);
    expect(longer.status).toBe(400);
    expect(parsed(longer, ApiError).error).toMatch(/^Line 2, column 1 holds more than 10,000 characters/);
    // A SKU no product can have is named without echoing it.
    const sku = await upload(take._id, `${HEADER}\nTea,${'S'.repeat(10_000)},,,,2\n`);
    expect(sku.status).toBe(400);
    expect(parsed(sku, ApiError).details).toEqual([
      { path: 'line 2', message: 'The SKU is longer than 64 characters, so no product has it.' },
    ]);
    expect(sku.text.length).toBeLessThan(400);
    const nul = await upload(take._id, `${HEADER}\nTe\u0000a,T-${k},,,,2\n`);
    expect(nul.status).toBe(400);
    expect(parsed(nul, ApiError).error).toMatch(/^Line 2 holds a NUL character/);
    // 1.8 kB of junk, the same bytes every run.
    let seed = 7;
    const junk = Buffer.alloc(1800, 0);
    for (let i = 0; i < junk.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      junk[i] = seed >> 16;
    }
    for (const body of [junk, Buffer.concat([Buffer.from(`${HEADER}\n`), junk])]) {
      const res = await upload(take._id, body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(parsed(res, ApiError).error).toMatch(/\.$/);
    }
    const printable = Buffer.from(junk.map((byte) => 0x20 + (byte % 0x5f)));
    const words = await upload(take._id, printable);
    expect(words.status).toBe(400);
    // A sheet is not held to the JSON body's 1 MB; 16 MB is its limit.
    const wide = `${'n'.repeat(9000)},T-${k},,,,\n`;
    const large = await upload(take._id, `${HEADER}\n${wide.repeat(200)}Tea,T-${k},,,,6\n`);
    expect(large.status, large.text.slice(0, 300)).toBe(200);
    const huge = await upload(take._id, `${HEADER}\n${wide.repeat(1900)}Tea,T-${k},,,,6\n`);
    expect(huge.status).toBe(413);
    expect(parsed(huge, ApiError).error).toBe('The request body is too large (16 MB at most for this call).');
    const tooMany = await upload(take._id, `${HEADER}\n${`Tea,T-${k},,,,1\n`.repeat(10_001)}`);
    expect(tooMany.status).toBe(400);
    expect(parsed(tooMany, ApiError).error).toBe(
      'The sheet fills more than 10,000 Counted cells; send at most 10,000 counts at once.',
    );
    const most = await upload(take._id, `${HEADER}\n${`Tea,T-${k},,,,1\n`.repeat(9_999)}Tea,T-${k},,,,3\n`);
    expect(most.status, most.text.slice(0, 300)).toBe(200);
    expect(parsed(most, CountsResponse).counted).toMatchObject([{ counted: 3 }]);
  });

  it('POST /api/stocktakes/:id/counts keeps JSON bodies as they were, refuses a sheet elsewhere, once posted, and to the superAdmin', async () => {
    const k = tag();
    const take = await make([await plain(`${k} Tea`, { sku: `T-${k}` })]);
    const bad = await t.call('POST', `/api/stocktakes/${take._id}/counts`, {
      token: t.as.salesRep.token,
      body: { counts: [{ product: `T-${k}`, quantity: -1, mode: 'set' }] },
    });
    expect(bad.status).toBe(400);
    expect(parsed(bad, ApiError)).toMatchObject({
      code: 'VALIDATION',
      details: [{ path: 'counts.0.quantity', message: 'quantity must be at least 0.' }],
    });
    const none = await t.call('POST', `/api/stocktakes/${take._id}/counts`, {
      token: t.as.salesRep.token,
      body: { counts: [] },
    });
    expect(parsed(none, ApiError)).toMatchObject({
      code: 'VALIDATION',
      error: expect.stringMatching(/count/),
    });
    // Only the counts route takes a sheet.
    const make415 = await t.call('POST', '/api/stocktakes', {
      token: t.as.admin.token,
      body: 'location\nx\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(make415.status).toBe(415);
    const row = `${HEADER}\nTea,T-${k},,,,2\n`;
    expect((await upload(take._id, row, { who: t.as.superAdmin })).status).toBe(403);
    expect((await upload(take._id, row, { who: t.as.user })).status).toBe(200);
    expect((await upload('00000000-0000-0000-0000-000000000000', row)).status).toBe(404);

    // The same key and sheet replay; the same key with another sheet is refused.
    const key = { 'idempotency-key': `sheet-${k}` };
    const first = await upload(take._id, row, { headers: key });
    expect(first.status, first.text).toBe(200);
    const again = await upload(take._id, row, { headers: key });
    expect(again.headers['idempotent-replay']).toBe('true');
    const another = await upload(take._id, `${HEADER}\nTea,T-${k},,,,9\n`, { headers: key });
    expect(parsed(another, ApiError).code).toBe('IDEMPOTENCY_REUSED');
    expect((await countsOf(take._id)).map((count) => count.quantity)).toEqual([2, 2]);

    const posted = await t.call('POST', `/api/stocktakes/${take._id}/post`, {
      token: t.as.admin.token,
      body: { uncounted: 'keep' },
    });
    expect(posted.status, posted.text).toBe(200);
    const late = await upload(take._id, row);
    expect(late.status).toBe(409);
    expect(parsed(late, ApiError).code).toBe('STOCKTAKE_STATUS');
    expect(nth(await linesOf(take._id)).counted).toBe(2);
  });
});
