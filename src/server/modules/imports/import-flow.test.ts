import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRow } from '../../../shared/csv';
import { ImportResponse, ImportRowsResponse } from '../../../shared/imports';
import { startApp, type TestApp, targets } from '../../test/harness';
import { parseCsv } from '../../test/parse-csv';

let sequence = 0;
const tag = () => `${Date.now().toString(36)}${(sequence++).toString(36)}`;

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
  const upload = async (text: string, fileName: string) => {
    const res = await t.call('POST', `/api/imports/products?fileName=${encodeURIComponent(fileName)}`, {
      token: admin(),
      body: text,
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status, res.text).toBe(201);
    return ImportResponse.parse(res.body).import;
  };
  const check = async (id: string, body: object) => {
    const res = await t.call('POST', `/api/imports/${id}/check`, { token: admin(), body });
    expect(res.status, res.text).toBe(200);
    return ImportResponse.parse(res.body).import;
  };
  const applied = async (id: string) => {
    const res = await t.call('POST', `/api/imports/${id}/apply`, { token: admin(), body: {} });
    expect(res.status, res.text).toBe(202);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const now = ImportResponse.parse(
        (await t.call('GET', `/api/imports/${id}`, { token: admin() })).body,
      ).import;
      if (now.status !== 'applying') return now;
      if (Date.now() > deadline) throw new Error(`import ${id} still applying after a minute`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

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
          async (row) => (await t.call('GET', `/api/products/${row.id}`, { token: admin() })).body.product,
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
