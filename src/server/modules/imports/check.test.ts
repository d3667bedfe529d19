import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CategoryResponse } from '../../../shared/categories';
import { ApiError } from '../../../shared/common';
import { type ImportCheckInput, ImportResponse, ImportRowsResponse } from '../../../shared/imports';
import { PRODUCT_CSV_HEADER, ProductResponse } from '../../../shared/products';
import { TaxRateResponse } from '../../../shared/store';
import { SupplierResponse } from '../../../shared/suppliers';
import { fixtures, nth, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { parseCsv } from '../../test/parse-csv';
import { createImport } from './imports.repository';

const HEADER = [...PRODUCT_CSV_HEADER];
type Header = (typeof PRODUCT_CSV_HEADER)[number];
/** The mapping of the export's own header row. */
const MAPPING = {
  name: 'Name',
  sku: 'SKU',
  barcode: 'Barcode',
  description: 'Description',
  category: 'Category',
  supplier: 'Supplier',
  price: 'Price',
  cost: 'Cost',
  stock: 'Stock',
  reorderPoint: 'Reorder point',
  reorderQuantity: 'Reorder quantity',
  taxRate: 'Tax rate',
};

describe.each(targets)('import check on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());
  const { taxRate } = fixtures(() => t);

  const admin = () => ({ id: t.as.admin.id, name: t.as.admin.name, role: t.as.admin.role });

  /** An uploaded import of these rows (line 2 onwards), cells given by header. */
  async function upload(rows: Partial<Record<Header, string>>[], header: string[] = HEADER): Promise<string> {
    return createImport(
      t.app.db,
      {
        fileName: 'products.csv',
        fileType: 'csv',
        columns: header,
        mapping: {},
        rows: rows.map((cells, i) => ({
          line: i + 2,
          cells: header.map((column) => (cells as Record<string, string>)[column] ?? ''),
        })),
      },
      admin(),
    );
  }

  async function uploadCells(header: string[], rows: string[][]): Promise<string> {
    return createImport(
      t.app.db,
      {
        fileName: 'products.csv',
        fileType: 'csv',
        columns: header,
        mapping: {},
        rows: rows.map((cells, i) => ({ line: i + 2, cells })),
      },
      admin(),
    );
  }

  const check = (id: string, body: Partial<ImportCheckInput> = {}, token = t.as.admin.token) =>
    t.call('POST', `/api/imports/${id}/check`, { token, body: { mapping: MAPPING, ...body } });

  async function checked(id: string, body: Partial<ImportCheckInput> = {}) {
    const res = await check(id, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return parsed(res, ImportResponse).import;
  }

  async function rowsOf(id: string, query = '') {
    const res = await t.call('GET', `/api/imports/${id}/rows?pageSize=100${query}`, {
      token: t.as.admin.token,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ImportRowsResponse.parse(res.body).rows;
  }

  /** A category, a supplier (names with this tag) and ids. */
  async function refs(name = tag()) {
    const [category] = await t.sql<{ id: string }>('insert into categories (name) values ($1) returning id', [
      `Cat ${name}`,
    ]);
    const [supplier] = await t.sql<{ id: string }>('insert into suppliers (name) values ($1) returning id', [
      `Sup ${name}`,
    ]);
    return {
      category: category?.id as string,
      supplier: supplier?.id as string,
      categoryName: `Cat ${name}`,
      supplierName: `Sup ${name}`,
    };
  }

  /** A product made through the API. */
  async function product(values: Record<string, unknown>) {
    const res = await t.call('POST', '/api/products/add', {
      token: t.as.admin.token,
      body: { description: '', stock: 5, price: 1, ...values },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return parsed(res, ProductResponse).product;
  }

  describe('POST /api/imports/:id/check', () => {
    it('answers the import checked with its summary, options and mapping', async () => {
      const r = await refs();
      const sku = `S-${tag()}`;
      await product({ name: 'Kept', sku, category: r.category, supplier: r.supplier, price: 2 });
      const id = await upload([
        { Name: 'New one', Category: r.categoryName, Supplier: r.supplierName, Price: '3' },
        { Name: 'Kept', SKU: sku, Price: '2' },
        { Name: 'Kept', SKU: sku.toLowerCase(), Price: 'two' },
      ]);
      const res = await check(id, {
        mapping: { name: 'Name', sku: 'SKU', category: 'Category', supplier: 'Supplier', price: 'Price' },
      });
      expect(res.status).toBe(200);
      expect(parsed(res, ImportResponse).import).toMatchObject({
        _id: id,
        status: 'checked',
        mapping: { name: 'Name', sku: 'SKU', category: 'Category', supplier: 'Supplier', price: 'Price' },
        options: { matchBy: 'sku', createMissing: { categories: false, suppliers: false }, stock: 'set' },
        summary: { create: 1, update: 0, unchanged: 0, errors: 2, newCategories: [], newSuppliers: [] },
        checkedAt: expect.any(String),
      });
      const rows = await rowsOf(id);
      expect(rows.map((row) => [row.row, row.result])).toEqual([
        [2, 'create'],
        [3, 'error'],
        [4, 'error'],
      ]);
      expect(rows[2]?.errors).toEqual([
        { column: 'SKU', message: 'The same SKU is also on line 3.' },
        { column: 'Price', message: 'Price must be a number.' },
      ]);
      expect(rows[1]?.errors).toEqual([{ column: 'SKU', message: 'The same SKU is also on line 4.' }]);
    });

    it('leaves in the tables what the apply relies on', async () => {
      const r = await refs();
      const sku = `S-${tag()}`;
      const kept = await product({
        name: 'Stored',
        sku,
        category: r.category,
        supplier: r.supplier,
        price: 2,
      });
      const changed = await product({
        name: 'Changed',
        sku: `${sku}-2`,
        category: r.category,
        supplier: r.supplier,
        price: 2,
      });
      const id = await upload([
        { Name: 'Stored', SKU: sku, Price: '2' },
        { Name: 'Changed', SKU: `${sku}-2`, Price: '2.5' },
        { Name: 'Fresh', SKU: `${sku}-3`, Price: '1', Category: r.categoryName, Supplier: r.supplierName },
        { Name: 'Bad', SKU: `${sku}-4`, Price: '-1', Category: r.categoryName, Supplier: r.supplierName },
      ]);
      await checked(id, {
        mapping: { name: 'Name', sku: 'SKU', price: 'Price', category: 'Category', supplier: 'Supplier' },
      });
      const stored = await t.sql(
        'select line, result, errors, product_id as "productId", changes from import_rows where import_id = $1 order by line',
        [id],
      );
      expect(stored).toEqual([
        { line: 2, result: 'unchanged', errors: [], productId: kept._id, changes: null },
        {
          line: 3,
          result: 'update',
          errors: [],
          productId: changed._id,
          changes: [{ field: 'price', from: 2, to: 2.5 }],
        },
        { line: 4, result: 'create', errors: [], productId: null, changes: null },
        {
          line: 5,
          result: 'error',
          errors: [{ column: 'Price', message: 'Price must be 0 or more.' }],
          productId: null,
          changes: null,
        },
      ]);
      const [record] = await t.sql(
        'select status, options, summary, checked_at is not null as checked from imports where id = $1',
        [id],
      );
      expect(record).toMatchObject({
        status: 'checked',
        checked: true,
        summary: { create: 1, update: 1, unchanged: 1, errors: 1 },
      });
    });

    it('writes nothing but the import’s own tables', async () => {
      const r = await refs();
      const sku = `S-${tag()}`;
      await product({ name: 'Counted', sku, category: r.category, supplier: r.supplier, price: 2, stock: 1 });
      const id = await upload([
        {
          Name: 'Counted',
          SKU: sku,
          Price: '9',
          Stock: '50',
          Category: 'Brand new cat',
          Supplier: 'Brand new sup',
        },
        {
          Name: 'Another',
          SKU: `${sku}-x`,
          Price: '9',
          Stock: '5',
          Category: 'Brand new cat',
          Supplier: 'Brand new sup',
        },
      ]);
      const counts = () =>
        t.sql(
          `select (select count(*)::int from products) as products, (select count(*)::int from categories) as categories,
                  (select count(*)::int from suppliers) as suppliers, (select count(*)::int from stock_movements) as movements,
                  (select count(*)::int from audit_log) as audit, (select sum(stock)::int from products) as stock,
                  (select sum(price)::text from products) as price`,
        );
      const before = await counts();
      const result = await checked(id, { createMissing: { categories: true, suppliers: true } });
      expect(result.summary).toMatchObject({
        create: 1,
        update: 1,
        newCategories: ['Brand new cat'],
        newSuppliers: ['Brand new sup'],
      });
      expect(await counts()).toEqual(before);
    });

    it('matches by SKU and by barcode ignoring case; a row without one whose name no product has creates', async () => {
      const r = await refs();
      const code = `Ab-${tag()}`;
      const p = await product({
        name: 'Coded',
        sku: code,
        barcode: `B${code}`,
        category: r.category,
        supplier: r.supplier,
      });
      const base = { Category: r.categoryName, Supplier: r.supplierName, Price: '1', Name: 'Coded' };
      const id = await upload([
        { ...base, SKU: code.toUpperCase(), Barcode: `B${code}` },
        { ...base, Name: `Uncoded ${tag()}`, SKU: '', Barcode: '' },
      ]);
      const bySku = await rowsOf((await checked(id, { matchBy: 'sku' }))._id);
      expect(bySku.map((row) => [row.result, row.product?._id])).toEqual([
        ['update', p._id],
        ['create', undefined],
      ]);
      expect(bySku[0]?.changes).toEqual([{ field: 'sku', from: code, to: code.toUpperCase() }]);
      expect(bySku[0]?.product).toEqual({ _id: p._id, name: 'Coded' });

      const id2 = await upload([{ ...base, SKU: code, Barcode: `b${code}`.toUpperCase() }]);
      const byBarcode = await rowsOf((await checked(id2, { matchBy: 'barcode' }))._id);
      expect(byBarcode.map((row) => [row.result, row.product?._id])).toEqual([['update', p._id]]);
      expect(byBarcode[0]?.changes).toEqual([
        { field: 'barcode', from: `B${code}`, to: `B${code}`.toUpperCase() },
      ]);
    });

    it('matches by name ignoring case; two products of that name are an error on the Name column', async () => {
      const r = await refs();
      const name = `Named ${tag()}`;
      const one = await product({ name, category: r.category, supplier: r.supplier, price: 1 });
      const twin = `Twin ${tag()}`;
      await product({ name: twin, category: r.category, supplier: r.supplier });
      await product({ name: twin.toUpperCase(), category: r.category, supplier: r.supplier });
      const id = await upload([
        { Name: name.toLowerCase(), Price: '1' },
        { Name: twin, Price: '1' },
        { Name: `Unknown ${tag()}`, Price: '1', Category: r.categoryName, Supplier: r.supplierName },
      ]);
      await checked(id, {
        matchBy: 'name',
        mapping: { name: 'Name', price: 'Price', category: 'Category', supplier: 'Supplier' },
      });
      const rows = await rowsOf(id);
      expect(rows.map((row) => row.result)).toEqual(['update', 'error', 'create']);
      expect(rows[0]?.product?._id).toBe(one._id);
      expect(rows[0]?.changes).toEqual([{ field: 'name', from: name, to: name.toLowerCase() }]);
      expect(rows[1]?.errors).toEqual([
        { column: 'Name', message: `Several products are named “${twin}”: match by SKU or barcode instead.` },
      ]);
    });

    it('matching by SKU or barcode, a row without one is matched by its name when exactly one product has it', async () => {
      const r = await refs();
      const s = tag();
      const loose = await product({
        name: `Loose ${s}`,
        description: 'Stored',
        category: r.category,
        supplier: r.supplier,
        price: 2,
      });
      const coded = await product({
        name: `Coded ${s}`,
        sku: `cd-${s}`,
        barcode: `bc-${s}`,
        category: r.category,
        supplier: r.supplier,
        price: 2,
      });
      for (let i = 0; i < 3; i++)
        await product({
          name: i === 1 ? `TRIPLE ${s}` : `Triple ${s}`,
          category: r.category,
          supplier: r.supplier,
        });
      const base = { Category: r.categoryName, Supplier: r.supplierName };
      const id = await upload([
        // Trimmed and any case; the blank description keeps the stored one.
        { ...base, Name: `  loose ${s} `, Price: '2.5' },
        { ...base, Name: `Triple ${s}`, Price: '1' },
        { ...base, Name: `Nobody ${s}`, Price: '1' },
        // A product with a SKU is found by its name too; `-` in the SKU clears it.
        { ...base, Name: `Coded ${s}`, SKU: '-', Price: '2' },
      ]);
      await checked(id);
      const rows = await rowsOf(id);
      expect(rows.map((row) => [row.result, row.product?._id, row.changes ?? row.errors])).toEqual([
        // Matched ignoring case, the file's spelling is a change, as when matching by name.
        [
          'update',
          loose._id,
          [
            { field: 'name', from: `Loose ${s}`, to: `loose ${s}` },
            { field: 'price', from: 2, to: 2.5 },
          ],
        ],
        [
          'error',
          undefined,
          [{ column: 'Name', message: `3 products are named “Triple ${s}”: give this row a SKU.` }],
        ],
        ['create', undefined, []],
        ['update', coded._id, [{ field: 'sku', from: `cd-${s}`, to: null }]],
      ]);

      // By barcode: a row without a barcode is matched by its name, whatever its SKU.
      const id2 = await upload([{ Name: `Coded ${s}`, SKU: `cd-${s}`, Price: '3' }]);
      await checked(id2, {
        matchBy: 'barcode',
        mapping: { name: 'Name', sku: 'SKU', barcode: 'Barcode', price: 'Price' },
      });
      expect((await rowsOf(id2)).map((row) => [row.result, row.product?._id, row.changes])).toEqual([
        ['update', coded._id, [{ field: 'price', from: 2, to: 3 }]],
      ]);
      const id3 = await upload([{ Name: `Triple ${s}`, Price: '3' }]);
      await checked(id3, {
        matchBy: 'barcode',
        mapping: { name: 'Name', barcode: 'Barcode', price: 'Price' },
      });
      expect((await rowsOf(id3))[0]?.errors).toEqual([
        { column: 'Name', message: `3 products are named “Triple ${s}”: give this row a barcode.` },
      ]);
    });

    it('refuses two rows that match one product, one by its SKU and one by its name, on both', async () => {
      const r = await refs();
      const s = tag();
      await product({ name: `Twice ${s}`, sku: `tw-${s}`, category: r.category, supplier: r.supplier });
      const id = await upload([
        { Name: `Twice ${s}`, SKU: `TW-${s}`, Price: '3' },
        {
          Name: `Other ${s}`,
          SKU: `ot-${s}`,
          Price: '1',
          Category: r.categoryName,
          Supplier: r.supplierName,
        },
        { Name: `twice ${s}`, Price: '4' },
      ]);
      await checked(id);
      expect((await rowsOf(id)).map((row) => [row.result, row.errors])).toEqual([
        ['error', [{ column: 'SKU', message: 'The same product is also on line 4.' }]],
        ['create', []],
        ['error', [{ column: 'Name', message: 'The same product is also on line 2.' }]],
      ]);
    });

    it('marks the same SKU, barcode (ignoring case) or, matching by name, name on two rows as errors on both', async () => {
      const r = await refs();
      const base = { Category: r.categoryName, Supplier: r.supplierName, Price: '1' };
      const s = tag();
      const id = await upload([
        { ...base, Name: `A ${s}`, SKU: `dup-${s}`, Barcode: `bar-${s}` },
        { ...base, Name: `B ${s}`, SKU: `other-${s}`, Barcode: `BAR-${s}` },
        { ...base, Name: `C ${s}`, SKU: `DUP-${s}` },
        { ...base, Name: `D ${s}`, SKU: `dup-${s}` },
      ]);
      await checked(id);
      const rows = await rowsOf(id);
      expect(rows.map((row) => row.errors)).toEqual([
        [
          { column: 'SKU', message: 'The same SKU is also on lines 4, 5.' },
          { column: 'Barcode', message: 'The same barcode is also on line 3.' },
        ],
        [{ column: 'Barcode', message: 'The same barcode is also on line 2.' }],
        [{ column: 'SKU', message: 'The same SKU is also on lines 2, 5.' }],
        [{ column: 'SKU', message: 'The same SKU is also on lines 2, 4.' }],
      ]);

      const byName = await upload([
        { ...base, Name: `Same ${s}` },
        { ...base, Name: `same ${s}` },
      ]);
      await checked(byName, { matchBy: 'name' });
      expect((await rowsOf(byName)).map((row) => row.errors)).toEqual([
        [{ column: 'Name', message: 'The same name is also on line 3.' }],
        [{ column: 'Name', message: 'The same name is also on line 2.' }],
      ]);
      // Matching by SKU, two rows with SKUs may share a name; two without, matched by it, may not.
      const withSkus = await upload([
        { ...base, Name: `Same ${s}`, SKU: `one-${s}` },
        { ...base, Name: `same ${s}`, SKU: `two-${s}` },
        { ...base, Name: `Same ${s}` },
        { ...base, Name: ` SAME ${s} `, SKU: '-' },
      ]);
      await checked(withSkus, { matchBy: 'sku' });
      expect((await rowsOf(withSkus)).map((row) => [row.result, row.errors])).toEqual([
        ['create', []],
        ['create', []],
        ['error', [{ column: 'Name', message: 'The same name without a SKU is also on line 5.' }]],
        ['error', [{ column: 'Name', message: 'The same name without a SKU is also on line 4.' }]],
      ]);
    });

    it('refuses a SKU or barcode another product already has', async () => {
      const r = await refs();
      const s = tag();
      await product({
        name: 'Holder',
        sku: `held-${s}`,
        barcode: `hb-${s}`,
        category: r.category,
        supplier: r.supplier,
      });
      await product({ name: 'Mine', sku: `mine-${s}`, category: r.category, supplier: r.supplier });
      const base = { Category: r.categoryName, Supplier: r.supplierName, Price: '1' };
      const id = await upload([
        { ...base, Name: 'Mine', SKU: `mine-${s}`, Barcode: `HB-${s}` },
        { ...base, Name: 'New', SKU: '', Barcode: `hb-${s}` },
      ]);
      await checked(id);
      expect((await rowsOf(id)).map((row) => row.errors)).toEqual([
        [
          { column: 'Barcode', message: 'The same barcode is also on line 3.' },
          { column: 'Barcode', message: 'Another product already has this barcode.' },
        ],
        [
          { column: 'Barcode', message: 'The same barcode is also on line 2.' },
          { column: 'Barcode', message: 'Another product already has this barcode.' },
        ],
      ]);
      const byBarcode = await upload([{ ...base, Name: 'Holder', SKU: `MINE-${s}`, Barcode: `hb-${s}` }]);
      await checked(byBarcode, { matchBy: 'barcode' });
      expect((await rowsOf(byBarcode))[0]?.errors).toEqual([
        { column: 'SKU', message: 'Another product already has this SKU.' },
      ]);
    });

    it('finds categories and suppliers by name ignoring case; missing ones are errors unless created', async () => {
      const r = await refs();
      const s = tag();
      const id = await upload([
        {
          Name: 'One',
          Price: '1',
          Category: r.categoryName.toUpperCase(),
          Supplier: r.supplierName.toLowerCase(),
        },
        { Name: 'Two', Price: '1', Category: `Fresh cat ${s}`, Supplier: `Fresh sup ${s}` },
        { Name: 'Three', Price: '1', Category: `FRESH CAT ${s}`, Supplier: `fresh sup ${s}` },
        { Name: 'Four', Price: '1', Category: `Another cat ${s}`, Supplier: r.supplierName, SKU: 'bad sku' },
      ]);
      await checked(id);
      expect((await rowsOf(id)).map((row) => row.errors)).toEqual([
        [],
        [
          { column: 'Category', message: `No category named “Fresh cat ${s}”.` },
          { column: 'Supplier', message: `No supplier named “Fresh sup ${s}”.` },
        ],
        [
          { column: 'Category', message: `No category named “FRESH CAT ${s}”.` },
          { column: 'Supplier', message: `No supplier named “fresh sup ${s}”.` },
        ],
        [
          { column: 'SKU', message: 'SKU may hold only letters, digits and symbols, no spaces.' },
          { column: 'Category', message: `No category named “Another cat ${s}”.` },
        ],
      ]);
      const created = await checked(id, { createMissing: { categories: true, suppliers: true } });
      // Distinct, first spelling, only from rows the apply writes.
      expect(created.summary).toMatchObject({
        create: 3,
        errors: 1,
        newCategories: [`Fresh cat ${s}`],
        newSuppliers: [`Fresh sup ${s}`],
      });
      const onlyCategories = await checked(id, { createMissing: { categories: true, suppliers: false } });
      expect(onlyCategories.summary).toMatchObject({
        create: 1,
        errors: 3,
        newCategories: [],
        newSuppliers: [],
      });
    });

    it('refuses a supplier name that several suppliers share', async () => {
      const r = await refs();
      const name = `Twin supplier ${tag()}`;
      await t.sql('insert into suppliers (name) values ($1), ($2)', [name, name.toUpperCase()]);
      const id = await upload([{ Name: 'X', Price: '1', Category: r.categoryName, Supplier: name }]);
      await checked(id);
      expect((await rowsOf(id))[0]?.errors).toEqual([
        { column: 'Supplier', message: `2 suppliers are named “${name}”: rename all but one first.` },
      ]);
    });

    it('finds tax rates by name ignoring case; blank keeps the product’s, “-” returns it to the store’s default', async () => {
      const r = await refs();
      const s = tag();
      const rate = (await taxRate({ name: `Reduced ${s}`, rate: 5 }))._id;
      const other = (await taxRate({ name: `Zero ${s}`, rate: 0 }))._id;
      const own = await product({
        name: 'Own rate',
        sku: `own-${s}`,
        category: r.category,
        supplier: r.supplier,
        taxRate: rate,
      });
      await product({ name: 'Default', sku: `def-${s}`, category: r.category, supplier: r.supplier });
      expect(other).toBeTruthy();
      const id = await upload([
        { SKU: `own-${s}`, 'Tax rate': `REDUCED ${s}` },
        { SKU: `def-${s}`, 'Tax rate': '' },
        { SKU: `own-${s}`.toUpperCase(), 'Tax rate': '' },
        { SKU: `def-${s}`.toUpperCase(), 'Tax rate': `zero ${s}` },
        { SKU: `x-${s}`, 'Tax rate': 'Nope' },
      ]);
      const mapping = { sku: 'SKU', taxRate: 'Tax rate' };
      await checked(id, { mapping });
      const rows = await rowsOf(id);
      expect(rows.map((row) => row.result)).toEqual(['error', 'error', 'error', 'error', 'error']);
      // Two rows each for own-… and def-…: duplicates. Check them one at a time instead.
      const one = async (cells: Partial<Record<Header, string>>) => {
        const single = await upload([cells]);
        await checked(single, { mapping });
        return (await rowsOf(single))[0];
      };
      expect(await one({ SKU: `own-${s}`, 'Tax rate': `REDUCED ${s}` })).toMatchObject({
        result: 'unchanged',
        product: { _id: own._id },
      });
      expect(await one({ SKU: `def-${s}`, 'Tax rate': '' })).toMatchObject({ result: 'unchanged' });
      expect(await one({ SKU: `def-${s}`, 'Tax rate': '-' })).toMatchObject({ result: 'unchanged' });
      expect(await one({ SKU: `own-${s}`, 'Tax rate': '' })).toMatchObject({ result: 'unchanged' });
      expect(await one({ SKU: `own-${s}`, 'Tax rate': '-' })).toMatchObject({
        result: 'update',
        changes: [{ field: 'taxRate', from: `Reduced ${s}`, to: null }],
      });
      expect(await one({ SKU: `def-${s}`, 'Tax rate': `zero ${s}` })).toMatchObject({
        result: 'update',
        changes: [{ field: 'taxRate', from: null, to: `Zero ${s}` }],
      });
      expect(await one({ SKU: `x-${s}`, 'Tax rate': 'Nope' })).toMatchObject({
        result: 'error',
        errors: [
          { column: 'Tax rate', message: 'No tax rate named “Nope”.' },
          { column: 'Row', message: 'Name is required for a new product.' },
          { column: 'Row', message: 'Price is required for a new product.' },
          { column: 'Row', message: 'Category is required for a new product.' },
          { column: 'Row', message: 'Supplier is required for a new product.' },
        ],
      });
    });

    it('a new product needs a name, price, category and supplier, each named by its column', async () => {
      const id = await upload([{ SKU: `new-${tag()}` }]);
      await checked(id);
      expect((await rowsOf(id))[0]?.errors).toEqual([
        { column: 'Name', message: 'Name is required for a new product.' },
        { column: 'Category', message: 'Category is required for a new product.' },
        { column: 'Supplier', message: 'Supplier is required for a new product.' },
        { column: 'Price', message: 'Price is required for a new product.' },
      ]);
    });

    it('set, add and ignore the stock column', async () => {
      const r = await refs();
      const s = tag();
      await product({
        name: 'Stocked',
        sku: `st-${s}`,
        category: r.category,
        supplier: r.supplier,
        stock: 7,
      });
      const base = { Name: 'Stocked', SKU: `st-${s}` };
      const mapping = { name: 'Name', sku: 'SKU', stock: 'Stock' };
      const stockOf = async (stock: string, mode: 'set' | 'add' | 'ignore') => {
        const id = await upload([{ ...base, Stock: stock }]);
        await checked(id, { mapping, stock: mode });
        const [row] = await rowsOf(id);
        return [row?.result, row?.changes ?? row?.errors];
      };
      expect(await stockOf('7', 'set')).toEqual(['unchanged', []]);
      expect(await stockOf('', 'set')).toEqual(['unchanged', []]);
      expect(await stockOf('3', 'set')).toEqual(['update', [{ field: 'stock', from: 7, to: 3 }]]);
      expect(await stockOf('0', 'set')).toEqual(['update', [{ field: 'stock', from: 7, to: 0 }]]);
      expect(await stockOf('3', 'add')).toEqual(['update', [{ field: 'stock', from: 7, to: 10 }]]);
      expect(await stockOf('0', 'add')).toEqual(['unchanged', []]);
      expect(await stockOf('', 'add')).toEqual(['unchanged', []]);
      expect(await stockOf('2147483647', 'add')).toEqual([
        'error',
        [{ column: 'Stock', message: 'Stock would be too large.' }],
      ]);
      expect(await stockOf('3', 'ignore')).toEqual(['unchanged', []]);
      expect(await stockOf('not a number', 'ignore')).toEqual(['unchanged', []]);
      expect(await stockOf('-3', 'set')).toEqual([
        'error',
        [{ column: 'Stock', message: 'Stock must be 0 or more.' }],
      ]);
    });

    it('reports only the fields that differ, money to the cent, names ignoring case; unmapped fields stay', async () => {
      const r = await refs();
      const s = tag();
      const rate = (await taxRate({ name: `Standard ${s}`, rate: 20 }))._id;
      await product({
        name: 'Full',
        sku: `full-${s}`,
        barcode: `fb-${s}`,
        description: 'Old text',
        category: r.category,
        supplier: r.supplier,
        price: 10.1,
        cost: 4,
        stock: 3,
        reorderPoint: 2,
        reorderQuantity: 6,
        taxRate: rate,
      });
      const same = {
        Name: 'Full',
        SKU: `full-${s}`,
        Barcode: `fb-${s}`,
        Description: 'Old text',
        Category: r.categoryName.toUpperCase(),
        Supplier: r.supplierName.toLowerCase(),
        Price: '10.10',
        Cost: '4.00',
        Stock: '3',
        'Reorder point': '2',
        'Reorder quantity': '6',
        'Tax rate': `standard ${s}`,
      };
      const other = await refs();
      const id = await upload([same]);
      await checked(id);
      expect((await rowsOf(id))[0]?.result).toBe('unchanged');

      const id2 = await upload([
        {
          ...same,
          Name: 'Full v2',
          Description: '-',
          Category: other.categoryName.toLowerCase(),
          Supplier: other.supplierName,
          Price: '10.11',
          Cost: '-',
          'Reorder point': ' - ',
          'Reorder quantity': '-',
        },
      ]);
      await checked(id2);
      expect((await rowsOf(id2))[0]?.changes).toEqual([
        { field: 'name', from: 'Full', to: 'Full v2' },
        { field: 'description', from: 'Old text', to: '' },
        { field: 'category', from: r.categoryName, to: other.categoryName },
        { field: 'supplier', from: r.supplierName, to: other.supplierName },
        { field: 'price', from: 10.1, to: 10.11 },
        { field: 'cost', from: 4, to: null },
        { field: 'reorderPoint', from: 2, to: null },
        { field: 'reorderQuantity', from: 6, to: null },
      ]);

      // Only SKU and price mapped: the rest is left as it is.
      const id3 = await upload([{ SKU: `full-${s}`, Price: '12' }]);
      await checked(id3, { mapping: { sku: 'SKU', price: 'Price' } });
      expect((await rowsOf(id3))[0]?.changes).toEqual([{ field: 'price', from: 10.1, to: 12 }]);

      // Every column mapped, every cell but SKU and price blank: the same.
      const id4 = await upload([{ SKU: `full-${s}`, Price: '12' }]);
      await checked(id4);
      expect((await rowsOf(id4))[0]?.changes).toEqual([{ field: 'price', from: 10.1, to: 12 }]);

      // The fields every product has cannot be cleared; an error says so.
      const id5 = await upload([
        { SKU: `full-${s}`, Name: '-', Category: '-', Supplier: '-', Price: '-', Stock: '-' },
      ]);
      await checked(id5);
      expect((await rowsOf(id5))[0]?.errors).toEqual(
        (['Name', 'Category', 'Supplier', 'Price', 'Stock'] as const).map((column) => ({
          column,
          message: `${column} cannot be cleared: leave the cell empty to keep it.`,
        })),
      );
    });

    // A NUL cannot be stored in import_rows (PostgreSQL text refuses it), so it never reaches a
    // check; readImportRow's own tests cover it.
    it('reads values that are not values as row errors, never a 500', async () => {
      const r = await refs();
      const base = { Category: r.categoryName, Supplier: r.supplierName, Price: '1' };
      const id = await upload(
        [
          { Price: 'NaN' },
          { Price: '-4' },
          { Price: '1.005' },
          { Price: '1e400' },
          { Stock: '1e12' },
          { Description: 'd'.repeat(10_000) },
          { Category: 'c'.repeat(10_000) },
          { SKU: 's'.repeat(10_000) },
          { Cost: '-0.5' },
          { 'Reorder quantity': '0' },
        ].map((cells, i) => ({ ...base, Name: `Odd ${i}`, ...cells })),
      );
      await checked(id);
      expect((await rowsOf(id)).map((row) => row.errors)).toEqual([
        [{ column: 'Price', message: 'Price must be a number.' }],
        [{ column: 'Price', message: 'Price must be 0 or more.' }],
        [{ column: 'Price', message: 'Price must have at most 2 decimals.' }],
        [{ column: 'Price', message: 'Price is too large.' }],
        [{ column: 'Stock', message: 'Stock is too large.' }],
        [{ column: 'Description', message: 'Must be at most 2000 characters.' }],
        [{ column: 'Category', message: 'Category must be at most 200 characters.' }],
        [{ column: 'SKU', message: 'SKU must be at most 64 characters.' }],
        [{ column: 'Cost', message: 'Unit cost must be 0 or more.' }],
        [{ column: 'Reorder quantity', message: 'Reorder quantity must be at least 1.' }],
      ]);
    });

    it('names columns by the file’s own headers', async () => {
      const r = await refs();
      const id = await uploadCells(
        ['Item', 'Retail', 'Group', 'Vendor'],
        [['Thing', 'cheap', r.categoryName, r.supplierName]],
      );
      await checked(id, {
        matchBy: 'name',
        mapping: { name: 'Item', price: 'Retail', category: 'Group', supplier: 'Vendor' },
      });
      expect((await rowsOf(id))[0]?.errors).toEqual([
        { column: 'Retail', message: 'Price must be a number.' },
      ]);
    });

    it('refuses with 400 a mapping the file cannot serve', async () => {
      const id = await upload([{ Name: 'x' }]);
      const refused = async (body: Partial<ImportCheckInput>, error: string) => {
        const res = await check(id, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ success: false, code: 'BAD_REQUEST', error });
      };
      await refused({ mapping: { name: 'Title' } }, 'The file has no column named “Title”.');
      await refused(
        { mapping: { name: 'Name', description: 'Name', sku: 'SKU' } },
        'Name and Description are both mapped to the column “Name”: a column serves one field.',
      );
      await refused({ mapping: { name: 'Name' } }, 'Map a column to SKU to match products by it.');
      await refused(
        { mapping: { sku: 'SKU' }, matchBy: 'barcode' },
        'Map a column to Barcode to match products by it.',
      );
    });

    it('refuses bad bodies with 400 and one sentence', async () => {
      const id = await upload([{ Name: 'x' }]);
      const bodies: unknown[] = [
        { mapping: [] },
        { mapping: ['Name'] },
        { mapping: 'Name' },
        { mapping: null },
        {},
        [],
        'text',
        { mapping: { name: 'Name', colour: 'Colour' } },
        { mapping: { sku: 'SKU' }, matchBy: 'id' },
        { mapping: { sku: 'SKU' }, stock: 'zap' },
        { mapping: { sku: 'SKU' }, stock: ['set'] },
        { mapping: { sku: 'SKU' }, createMissing: { categories: 'yes' } },
        { mapping: { sku: 'SKU' }, createMissing: true },
        { mapping: { sku: 5 } },
        { mapping: { sku: 'S\0KU' } },
        { mapping: { sku: 'x'.repeat(10_000) } },
      ];
      for (const body of bodies) {
        const res = await t.call('POST', `/api/imports/${id}/check`, {
          token: t.as.admin.token,
          body: body as object,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(parsed(res, ApiError).success).toBe(false);
        expect(parsed(res, ApiError).error).toMatch(/\.$/);
      }
      // Unknown top-level fields are ignored (DESIGN §3).
      const ok = await check(id, { extra: 1 } as Partial<ImportCheckInput>);
      expect(ok.status).toBe(200);
    });

    it('is admin work: other roles get 403, no token 401', async () => {
      const id = await upload([{ Name: 'x' }]);
      for (const role of ['superAdmin', 'salesRep', 'medicalRep', 'user'] as const) {
        expect((await check(id, {}, t.as[role].token)).status).toBe(403);
        const rows = await t.call('GET', `/api/imports/${id}/rows`, { token: t.as[role].token });
        expect(rows.status).toBe(403);
      }
      expect((await t.call('POST', `/api/imports/${id}/check`, { body: { mapping: MAPPING } })).status).toBe(
        401,
      );
    });

    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', '1', "'; drop table imports; --"]) {
        const res = await check(encodeURIComponent(id));
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Import not found.' });
        const rows = await t.call('GET', `/api/imports/${encodeURIComponent(id)}/rows`, {
          token: t.as.admin.token,
        });
        expect(rows.status).toBe(404);
      }
    });

    it('refuses with 409 while the import is applied and once it has been; a failed apply may be checked again', async () => {
      const id = await upload([{ Name: 'x', SKU: `z-${tag()}` }]);
      await checked(id);
      for (const status of ['applying', 'applied'] as const) {
        await t.sql('update imports set status = $2 where id = $1', [id, status]);
        const res = await check(id);
        expect(res.status).toBe(409);
        expect(parsed(res, ApiError).error).toMatch(/\.$/);
      }
      await t.sql(`update imports set status = 'failed', failure = 'The database went away.' where id = $1`, [
        id,
      ]);
      const again = await checked(id);
      expect(again).toMatchObject({ status: 'checked', failure: null });
    });

    it('checks an import without rows, and two checks at once end as one whole check', async () => {
      const empty = await uploadCells([...HEADER], []);
      expect((await checked(empty)).summary).toEqual({
        create: 0,
        update: 0,
        unchanged: 0,
        errors: 0,
        skipped: 0,
        newCategories: [],
        newSuppliers: [],
      });
      const r = await refs();
      const s = tag();
      const rows = Array.from({ length: 30 }, (_, i) => ({
        Name: `Both ${i}`,
        SKU: `both-${s}-${i}`,
        Price: '1',
        Category: r.categoryName,
        Supplier: r.supplierName,
        Stock: 'x',
      }));
      const id = await upload(rows);
      const [a, b] = await Promise.all([check(id, { stock: 'ignore' }), check(id, { stock: 'set' })]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const [record] = await t.sql<{
        options: { stock: string };
        summary: { create: number; errors: number };
      }>('select options, summary from imports where id = $1', [id]);
      // Whichever ran last, its summary and every row agree with its options.
      const results = await t.sql<{ result: string }>('select result from import_rows where import_id = $1', [
        id,
      ]);
      const expected = record?.options.stock === 'ignore' ? 'create' : 'error';
      expect(results.every((row) => row.result === expected)).toBe(true);
      expect(record?.summary).toMatchObject(expected === 'create' ? { create: 30 } : { errors: 30 });
    });

    it('a second check replaces the first', async () => {
      const r = await refs();
      const s = tag();
      const id = await upload([
        { Name: 'Twice', SKU: `tw-${s}`, Price: '1', Category: `Cat2 ${s}`, Supplier: r.supplierName },
      ]);
      const first = await checked(id, { createMissing: { categories: true, suppliers: false } });
      expect(first.summary).toMatchObject({ create: 1, errors: 0, newCategories: [`Cat2 ${s}`] });
      const second = await checked(id, { stock: 'ignore' });
      expect(second.summary).toMatchObject({ create: 0, errors: 1, newCategories: [] });
      expect(second.options).toEqual({
        matchBy: 'sku',
        createMissing: { categories: false, suppliers: false },
        stock: 'ignore',
        // DESIGN §17: the location the stock goes to, the default one when none is named.
        location: expect.any(String),
        // DESIGN §22: the layout, the one guessed at upload when none is asked.
        format: 'generic',
      });
      expect((await rowsOf(id))[0]).toMatchObject({
        result: 'error',
        errors: [{ column: 'Category', message: `No category named “Cat2 ${s}”.` }],
      });
    });
  });

  describe('GET /api/imports/:id/rows', () => {
    it('answers 409 before any check', async () => {
      const id = await upload([{ Name: 'x' }]);
      const res = await t.call('GET', `/api/imports/${id}/rows`, { token: t.as.admin.token });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        success: false,
        code: 'CONFLICT',
        error: 'This import has not been checked yet: check it first.',
      });
    });

    it('pages the rows in line order, with their cells, and filters by result', async () => {
      const r = await refs();
      const s = tag();
      const cells = Array.from({ length: 45 }, (_, i) => ({
        Name: `Row ${i}`,
        SKU: `pg-${s}-${i}`,
        Price: i % 3 === 0 ? 'bad' : '1',
        Category: r.categoryName,
        Supplier: r.supplierName,
      }));
      const id = await upload(cells);
      await checked(id);
      const first = await t.call('GET', `/api/imports/${id}/rows`, { token: t.as.admin.token });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ total: 45, page: 1, pageSize: 20 });
      expect(parsed(first, ImportRowsResponse).rows).toHaveLength(20);
      expect(nth(parsed(first, ImportRowsResponse).rows)).toEqual({
        row: 2,
        result: 'error',
        errors: [{ column: 'Price', message: 'Price must be a number.' }],
        warnings: [],
        cells: HEADER.map((h) => (cells[0] as Record<string, string>)[h] ?? ''),
      });
      const third = await t.call('GET', `/api/imports/${id}/rows?page=3&pageSize=20`, {
        token: t.as.admin.token,
      });
      expect(parsed(third, ImportRowsResponse).rows.map((row) => row.row)).toEqual([42, 43, 44, 45, 46]);
      const errors = await t.call('GET', `/api/imports/${id}/rows?result=error&pageSize=100`, {
        token: t.as.admin.token,
      });
      expect(parsed(errors, ImportRowsResponse).total).toBe(15);
      expect(parsed(errors, ImportRowsResponse).rows.every((row) => row.result === 'error')).toBe(true);
      expect(
        parsed(errors, ImportRowsResponse)
          .rows.map((row) => row.row)
          .slice(0, 3),
      ).toEqual([2, 5, 8]);
      const none = await t.call('GET', `/api/imports/${id}/rows?result=update`, { token: t.as.admin.token });
      expect(none.body).toMatchObject({ rows: [], total: 0 });
      const past = await t.call('GET', `/api/imports/${id}/rows?page=99`, { token: t.as.admin.token });
      expect(past.body).toMatchObject({ rows: [], total: 45 });
    });

    it('refuses bad queries with 400', async () => {
      const id = await upload([{ Name: 'x' }]);
      await checked(id);
      for (const query of [
        'result=zap',
        'page=0',
        'page=-1',
        'page=NaN',
        'pageSize=1000',
        'pageSize=1.5',
        'page=1e99',
        'result=error&result=create',
      ]) {
        const res = await t.call('GET', `/api/imports/${id}/rows?${query}`, { token: t.as.admin.token });
        expect(res.status, query).toBe(400);
        expect(parsed(res, ApiError).error).toMatch(/\.$/);
      }
    });
  });

  describe('round trip', () => {
    it('a file exported and imported again is unchanged; two edited cells are exactly two updates', async () => {
      // A store of its own, so the export holds only these products.
      const own = await startApp(target);
      try {
        const call = (method: string, url: string, body?: unknown) =>
          own.call(method, url, { token: own.as.admin.token, ...(body === undefined ? {} : { body }) });
        const category = parsed(
          await call('POST', '/api/category/add', { formCategory: 'Pain, "relief"', formDescription: '' }),
          CategoryResponse,
        ).category._id;
        const supplier = parsed(
          await call('POST', '/api/supplier/add', { name: '=Acme', email: '', phone: '', address: '' }),
          SupplierResponse,
        ).supplier._id;
        const reduced = parsed(
          await call('POST', '/api/tax-rates', { name: 'Reduced', rate: 5 }),
          TaxRateResponse,
        ).taxRate._id;
        const standard = parsed(
          await call('POST', '/api/tax-rates', { name: 'Standard', rate: 20 }),
          TaxRateResponse,
        ).taxRate._id;
        expect((await call('PUT', '/api/settings/store', { defaultTaxRate: standard })).status).toBe(200);
        const made = [
          {
            name: 'Aspirin',
            sku: 'ASP-1',
            barcode: '400100',
            description: 'Pain relief, 20 tablets',
            price: 4.5,
            cost: 2.25,
            stock: 12,
            reorderPoint: 3,
            reorderQuantity: 10,
            taxRate: reduced,
          },
          { name: 'Bandage', sku: 'BAN-1', barcode: null, description: '', price: 0.99, stock: 0 },
          {
            name: '-Minus',
            sku: 'MIN-1',
            description: '+plus @at =eq',
            price: 1000000,
            cost: 0,
            stock: 3,
            reorderPoint: 0,
            taxRate: standard,
          },
          {
            name: 'Quote "q"',
            sku: 'Q-1',
            description: 'line one\nline two',
            price: 0,
            stock: 2147483647,
            reorderQuantity: 1,
          },
        ];
        for (const values of made) {
          const res = await call('POST', '/api/products/add', { ...values, category, supplier });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
        }
        const exported = await call('GET', '/api/products?format=csv');
        expect(exported.status).toBe(200);
        const [header, ...lines] = parseCsv(exported.text.replace(/^\uFEFF/, ''));
        expect(header).toEqual(HEADER);
        const importOf = (rows: string[][]) =>
          createImport(
            own.app.db,
            {
              fileName: 'products.csv',
              fileType: 'csv',
              columns: header as string[],
              mapping: {},
              rows: rows.map((cells, i) => ({ line: i + 2, cells })),
            },
            { id: own.as.admin.id, name: own.as.admin.name, role: 'admin' },
          );
        const checkAll = async (id: string) => {
          const res = await own.call('POST', `/api/imports/${id}/check`, {
            token: own.as.admin.token,
            body: { mapping: MAPPING, matchBy: 'sku' },
          });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          const rows = await own.call('GET', `/api/imports/${id}/rows?pageSize=100`, {
            token: own.as.admin.token,
          });
          return {
            summary: parsed(res, ImportResponse).import.summary,
            rows: parsed(rows, ImportRowsResponse).rows,
          };
        };
        const same = await checkAll(await importOf(lines));
        expect(same.summary).toMatchObject({ create: 0, update: 0, unchanged: 4, errors: 0 });

        const price = HEADER.indexOf('Price');
        const tax = HEADER.indexOf('Tax rate');
        const edited = lines.map((cells) => [...cells]);
        const aspirin = edited.find((cells) => cells[0] === 'Aspirin') as string[];
        const bandage = edited.find((cells) => cells[0] === 'Bandage') as string[];
        aspirin[price] = '4.75';
        bandage[tax] = 'reduced';
        const changed = await checkAll(await importOf(edited));
        expect(changed.summary).toMatchObject({ create: 0, update: 2, unchanged: 2, errors: 0 });
        const updates = changed.rows.filter((row) => row.result === 'update');
        expect(updates.map((row) => [row.product?.name, row.changes])).toEqual([
          ['Aspirin', [{ field: 'price', from: 4.5, to: 4.75 }]],
          ['Bandage', [{ field: 'taxRate', from: null, to: 'Reduced' }]],
        ]);
      } finally {
        await own.close();
      }
    });
  });
});
