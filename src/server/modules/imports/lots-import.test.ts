import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { csvRow } from '../../../shared/csv';
import {
  type ImportCheckInput,
  ImportResponse,
  type ImportRow,
  ImportRowsResponse,
} from '../../../shared/imports';
import { tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { lotLedgerOf } from '../../test/lot-ledger';
import { recordMovements } from '../stock/movements';
import { BATCH_ROWS } from './apply-batches';
import { createImport } from './imports.repository';

const HEADER = ['Name', 'SKU', 'Category', 'Supplier', 'Price', 'Stock', 'Lot', 'Expiry'] as const;
type Cells = Partial<Record<(typeof HEADER)[number], string | number>>;

/**
 * The catalogue import with lots (DESIGN §14, §15): a Lot column makes new products lot-tracked
 * with their stock in that lot, sets (counts) or adds into a lot of a tracked product, and refuses
 * rows that would break the lots' rules; after the apply every lot is the sum of its movements
 * and every product the sum of its lots and of its movements.
 */
describe.each(targets)('a catalogue import with lots on $name', (target) => {
  let t: TestApp;
  let category: string;
  let supplier: string;
  beforeAll(async () => {
    t = await startApp(target);
    const k = tag();
    category = `Medicines ${k}`;
    supplier = `Pharma ${k}`;
    await t.sql('insert into categories (name) values ($1)', [category]);
    await t.sql('insert into suppliers (name) values ($1)', [supplier]);
  });
  afterAll(() => t?.close());

  const admin = () => t.as.admin.token;
  /** A row of a new product: its name and SKU from `sku`, the test's category and supplier, price 3. */
  const row = (sku: string, cells: Cells = {}): Cells => ({
    Name: `Tablets ${sku}`,
    SKU: sku,
    Category: category,
    Supplier: supplier,
    Price: '3.00',
    ...cells,
  });
  const fileOf = (rows: Cells[], header: readonly string[] = HEADER) =>
    [header, ...rows.map((cells) => header.map((column) => cells[column as keyof Cells] ?? ''))]
      .map((cells) => csvRow(cells))
      .join('');

  const upload = async (rows: Cells[], header: readonly string[] = HEADER) => {
    const fileName = `lots-${tag()}.csv`;
    const res = await t.call('POST', `/api/imports/products?fileName=${fileName}`, {
      token: admin(),
      body: fileOf(rows, header),
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status, res.text).toBe(201);
    return { ...ImportResponse.parse(res.body).import, fileName };
  };
  const check = async (id: string, body: Partial<ImportCheckInput>) => {
    const res = await t.call('POST', `/api/imports/${id}/check`, { token: admin(), body });
    expect(res.status, res.text).toBe(200);
    return ImportResponse.parse(res.body).import;
  };
  const rowsOf = async (id: string): Promise<ImportRow[]> => {
    const res = await t.call('GET', `/api/imports/${id}/rows?pageSize=100`, { token: admin() });
    expect(res.status, res.text).toBe(200);
    return ImportRowsResponse.parse(res.body).rows;
  };
  const applied = async (id: string) => {
    const res = await t.call('POST', `/api/imports/${id}/apply`, { token: admin(), body: {} });
    expect(res.status, res.text).toBe(202);
    await t.app.importApplier.applying(id);
    const [record] = await t.sql<{ status: string; failure: string | null }>(
      'select status, failure from imports where id = $1',
      [id],
    );
    expect(record).toEqual({ status: 'applied', failure: null });
  };
  /** Uploads, checks with the mapping guessed from the header, and answers the rows. */
  const dryRun = async (
    rows: Cells[],
    options: Partial<ImportCheckInput> = {},
    header: readonly string[] = HEADER,
  ) => {
    const uploaded = await upload(rows, header);
    const checked = await check(uploaded._id, { mapping: uploaded.mapping, ...options });
    return {
      id: uploaded._id,
      fileName: uploaded.fileName,
      summary: checked.summary,
      rows: await rowsOf(uploaded._id),
    };
  };

  const productBySku = async (sku: string) =>
    (
      await t.sql<{ id: string; stock: number; tracking: string }>(
        'select id, stock, tracking from products where sku = $1',
        [sku],
      )
    )[0];
  const lotsOf = async (productId: string) =>
    t.sql<{ number: string; expiresOn: string | null; quantity: number }>(
      `select number, expires_on::text as "expiresOn", quantity from lots where product_id = $1 order by number`,
      [productId],
    );
  const movementsOf = async (productId: string) =>
    t.sql<{
      kind: string;
      quantity: number;
      reason: string | null;
      note: string;
      lot: string | null;
      userId: string | null;
    }>(
      `select m.kind, m.quantity, m.reason, m.note, l.number as lot, m.user_id as "userId"
         from stock_movements m left join lots l on l.id = m.lot_id
        where m.product_id = $1 order by m.at, m.id`,
      [productId],
    );
  /** lot = Σ its movements, product = Σ lots = Σ movements (lot-tracked), product = Σ movements (all). */
  async function ledgerHolds(productId: string) {
    const row = await lotLedgerOf(t.sql, productId);
    expect(row?.ledger).toBe(row?.stock);
    expect(row?.bad).toBe(0);
    if (row?.tracking === 'lot') expect(row.lots).toBe(row.stock);
    else expect(row?.lots).toBe(0);
  }

  /** A lot-tracked product with this SKU and lots, each filled by a receipt movement. */
  async function tracked(
    sku: string,
    lots: { number: string; expiresOn: string | null; quantity: number }[],
  ) {
    const { id } = await t.product({ stock: 0, name: `Tracked ${sku}` });
    await t.sql(`update products set tracking = 'lot', sku = $2 where id = $1`, [id, sku]);
    for (const lot of lots) {
      const [made] = await t.sql<{ id: string }>(
        'insert into lots (product_id, number, expires_on) values ($1, $2, $3) returning id',
        [id, lot.number, lot.expiresOn],
      );
      await recordMovements({ query: t.sql }, [
        { productId: id, kind: 'receipt', quantity: lot.quantity, lotId: made?.id },
      ]);
    }
    return id;
  }
  /** A product without lots with this SKU and stock. */
  async function untracked(sku: string, stock: number) {
    const { id } = await t.product({ stock, name: `Plain ${sku}` });
    await t.sql('update products set sku = $2 where id = $1', [id, sku]);
    return id;
  }

  describe('new products', () => {
    it('a row with a Lot creates its product lot-tracked, its stock in that lot by one initial movement naming it', async () => {
      const k = tag();
      const run = await dryRun([
        row(`A${k}`, { Stock: 12, Lot: 'L-1', Expiry: '2027-05-31' }),
        row(`B${k}`, { Lot: 'L 2' }),
        row(`C${k}`, { Stock: 5 }),
      ]);
      expect(run.summary).toMatchObject({ create: 3, update: 0, unchanged: 0, errors: 0 });
      // The dry run says which lot each new product's stock goes into.
      expect(run.rows.map((r) => r.changes)).toEqual([
        [{ field: 'lot', from: null, to: 'L-1 (new, expires 2027-05-31): 12' }],
        [{ field: 'lot', from: null, to: 'L 2 (new, no expiry): 0' }],
        undefined,
      ]);
      await applied(run.id);

      const a = await productBySku(`A${k}`);
      expect(a).toMatchObject({ stock: 12, tracking: 'lot' });
      expect(await lotsOf(a?.id as string)).toEqual([
        { number: 'L-1', expiresOn: '2027-05-31', quantity: 12 },
      ]);
      expect(await movementsOf(a?.id as string)).toEqual([
        {
          kind: 'initial',
          quantity: 12,
          reason: null,
          note: `import ${run.fileName}`,
          lot: 'L-1',
          userId: t.as.admin.id,
        },
      ]);
      const b = await productBySku(`B${k}`);
      expect(b).toMatchObject({ stock: 0, tracking: 'lot' });
      expect(await lotsOf(b?.id as string)).toEqual([{ number: 'L 2', expiresOn: null, quantity: 0 }]);
      expect(await movementsOf(b?.id as string)).toEqual([
        {
          kind: 'initial',
          quantity: 0,
          reason: null,
          note: `import ${run.fileName}`,
          lot: 'L 2',
          userId: t.as.admin.id,
        },
      ]);
      // A row without a Lot is a product without lots, as before.
      const c = await productBySku(`C${k}`);
      expect(c).toMatchObject({ stock: 5, tracking: 'none' });
      expect(await lotsOf(c?.id as string)).toEqual([]);
      expect(await movementsOf(c?.id as string)).toEqual([
        {
          kind: 'initial',
          quantity: 5,
          reason: null,
          note: `import ${run.fileName}`,
          lot: null,
          userId: t.as.admin.id,
        },
      ]);
      for (const product of [a, b, c]) await ledgerHolds(product?.id as string);
    });

    it('stock ignore still creates the product lot-tracked, its lot empty', async () => {
      const k = tag();
      const run = await dryRun([row(`I${k}`, { Stock: 9, Lot: 'IG', Expiry: '2026-12-31' })], {
        stock: 'ignore',
      });
      expect(run.summary).toMatchObject({ create: 1, errors: 0 });
      await applied(run.id);
      const product = await productBySku(`I${k}`);
      expect(product).toMatchObject({ stock: 0, tracking: 'lot' });
      expect(await lotsOf(product?.id as string)).toEqual([
        { number: 'IG', expiresOn: '2026-12-31', quantity: 0 },
      ]);
      await ledgerHolds(product?.id as string);
    });
  });

  describe('lot-tracked products already in the store', () => {
    it('stock set counts the named lot: a known one (any case) to the file’s units, a new one created with its Expiry', async () => {
      const k = tag();
      const known = await tracked(`K${k}`, [
        { number: 'K1', expiresOn: '2027-01-31', quantity: 10 },
        { number: 'K2', expiresOn: null, quantity: 4 },
      ]);
      const fresh = await tracked(`N${k}`, [{ number: 'K1', expiresOn: '2027-01-31', quantity: 6 }]);
      const same = await tracked(`S${k}`, [{ number: 'S1', expiresOn: null, quantity: 3 }]);
      const empty = await tracked(`E${k}`, [{ number: 'E1', expiresOn: null, quantity: 3 }]);
      const run = await dryRun([
        { SKU: `K${k}`, Stock: 7, Lot: 'k1' },
        { SKU: `N${k}`, Stock: 5, Lot: 'NEW-1', Expiry: '2028-02-29' },
        { SKU: `S${k}`, Stock: 3, Lot: 'S1' },
        // A new lot counted at 0 changes nothing: no lot is made.
        { SKU: `E${k}`, Stock: 0, Lot: 'E2', Expiry: '2030-01-01' },
      ]);
      expect(run.summary).toMatchObject({ create: 0, update: 2, unchanged: 2, errors: 0 });
      expect(run.rows.map((r) => [r.result, r.changes])).toEqual([
        [
          'update',
          [
            { field: 'stock', from: 14, to: 11 },
            { field: 'lot', from: 'K1: 10', to: 'K1: 7' },
          ],
        ],
        [
          'update',
          [
            { field: 'stock', from: 6, to: 11 },
            { field: 'lot', from: null, to: 'NEW-1 (new, expires 2028-02-29): 5' },
          ],
        ],
        ['unchanged', undefined],
        ['unchanged', undefined],
      ]);
      await applied(run.id);

      expect(await lotsOf(known)).toEqual([
        { number: 'K1', expiresOn: '2027-01-31', quantity: 7 },
        { number: 'K2', expiresOn: null, quantity: 4 },
      ]);
      expect((await movementsOf(known)).at(-1)).toEqual({
        kind: 'count',
        quantity: -3,
        reason: null,
        note: `import ${run.fileName}`,
        lot: 'K1',
        userId: t.as.admin.id,
      });
      expect(await lotsOf(fresh)).toEqual([
        { number: 'K1', expiresOn: '2027-01-31', quantity: 6 },
        { number: 'NEW-1', expiresOn: '2028-02-29', quantity: 5 },
      ]);
      expect((await movementsOf(fresh)).at(-1)).toMatchObject({ kind: 'count', quantity: 5, lot: 'NEW-1' });
      expect(await lotsOf(same)).toEqual([{ number: 'S1', expiresOn: null, quantity: 3 }]);
      expect(await movementsOf(same)).toHaveLength(1);
      expect(await lotsOf(empty)).toEqual([{ number: 'E1', expiresOn: null, quantity: 3 }]);
      for (const id of [known, fresh, same, empty]) await ledgerHolds(id);
      expect((await productBySku(`K${k}`))?.stock).toBe(11);
      expect((await productBySku(`N${k}`))?.stock).toBe(11);
    });

    it('stock add adds into a known lot (same Expiry or none given) or a new one, as a received adjustment', async () => {
      const k = tag();
      const one = await tracked(`A${k}`, [{ number: 'A1', expiresOn: '2027-03-31', quantity: 2 }]);
      const two = await tracked(`B${k}`, [{ number: 'B1', expiresOn: null, quantity: 1 }]);
      const three = await tracked(`C${k}`, [{ number: 'C1', expiresOn: '2026-06-30', quantity: 1 }]);
      const run = await dryRun(
        [
          { SKU: `A${k}`, Stock: 3, Lot: 'A1', Expiry: '2027-03-31' },
          { SKU: `B${k}`, Stock: 4, Lot: 'B2' },
          { SKU: `C${k}`, Stock: 5, Lot: 'c1' },
        ],
        { stock: 'add' },
      );
      expect(run.summary).toMatchObject({ update: 3, errors: 0 });
      expect(run.rows[1]?.changes).toEqual([
        { field: 'stock', from: 1, to: 5 },
        { field: 'lot', from: null, to: 'B2 (new, no expiry): 4' },
      ]);
      await applied(run.id);
      expect(await lotsOf(one)).toEqual([{ number: 'A1', expiresOn: '2027-03-31', quantity: 5 }]);
      expect(await lotsOf(two)).toEqual([
        { number: 'B1', expiresOn: null, quantity: 1 },
        { number: 'B2', expiresOn: null, quantity: 4 },
      ]);
      expect(await lotsOf(three)).toEqual([{ number: 'C1', expiresOn: '2026-06-30', quantity: 6 }]);
      expect((await movementsOf(two)).at(-1)).toMatchObject({
        kind: 'adjustment',
        reason: 'received',
        quantity: 4,
        lot: 'B2',
        note: `import ${run.fileName}`,
      });
      for (const id of [one, two, three]) await ledgerHolds(id);
    });
  });

  describe('row errors', () => {
    it('names each rule a row breaks by its line and column, and the apply writes none of them', async () => {
      const k = tag();
      const plain = await untracked(`U${k}`, 4);
      const lotted = await tracked(`T${k}`, [
        { number: 'T1', expiresOn: '2027-01-31', quantity: 5 },
        { number: 'T2', expiresOn: null, quantity: 1 },
      ]);
      const run = await dryRun([
        { SKU: `U${k}`, Stock: 5, Lot: 'U1' },
        { SKU: `T${k}`, Stock: 9 },
        row(`X${k}`, { Stock: 1, Expiry: '2027-01-31' }),
      ]);
      expect(run.rows.map((r) => [r.row, r.result, r.errors])).toEqual([
        [2, 'error', [{ column: 'Lot', message: 'This product is not tracked by lot.' }]],
        [3, 'error', [{ column: 'Lot', message: 'Lot is required for a lot-tracked product.' }]],
        [
          4,
          'error',
          [{ column: 'Expiry', message: 'An Expiry needs the Lot it belongs to on the same row.' }],
        ],
      ]);

      const other = await dryRun([{ SKU: `T${k}`, Stock: 1, Lot: 't1', Expiry: '2027-02-01' }]);
      expect(other.rows[0]?.errors).toEqual([
        { column: 'Expiry', message: 'Lot T1 expires on 2027-01-31, not 2027-02-01.' },
      ]);
      const none = await dryRun([{ SKU: `T${k}`, Stock: 1, Lot: 'T2', Expiry: '2027-02-01' }]);
      expect(none.rows[0]?.errors).toEqual([
        { column: 'Expiry', message: 'Lot T2 does not expire: its Expiry must be empty, not 2027-02-01.' },
      ]);
      // A tracked product's stock left as it is needs no Lot; nor does stock ignore.
      const unchanged = await dryRun([{ SKU: `T${k}`, Stock: 6 }]);
      expect(unchanged.rows[0]).toMatchObject({ result: 'unchanged', errors: [] });
      const ignored = await dryRun([{ SKU: `T${k}`, Stock: 60 }], { stock: 'ignore' });
      expect(ignored.rows[0]).toMatchObject({ result: 'unchanged', errors: [] });
      // Without a Lot column the row's own problem is named.
      const header = ['SKU', 'Stock'];
      const unmapped = await dryRun([{ SKU: `T${k}`, Stock: 2 }], { stock: 'add' }, header);
      expect(unmapped.rows[0]?.errors).toEqual([
        { column: 'Row', message: 'Lot is required for a lot-tracked product.' },
      ]);

      await applied(run.id);
      expect(await movementsOf(plain)).toHaveLength(1);
      expect(await lotsOf(plain)).toEqual([]);
      expect(await lotsOf(lotted)).toEqual([
        { number: 'T1', expiresOn: '2027-01-31', quantity: 5 },
        { number: 'T2', expiresOn: null, quantity: 1 },
      ]);
      expect(await productBySku(`X${k}`)).toBeUndefined();
      await ledgerHolds(plain);
      await ledgerHolds(lotted);
    });

    it('a product whose tracking or lot changed after the check fails its row at apply, the rest is written', async () => {
      const k = tag();
      const turnedOff = await tracked(`F${k}`, []);
      const turnedOn = await untracked(`O${k}`, 0);
      const raced = await tracked(`R${k}`, []);
      const run = await dryRun([
        { SKU: `F${k}`, Stock: 2, Lot: 'F1' },
        { SKU: `O${k}`, Stock: 2 },
        { SKU: `R${k}`, Stock: 2, Lot: 'R1', Expiry: '2027-01-01' },
        row(`W${k}`, { Stock: 1, Lot: 'W1' }),
      ]);
      expect(run.summary).toMatchObject({ create: 1, update: 3, errors: 0 });
      await t.sql(`update products set tracking = 'none' where id = $1`, [turnedOff]);
      await t.sql(`update products set tracking = 'lot' where id = $1`, [turnedOn]);
      await t.sql(`insert into lots (product_id, number, expires_on) values ($1, 'r1', '2027-12-31')`, [
        raced,
      ]);
      await applied(run.id);
      expect((await rowsOf(run.id)).map((r) => [r.result, r.errors])).toEqual([
        ['error', [{ column: 'Lot', message: 'This product is not tracked by lot.' }]],
        ['error', [{ column: 'Lot', message: 'Lot is required for a lot-tracked product.' }]],
        ['error', [{ column: 'Expiry', message: 'Lot r1 expires on 2027-12-31, not 2027-01-01.' }]],
        ['create', []],
      ]);
      for (const id of [turnedOff, turnedOn, raced]) {
        expect(
          (await t.sql('select 1 from stock_movements where product_id = $1', [id])).length,
        ).toBeLessThanOrEqual(1);
        await ledgerHolds(id);
      }
      const made = await productBySku(`W${k}`);
      expect(await lotsOf(made?.id as string)).toEqual([{ number: 'W1', expiresOn: null, quantity: 1 }]);
    });
  });

  describe('hostile Lot and Expiry cells', () => {
    it('answers each with a row error naming its column, never a 500', async () => {
      const k = tag();
      const cells: [string, string, string, string][] = [
        ['x'.repeat(10_000), '', 'Lot', 'Lot number must be at most 64 characters.'],
        ['tab\there', '', 'Lot', 'Lot number may hold only letters, digits, symbols and spaces.'],
        ['é-1', '', 'Lot', 'Lot number may hold only letters, digits, symbols and spaces.'],
        ['L1', '2025-1-5', 'Expiry', 'Dates look like 2025-01-31.'],
        ['L1', '2027-01-31T00:00:00Z', 'Expiry', 'Dates look like 2025-01-31.'],
        ['L1', '2025-02-30', 'Expiry', 'That date does not exist.'],
        ['L1', '2025-02-29', 'Expiry', 'That date does not exist.'],
        ['L1', '0000-01-01', 'Expiry', 'Dates must be between 1900 and 9999.'],
        ['L1', '45000', 'Expiry', 'Dates look like 2025-01-31.'],
        ['L1', '-1', 'Expiry', 'Dates look like 2025-01-31.'],
        ['L1', 'NaN', 'Expiry', 'Dates look like 2025-01-31.'],
        ['L1', '9'.repeat(10_000), 'Expiry', 'Dates look like 2025-01-31.'],
        ['L1', '31/01/2027', 'Expiry', 'Dates look like 2025-01-31.'],
      ];
      const header = [...HEADER];
      const id = await createImport(
        t.app.db,
        {
          fileName: 'hostile.csv',
          fileType: 'csv',
          columns: header,
          mapping: {},
          rows: cells.map(([lot, expiry], i) => ({
            line: i + 2,
            cells: [`Hostile ${k} ${i}`, `H${k}-${i}`, category, supplier, '1', '1', lot, expiry],
          })),
        },
        { id: t.as.admin.id, name: t.as.admin.name, role: 'admin' },
      );
      const mapping = Object.fromEntries(
        (['name', 'sku', 'category', 'supplier', 'price', 'stock', 'lot', 'expiry'] as const).map((f, i) => [
          f,
          header[i] as string,
        ]),
      );
      const checked = await check(id, { mapping });
      expect(checked.summary).toMatchObject({ create: 0, errors: cells.length });
      const rows = await rowsOf(id);
      expect(rows.map((r) => r.errors)).toEqual(cells.map(([, , column, message]) => [{ column, message }]));
      // A NUL no database stores: the file is refused at upload, naming its line.
      for (const cells of [
        ['Nul', 'N1', category, supplier, '1', '1', 'a\0b', ''],
        ['Nul', 'N1', category, supplier, '1', '1', 'L1', '2027-01-31\0'],
      ]) {
        const res = await t.call('POST', '/api/imports/products?fileName=nul.csv', {
          token: admin(),
          body: [HEADER, cells].map((line) => csvRow(line)).join(''),
          headers: { 'content-type': 'text/csv' },
        });
        expect(res.status).toBe(400);
        expect(parsed(res, ApiError).error).toBe(
          'Line 2 holds a NUL character, which a text file cannot hold.',
        );
      }
      // Numbers are lot numbers like any other text.
      const numbers = await dryRun([row(`M${k}`, { Lot: 12345, Expiry: '2030-12-31', Stock: 1 })]);
      expect(numbers.summary).toMatchObject({ create: 1, errors: 0 });
    });

    it('refuses a mapping that names a column the file lacks for Lot or Expiry with a 400', async () => {
      const uploaded = await upload([row(`Z${tag()}`)]);
      const res = await t.call('POST', `/api/imports/${uploaded._id}/check`, {
        token: admin(),
        body: { mapping: { ...uploaded.mapping, lot: 'Batch' } },
      });
      expect(res.status).toBe(400);
      expect(parsed(res, ApiError).error).toBe('The file has no column named “Batch”.');
      const twice = await t.call('POST', `/api/imports/${uploaded._id}/check`, {
        token: admin(),
        body: { mapping: { ...uploaded.mapping, expiry: 'Lot' } },
      });
      expect(twice.status).toBe(400);
      expect(parsed(twice, ApiError).error).toBe(
        'Lot and Expiry are both mapped to the column “Lot”: a column serves one field.',
      );
    });
  });

  describe('many rows, retried and resumed batches', () => {
    it('a batch retried row by row creates each planned lot once', async () => {
      const k = tag();
      const known = await tracked(`P${k}`, [{ number: 'P1', expiresOn: null, quantity: 1 }]);
      const run = await dryRun([
        row(`Q${k}-1`, { Stock: 3, Lot: 'Q', Expiry: '2027-07-31' }),
        row(`Q${k}-2`, { Stock: 4, Lot: 'Q' }),
        { SKU: `P${k}`, Stock: 2, Lot: 'P2', Expiry: '2029-01-31' },
        row(`Q${k}-3`, { Stock: 1, Lot: 'Q3' }),
      ]);
      expect(run.summary).toMatchObject({ create: 3, update: 1, errors: 0 });
      // A SKU taken after the check makes the batch's first write fail: each row is written alone.
      await untracked(`Q${k}-2`, 0);
      await applied(run.id);
      expect((await rowsOf(run.id)).map((r) => r.result)).toEqual(['create', 'error', 'update', 'create']);
      const first = await productBySku(`Q${k}-1`);
      expect(await lotsOf(first?.id as string)).toEqual([
        { number: 'Q', expiresOn: '2027-07-31', quantity: 3 },
      ]);
      expect(await lotsOf(known)).toEqual([
        { number: 'P1', expiresOn: null, quantity: 1 },
        { number: 'P2', expiresOn: '2029-01-31', quantity: 2 },
      ]);
      const third = await productBySku(`Q${k}-3`);
      expect(await lotsOf(third?.id as string)).toEqual([{ number: 'Q3', expiresOn: null, quantity: 1 }]);
      for (const id of [first?.id as string, known, third?.id as string]) await ledgerHolds(id);
    });

    it(`applies ${2 * BATCH_ROWS + 100} rows stopped and resumed: every lot once, lot = Σ movements, product = Σ lots`, async () => {
      const k = tag();
      const total = 2 * BATCH_ROWS + 100;
      const existing = await tracked(`G${k}`, [{ number: 'G1', expiresOn: '2027-01-01', quantity: 5 }]);
      const rows: Cells[] = [];
      for (let i = 0; i < total - 1; i++)
        rows.push(
          row(`G${k}-${i}`, { Stock: (i % 7) + 1, Lot: `B${i % 3}`, Expiry: i % 2 ? '2027-09-30' : '' }),
        );
      rows.splice(BATCH_ROWS + 3, 0, { SKU: `G${k}`, Stock: 8, Lot: 'G2', Expiry: '2028-01-01' });
      const run = await dryRun(rows);
      expect(run.summary).toMatchObject({ create: total - 1, update: 1, errors: 0 });
      const res = await t.call('POST', `/api/imports/${run.id}/apply`, { token: admin(), body: {} });
      expect(res.status).toBe(202);
      // Stopped after the batch in flight (the lease handed back), then started again: it resumes.
      await t.app.importApplier.stop();
      t.app.importApplier.start();
      for (let i = 0; i < 600; i++) {
        await t.app.importApplier.applying(run.id);
        const [record] = await t.sql<{ status: string }>('select status from imports where id = $1', [
          run.id,
        ]);
        if (record?.status === 'applied') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const [counts] = await t.sql<{
        products: number;
        lots: number;
        movements: number;
        tracked: number;
        bad: number;
        stock: number;
      }>(
        `select count(*)::int as products,
                count(*) filter (where p.tracking = 'lot')::int as tracked,
                (select count(*)::int from lots l join products q on q.id = l.product_id where q.sku like $1) as lots,
                (select count(*)::int from stock_movements m join products q on q.id = m.product_id where q.sku like $1) as movements,
                (select count(*)::int from lots l join products q on q.id = l.product_id
                  where q.sku like $1 and l.quantity <> (select coalesce(sum(quantity), 0) from stock_movements m where m.lot_id = l.id)) as bad,
                sum(p.stock)::int as stock
           from products p where p.sku like $1`,
        [`G${k}-%`],
      );
      const expected = rows.filter((r) => r.SKU !== `G${k}`).reduce((sum, r) => sum + Number(r.Stock), 0);
      expect(counts).toEqual({
        products: total - 1,
        tracked: total - 1,
        lots: total - 1,
        movements: total - 1,
        bad: 0,
        stock: expected,
      });
      expect(await lotsOf(existing)).toEqual([
        { number: 'G1', expiresOn: '2027-01-01', quantity: 5 },
        { number: 'G2', expiresOn: '2028-01-01', quantity: 8 },
      ]);
      await ledgerHolds(existing);
    }, 120_000);
  });
});
