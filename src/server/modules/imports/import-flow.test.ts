import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRow } from '../../../shared/csv';
import { ImportRowsResponse } from '../../../shared/imports';
import { ProductResponse } from '../../../shared/products';
import { tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { importCalls } from '../../test/import-calls';
import { parseCsv } from '../../test/parse-csv';

/**
 * The whole import through the API, as the screen drives it (DESIGN §14): upload, check, apply in
 * the background, download the failed rows, fix them in that file and import it again; and the
 * round trip from the products export.
 */
describe.each(targets)('a catalogue import from upload to the fixed errors file on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  const admin = () => t.as.admin.token;
  const calls = importCalls(() => t);
  const upload = (text: string, fileName: string) => calls.upload(text, 'text/csv', fileName);
  const { check, applied } = calls;

  it('imports the good rows, answers the bad ones as a file that, fixed, imports the rest; nothing twice', async () => {
    const k = tag();
    const category = `Vitamins ${k}`;
    const supplier = `Healthwise ${k}`;
    await t.sql('insert into categories (name) values ($1)', [category]);
    await t.sql('insert into suppliers (name) values ($1)', [supplier]);
    const header = ['Product name', 'SKU', 'Category', 'Supplier', 'Price', 'Qty'];
    const rows: (string | number)[][] = [];
    for (let i = 1; i <= 40; i++)
      rows.push([`Vitamin ${k} ${i}`, `V${k}-${i}`, category, supplier, '4.50', i]);
    // Three bad rows: a price that is not a number, a negative stock, an unknown category.
    rows[4] = [`Vitamin ${k} 5`, `V${k}-5`, category, supplier, 'four', 5];
    rows[19] = [`Vitamin ${k} 20`, `V${k}-20`, category, supplier, '4.50', -2];
    rows[33] = [`Vitamin ${k} 34`, `V${k}-34`, `Nowhere ${k}`, supplier, '4.50', 34];
    const text = [header, ...rows].map((row) => csvRow(row)).join('');

    const uploaded = await upload(text, `vitamins-${k}.csv`);
    expect(uploaded.rows).toBe(40);
    expect(uploaded.mapping).toMatchObject({
      name: 'Product name',
      sku: 'SKU',
      category: 'Category',
      supplier: 'Supplier',
      price: 'Price',
      stock: 'Qty',
    });
    const checked = await check(uploaded._id, { mapping: uploaded.mapping, matchBy: 'sku', stock: 'set' });
    expect(checked.summary).toMatchObject({ create: 37, update: 0, unchanged: 0, errors: 3 });
    const errorRows = ImportRowsResponse.parse(
      (await t.call('GET', `/api/imports/${uploaded._id}/rows?result=error`, { token: admin() })).body,
    ).rows;
    // Lines: the header is line 1, so the 5th data row is line 6.
    expect(errorRows.map((row) => [row.row, row.errors.map((e) => e.column)])).toEqual([
      [6, ['Price']],
      [21, ['Qty']],
      [35, ['Category']],
    ]);
    const before = await t.sql<{ n: number }>('select count(*)::int as n from products');

    const done = await applied(uploaded._id);
    expect(done.status).toBe('applied');
    expect(done.processed).toBe(done.total);
    expect(done.summary).toMatchObject({ create: 37, errors: 3 });
    const after = await t.sql<{ n: number }>('select count(*)::int as n from products');
    expect((after[0]?.n ?? 0) - (before[0]?.n ?? 0)).toBe(37);
    const again = await t.call('POST', `/api/imports/${uploaded._id}/apply`, { token: admin(), body: {} });
    expect(again.status).toBe(409);

    const errorsFile = await t.call('GET', `/api/imports/${uploaded._id}/errors?format=csv`, {
      token: admin(),
    });
    expect(errorsFile.status).toBe(200);
    const table = parseCsv(errorsFile.text);
    expect(table[0]).toEqual([...header, 'Error']);
    expect(table.slice(1).map((row) => row.slice(0, 6))).toEqual(
      [rows[4], rows[19], rows[33]].map((row) => row?.map(String)),
    );
    // The store fixes the three rows in that file and uploads it again.
    const fixed = table.map((row, i) => {
      if (i === 0) return row.slice(0, 6);
      const cells = row.slice(0, 6);
      cells[2] = category;
      cells[4] = '4.50';
      cells[5] = '7';
      return cells;
    });
    const second = await upload(fixed.map((row) => csvRow(row)).join(''), `vitamins-${k}-errors.csv`);
    const secondChecked = await check(second._id, { mapping: second.mapping, matchBy: 'sku', stock: 'set' });
    expect(secondChecked.summary).toMatchObject({ create: 3, update: 0, errors: 0 });
    expect((await applied(second._id)).status).toBe('applied');

    // Every row of the file is now one product, once, its stock its movements' sum.
    const made = await t.sql<{ sku: string; stock: number; moved: number; movements: number }>(
      `select p.sku, p.stock, coalesce(sum(m.quantity), 0)::int as moved, count(m.id)::int as movements
       from products p left join stock_movements m on m.product_id = p.id
       where p.sku like $1 group by p.sku, p.stock`,
      [`V${k}-%`],
    );
    expect(made).toHaveLength(40);
    for (const product of made) {
      expect(product.stock).toBe(product.moved);
      expect(product.movements).toBe(1);
    }
    const audit = await t.sql<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'imported' and entity_id in ($1, $2)`,
      [uploaded._id, second._id],
    );
    expect(audit[0]?.n).toBe(2);
  });

  describe('one reading of a row: the apply does what the check said (DESIGN §22)', () => {
    const rowsOf = async (id: string) =>
      ImportRowsResponse.parse(
        (await t.call('GET', `/api/imports/${id}/rows?pageSize=100`, { token: admin() })).body,
      ).rows;
    const productOf = async (id: string) =>
      (
        await t.sql<{ name: string; description: string; price: string; cost: string | null; stock: number }>(
          'select name, description, price, cost, stock from products where id = $1',
          [id],
        )
      )[0];
    const movementsOf = async (id: string) =>
      (await t.sql('select id from stock_movements where product_id = $1', [id])).length;

    it('stock ignore never reads the stock column: a negative or garbage stock cell does not stop the price and description updates', async () => {
      const k = tag();
      const made = [];
      for (let i = 1; i <= 3; i++) {
        const product = await t.product({ name: `Ignored ${k} ${i}`, stock: 4, price: 2 });
        await t.sql(`update products set sku = $2, description = 'Old words' where id = $1`, [
          product.id,
          `IG${k}-${i}`,
        ]);
        made.push(product.id);
      }
      const header = ['SKU', 'Description', 'Price', 'Stock'];
      const text = [
        header,
        [`IG${k}-1`, 'New words', '2.75', '-3'],
        [`IG${k}-2`, 'New words', '3', 'lots'],
        [`IG${k}-3`, 'New words', '3.25', '1e400'],
      ]
        .map((row) => csvRow(row))
        .join('');
      const uploaded = await upload(text, `ignore-${k}.csv`);
      const checked = await check(uploaded._id, {
        mapping: uploaded.mapping,
        matchBy: 'sku',
        stock: 'ignore',
      });
      expect(checked.summary).toMatchObject({ create: 0, update: 3, unchanged: 0, errors: 0 });
      const promised = (await rowsOf(uploaded._id)).map((row) => [row.result, row.changes, row.errors]);
      expect(promised).toEqual([
        [
          'update',
          [
            { field: 'description', from: 'Old words', to: 'New words' },
            { field: 'price', from: 2, to: 2.75 },
          ],
          [],
        ],
        [
          'update',
          [
            { field: 'description', from: 'Old words', to: 'New words' },
            { field: 'price', from: 2, to: 3 },
          ],
          [],
        ],
        [
          'update',
          [
            { field: 'description', from: 'Old words', to: 'New words' },
            { field: 'price', from: 2, to: 3.25 },
          ],
          [],
        ],
      ]);

      const done = await applied(uploaded._id);
      expect(done.summary).toMatchObject({ create: 0, update: 3, unchanged: 0, errors: 0 });
      expect((await rowsOf(uploaded._id)).map((row) => [row.result, row.changes, row.errors])).toEqual(
        promised,
      );
      expect(await Promise.all(made.map(productOf))).toEqual([
        { name: `Ignored ${k} 1`, description: 'New words', price: '2.75', cost: null, stock: 4 },
        { name: `Ignored ${k} 2`, description: 'New words', price: '3.00', cost: null, stock: 4 },
        { name: `Ignored ${k} 3`, description: 'New words', price: '3.25', cost: null, stock: 4 },
      ]);
      for (const id of made) expect(await movementsOf(id)).toBe(1);
    });

    it('a blank cell keeps what is stored, a cell holding “-” clears it, and the apply writes exactly that', async () => {
      const k = tag();
      const [kept, cleared, priced] = [
        await t.product({ name: `Kept ${k}` }),
        await t.product({ name: `Cleared ${k}` }),
        await t.product({ name: `Priced ${k}` }),
      ];
      for (const [product, sku] of [
        [kept, `KP${k}`],
        [cleared, `CL${k}`],
        [priced, `PR${k}`],
      ] as const)
        await t.sql(
          `update products set sku = $2, description = 'Stored words', barcode = $3 where id = $1`,
          [product.id, sku, `B${sku}`],
        );
      for (const product of [kept, cleared, priced]) await t.setCost(product.id, 1.5);
      const header = ['Name', 'SKU', 'Barcode', 'Description', 'Price', 'Cost', 'Stock'];
      // As a spreadsheet saves it: a `-` cell bare (csvRow would write it as the text '-).
      const text = [
        header,
        ['', `KP${k}`, '', '', '12', '', ''],
        [`Cleared ${k}`, `CL${k}`, '-', '-', '9.99', '-', ''],
        ['', `PR${k}`, '', 'New words', '-', '', ''],
      ]
        .map((row) => `${row.join(',')}\r\n`)
        .join('');
      const uploaded = await upload(text, `blanks-${k}.csv`);
      const checked = await check(uploaded._id, { mapping: uploaded.mapping, matchBy: 'sku', stock: 'set' });
      expect(checked.summary).toMatchObject({ create: 0, update: 2, unchanged: 0, errors: 1 });
      expect((await rowsOf(uploaded._id)).map((row) => [row.result, row.changes, row.errors])).toEqual([
        ['update', [{ field: 'price', from: 9.99, to: 12 }], []],
        [
          'update',
          [
            { field: 'barcode', from: `BCL${k}`, to: null },
            { field: 'description', from: 'Stored words', to: '' },
            { field: 'cost', from: 1.5, to: null },
          ],
          [],
        ],
        [
          'error',
          undefined,
          [{ column: 'Price', message: 'Price cannot be cleared: leave the cell empty to keep it.' }],
        ],
      ]);
      await applied(uploaded._id);
      expect(await productOf(kept.id)).toEqual({
        name: `Kept ${k}`,
        description: 'Stored words',
        price: '12.00',
        cost: '1.50',
        stock: 10,
      });
      expect(await productOf(cleared.id)).toEqual({
        name: `Cleared ${k}`,
        description: '',
        price: '9.99',
        cost: null,
        stock: 10,
      });
      // The row with an error is not written at all.
      expect(await productOf(priced.id)).toMatchObject({ description: 'Stored words', price: '9.99' });
      const [codes] = await t.sql<{ kept: string | null; cleared: string | null }>(
        'select (select barcode from products where id = $1) as kept, (select barcode from products where id = $2) as cleared',
        [kept.id, cleared.id],
      );
      expect(codes).toEqual({ kept: `BKP${k}`, cleared: null });
    });

    it('the errors file gives a “-” cell back as uploaded, so the fixed file still clears', async () => {
      const k = tag();
      const product = await t.product({ name: `Worded ${k}` });
      await t.sql(`update products set sku = $2, description = 'Stored words' where id = $1`, [
        product.id,
        `WD${k}`,
      ]);
      const header = ['SKU', 'Description', 'Price'];
      const text = [header, [`WD${k}`, '-', 'cheap']].map((row) => `${row.join(',')}\r\n`).join('');
      const uploaded = await upload(text, `worded-${k}.csv`);
      const checked = await check(uploaded._id, { mapping: uploaded.mapping, matchBy: 'sku', stock: 'set' });
      expect(checked.summary).toMatchObject({ errors: 1 });
      const errorsFile = await t.call('GET', `/api/imports/${uploaded._id}/errors?format=csv`, {
        token: admin(),
      });
      expect(errorsFile.text.split('\r\n')[1]).toBe(`"WD${k}","-","cheap","Price: Price must be a number."`);
      const fixed = parseCsv(errorsFile.text).map((row, i) =>
        i === 0 ? row.slice(0, 3) : [row[0], row[1], '4'],
      );
      const again = await upload(
        fixed
          .map((row) => `${row.map((cell) => (cell === '-' ? cell : `"${cell}"`)).join(',')}\r\n`)
          .join(''),
        `worded-${k}-errors.csv`,
      );
      await check(again._id, { mapping: again.mapping, matchBy: 'sku', stock: 'set' });
      expect((await rowsOf(again._id))[0]?.changes).toEqual([
        { field: 'description', from: 'Stored words', to: '' },
        { field: 'price', from: 9.99, to: 4 },
      ]);
    });

    it('round trip without SKUs: the export of products that have none imports back unchanged, creating nothing', async () => {
      const k = tag();
      const ids: string[] = [];
      for (let i = 1; i <= 3; i++) {
        const product = await t.product({ name: `Loose ${k} ${i}`, stock: i, price: i });
        await t.sql(`update products set description = 'Sold loose' where id = $1`, [product.id]);
        ids.push(product.id);
      }
      const exported = await t.call(
        'GET',
        `/api/products?format=csv&search=${encodeURIComponent(`Loose ${k}`)}`,
        {
          token: admin(),
        },
      );
      expect(exported.status).toBe(200);
      const [header, ...lines] = parseCsv(exported.text.replace(/^\uFEFF/, ''));
      expect(lines.map((cells) => cells[(header as string[]).indexOf('SKU')])).toEqual(['', '', '']);
      const before = await t.sql<{ n: number }>('select count(*)::int as n from products');
      const uploaded = await upload(exported.text, `loose-${k}.csv`);
      const checked = await check(uploaded._id, { mapping: uploaded.mapping, matchBy: 'sku', stock: 'set' });
      expect(checked.summary).toMatchObject({ create: 0, update: 0, unchanged: 3, errors: 0 });
      expect((await rowsOf(uploaded._id)).map((row) => row.product?._id)).toEqual(ids);
      const done = await applied(uploaded._id);
      expect(done.summary).toMatchObject({ create: 0, update: 0, unchanged: 3, errors: 0 });
      const after = await t.sql<{ n: number }>('select count(*)::int as n from products');
      expect(after[0]?.n).toBe(before[0]?.n);
      const named = await t.sql<{ n: number }>('select count(*)::int as n from products where name like $1', [
        `Loose ${k} %`,
      ]);
      expect(named[0]?.n).toBe(3);
    });
  });

  it('round trip: the products export imported again is every row unchanged', async () => {
    const k = tag();
    for (let i = 1; i <= 3; i++) {
      const product = await t.product({ name: `Round ${k} ${i}`, stock: i * 3, price: 2.5 * i });
      await t.sql('update products set sku = $1, barcode = $2 where id = $3', [
        `R${k}-${i}`,
        `77${k}${i}`,
        product.id,
      ]);
    }
    const exported = await t.call(
      'GET',
      `/api/products?format=csv&search=${encodeURIComponent(`Round ${k}`)}`,
      {
        token: admin(),
      },
    );
    expect(exported.status).toBe(200);
    const uploaded = await upload(exported.text, `products-${k}.csv`);
    expect(uploaded.rows).toBe(3);
    const checked = await check(uploaded._id, { mapping: uploaded.mapping, matchBy: 'sku', stock: 'set' });
    expect(checked.summary).toMatchObject({ create: 0, update: 0, unchanged: 3, errors: 0 });

    // Two cells of one row edited in the exported file: the check names exactly those, and the
    // apply writes exactly them (the stock through a count movement), leaving the rest as it was.
    const table = parseCsv(exported.text);
    const header = table[0] as string[];
    const edited = table.map((row) => [...row]);
    const second = edited[2] as string[];
    second[header.indexOf('Price')] = '9.99';
    second[header.indexOf('Stock')] = '20';
    const sku = second[header.indexOf('SKU')] as string;
    const answers = async () =>
      Promise.all(
        (
          await t.sql<{ id: string }>('select id from products where sku like $1 order by sku', [`R${k}-%`])
        ).map(
          async (row) =>
            parsed(await t.call('GET', `/api/products/${row.id}`, { token: admin() }), ProductResponse)
              .product,
        ),
      );
    const before = await answers();
    const again = await upload(edited.map((row) => csvRow(row)).join(''), `products-${k}-edited.csv`);
    const rechecked = await check(again._id, { mapping: again.mapping, matchBy: 'sku', stock: 'set' });
    expect(rechecked.summary).toMatchObject({ create: 0, update: 1, unchanged: 2, errors: 0 });
    const updates = ImportRowsResponse.parse(
      (await t.call('GET', `/api/imports/${again._id}/rows?result=update`, { token: admin() })).body,
    ).rows;
    expect(updates.map((row) => row.changes)).toEqual([
      [
        { field: 'price', from: 5, to: 9.99 },
        { field: 'stock', from: 6, to: 20 },
      ],
    ]);
    expect((await applied(again._id)).status).toBe('applied');
    const after = await answers();
    expect(after[0]).toEqual(before[0]);
    expect(after[2]).toEqual(before[2]);
    expect(after[1]).toEqual({ ...before[1], price: 9.99, stock: 20 });
    const [count] = await t.sql<{ kind: string; quantity: number; note: string }>(
      `select m.kind, m.quantity, m.note from stock_movements m join products p on p.id = m.product_id
       where p.sku = $1 order by m.at desc, m.id desc limit 1`,
      [sku],
    );
    expect(count).toEqual({ kind: 'count', quantity: 14, note: `import products-${k}-edited.csv` });
  });
});
