import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { csvRow } from '../../../shared/csv';
import { ImportResponse } from '../../../shared/imports';
import { ProductLocationsResponse } from '../../../shared/locations';
import { ExpiringResponse, TraceResponse } from '../../../shared/lots';
import { ProductListResponse, ProductResponse } from '../../../shared/products';
import { MOVEMENT_CSV_HEADER, MovementListResponse, MovementResponse } from '../../../shared/stock';
import { transferNumber } from '../../../shared/transfers';
import { fixtures, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { parseCsv } from '../../test/parse-csv';
import { recordMovements } from './movements';

/**
 * Stock per location (DESIGN §17): adjustments, counts and imports at a location, every movement
 * naming its location (and a transfer movement its transfer), a product's stock by location with
 * its reorder points and units in transit, the product list and the expiring list at a location.
 */
describe.each(targets)('stock by location on $name', (target) => {
  let t: TestApp;
  let main: { _id: string; name: string };
  let room: { _id: string; name: string };
  let closed: { _id: string; name: string };
  beforeAll(async () => {
    t = await startApp(target);
    const [found] = await t.sql<{ _id: string; name: string }>(
      'select id as "_id", name from locations where id = default_location()',
    );
    main = found as { _id: string; name: string };
    room = await place(`Stockroom ${tag()}`);
    closed = await place(`Closed ${tag()}`, false);
  });
  afterAll(() => t?.close());

  const { stockOf, ledgerOf } = fixtures(() => t);
  const admin = () => t.as.admin.token;
  async function place(name: string, active = true) {
    const [row] = await t.sql<{ _id: string; name: string }>(
      `insert into locations (name, kind, active) values ($1, 'stockroom', $2) returning id as "_id", name`,
      [name, active],
    );
    return row as { _id: string; name: string };
  }
  const adjust = (id: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.call('POST', `/api/products/${id}/adjust`, { token: admin(), body, headers });
  const count = (id: string, body: Record<string, unknown>) =>
    t.call('POST', `/api/products/${id}/count`, { token: admin(), body });
  const stockAt = async (productId: string, locationId: string) =>
    (
      await t.sql<{ stock: number }>(
        'select stock from location_stock where product_id = $1 and location_id = $2',
        [productId, locationId],
      )
    )[0]?.stock ?? 0;
  const byLocation = async (id: string, token = admin()) => {
    const res = await t.call('GET', `/api/products/${id}/stock`, { token });
    return parsed(res, ProductLocationsResponse);
  };
  /** The product's stock, each location's stock and the ledger agree. */
  const holds = async (id: string) => {
    const [sum] = await t.sql<{ n: number }>(
      'select coalesce(sum(stock), 0)::int as n from location_stock where product_id = $1',
      [id],
    );
    expect(sum?.n).toBe(await stockOf(id));
    expect(await ledgerOf(id)).toBe(await stockOf(id));
    const places = await t.sql<{ location_id: string; stock: number; moved: number }>(
      `select ls.location_id, ls.stock,
              (select coalesce(sum(quantity), 0)::int from stock_movements m
                where m.product_id = ls.product_id and m.location_id = ls.location_id) as moved
         from location_stock ls where ls.product_id = $1`,
      [id],
    );
    for (const row of places) expect(row.stock).toBe(row.moved);
  };

  describe('adjustments and counts take a location', () => {
    it('with one location the answers hold as before, and every movement names the main store', async () => {
      const { id } = await t.product({ stock: 10 });
      const res = await adjust(id, { quantity: -3, reason: 'damaged' });
      const body = parsed(res, MovementResponse);
      expect(body.product.stock).toBe(7);
      expect(body.movement).toMatchObject({
        kind: 'adjustment',
        quantity: -3,
        stockAfter: 7,
        location: main,
      });
      expect(body.movement.transfer).toBeUndefined();
      const counted = parsed(await count(id, { counted: 9 }), MovementResponse);
      expect(counted.movement).toMatchObject({ kind: 'count', quantity: 2, stockAfter: 9, location: main });
      const page = parsed(
        await t.call('GET', `/api/products/${id}/movements`, { token: admin() }),
        MovementListResponse,
      );
      expect(page.movements.map((m) => m.location)).toEqual([main, main, main]);
      await holds(id);
    });

    it('adds at the location named, counts there (counted − stock there), and keeps the product the sum', async () => {
      const { id } = await t.product({ stock: 10 });
      const added = parsed(
        await adjust(id, { quantity: 4, reason: 'received', location: room._id }),
        MovementResponse,
      );
      expect(added.movement).toMatchObject({ quantity: 4, stockAfter: 4, location: room });
      expect(added.product.stock).toBe(14);
      const counted = parsed(await count(id, { counted: 1, location: room._id }), MovementResponse);
      expect(counted.movement).toMatchObject({ kind: 'count', quantity: -3, stockAfter: 1, location: room });
      expect(counted.product.stock).toBe(11);
      expect(await stockAt(id, main._id)).toBe(10);
      expect(await stockAt(id, room._id)).toBe(1);
      // A count at the main store sets the main store's stock, not the total.
      const there = parsed(await count(id, { counted: 10 }), MovementResponse);
      expect(there.movement.quantity).toBe(0);
      const [audit] = await t.sql<{ changes: { field: string; new: unknown }[] }>(
        `select changes from audit_log where entity_id = $1 and action = 'stockCounted' order by at, id limit 1`,
        [id],
      );
      expect(audit?.changes).toContainEqual({ field: 'location', new: room.name });
      await holds(id);
    });

    it('taking more than the location holds is a 409 naming the product and the location, with where else it is', async () => {
      const { id } = await t.product({ stock: 3, name: `Short ${tag()}` });
      parsed(await adjust(id, { quantity: 5, reason: 'received', location: room._id }), MovementResponse);
      const res = await adjust(id, { quantity: -4, reason: 'lost' });
      expect(res.status).toBe(409);
      const body = parsed(res, ApiError);
      expect(body.code).toBe('SHORT_AT_LOCATION');
      expect(body.error).toMatch(new RegExp(`^Not enough stock of Short .+ at ${main.name}: 3 left\\.$`));
      expect(body.elsewhere).toEqual([{ location: room, stock: 5 }]);
      // Nothing moved.
      expect(await stockAt(id, main._id)).toBe(3);
      expect(await stockOf(id)).toBe(8);
      await holds(id);
    });

    it('refuses an unknown, unparsable or inactive location, and bad input, with one sentence', async () => {
      const { id } = await t.product({ stock: 3 });
      const cases: [Record<string, unknown>, number][] = [
        [{ location: '00000000-0000-4000-8000-000000000000' }, 404],
        [{ location: 'not-a-uuid' }, 404],
        [{ location: `a\u0000b` }, 400],
        [{ location: 'x'.repeat(10_000) }, 400],
        [{ location: ['a'] }, 400],
        [{ location: 12 }, 400],
        [{ location: '' }, 400],
        [{ location: closed._id }, 409],
      ];
      for (const [extra, status] of cases) {
        for (const res of [
          await adjust(id, { quantity: 1, reason: 'found', ...extra }),
          await count(id, { counted: 1, ...extra }),
        ]) {
          expect(res.status, `${JSON.stringify(extra).slice(0, 80)} ${res.text}`).toBe(status);
          const body = parsed(res, ApiError);
          if (status === 404) expect(body.error).toBe('Location not found.');
          if (status === 409) expect(body.code).toBe('LOCATION_INACTIVE');
        }
      }
      for (const quantity of [Number.NaN, '1', [1]]) {
        const res = await t.call('POST', `/api/products/${id}/adjust`, {
          token: admin(),
          body: { quantity, reason: 'found', location: room._id },
        });
        expect(res.status).toBe(400);
      }
      expect(await stockOf(id)).toBe(3);
      await holds(id);
    });

    it('an adjustment at a location happens once per Idempotency-Key', async () => {
      const { id } = await t.product({ stock: 0 });
      const key = `loc-${tag()}`;
      const first = await adjust(
        id,
        { quantity: 2, reason: 'found', location: room._id },
        { 'idempotency-key': key },
      );
      const again = await adjust(
        id,
        { quantity: 2, reason: 'found', location: room._id },
        { 'idempotency-key': key },
      );
      expect(again.body).toEqual(first.body);
      expect(await stockAt(id, room._id)).toBe(2);
    });
  });

  describe('movements name their location and transfer', () => {
    it('a transfer movement names its transfer TR-000…, in the list and the CSV (with a location column)', async () => {
      const { id } = await t.product({ stock: 6 });
      const [transfer] = await t.sql<{ id: string; number: number }>(
        `insert into transfers (from_location_id, to_location_id, status) values ($1, $2, 'inTransit')
         returning id, number`,
        [main._id, room._id],
      );
      await t.sql(
        `insert into transfer_lines (transfer_id, line_no, product_id, product_name, quantity, sent)
         values ($1, 1, $2, 'x', 2, 2)`,
        [transfer?.id, id],
      );
      await recordMovements(t.app.database, [
        { productId: id, kind: 'transferOut', quantity: -2, locationId: main._id, transferId: transfer?.id },
      ]);
      const number = transferNumber(transfer?.number as number);
      const page = parsed(
        await t.call('GET', `/api/products/${id}/movements`, { token: admin() }),
        MovementListResponse,
      );
      expect(page.movements[0]).toMatchObject({
        kind: 'transferOut',
        location: main,
        transfer: { _id: transfer?.id, number },
      });
      expect(page.movements[1]?.transfer).toBeUndefined();
      const csv = await t.call('GET', `/api/products/${id}/movements?format=csv`, { token: admin() });
      expect(csv.status).toBe(200);
      const [header, first, second] = parseCsv(csv.text);
      expect(header).toEqual([...MOVEMENT_CSV_HEADER]);
      // The location, the transfer and the value (DESIGN §19: the product has no cost, so 0).
      expect(first?.slice(-3)).toEqual([main.name, number, '0.00']);
      expect(second?.slice(-3)).toEqual([main.name, '', '0.00']);
      // Two units in transit: they belong to no location.
      const stock = await byLocation(id);
      expect(stock.inTransit).toBe(2);
      expect(stock.locations.find((line) => line.location._id === main._id)?.stock).toBe(4);
    });
  });

  describe('GET /api/products/:id/stock and PUT /api/products/:id/locations/:locationId', () => {
    it('answers one line per active location (and inactive ones holding stock), by name, for every role but the superAdmin', async () => {
      const { id } = await t.product({ stock: 5 });
      const body = await byLocation(id);
      const names = body.locations.map((line) => line.location.name);
      expect(names).toContain(main.name);
      expect(names).toContain(room.name);
      expect(names).not.toContain(closed.name);
      expect(body.locations.find((line) => line.location._id === main._id)).toEqual({
        location: main,
        stock: 5,
        reorderPoint: null,
        reorderQuantity: null,
      });
      expect(body.inTransit).toBe(0);
      for (const role of ['salesRep', 'medicalRep', 'user'] as const)
        expect((await t.call('GET', `/api/products/${id}/stock`, { token: t.as[role].token })).status).toBe(
          200,
        );
      expect(
        (await t.call('GET', `/api/products/${id}/stock`, { token: t.as.superAdmin.token })).status,
      ).toBe(403);
      for (const bad of ['00000000-0000-4000-8000-000000000000', 'nope', 'x'.repeat(10_000)])
        expect((await t.call('GET', `/api/products/${bad}/stock`, { token: admin() })).status).toBe(404);
    });

    it('sets a location’s own reorder point without touching the stock, audited, once per key', async () => {
      const { id } = await t.product({ stock: 5 });
      const put = (locationId: string, body: unknown, headers: Record<string, string> = {}) =>
        t.call('PUT', `/api/products/${id}/locations/${locationId}`, { token: admin(), body, headers });
      const key = `reorder-${tag()}`;
      const res = await put(room._id, { reorderPoint: 3, reorderQuantity: 10 }, { 'idempotency-key': key });
      const body = parsed(res, ProductLocationsResponse);
      expect(body.locations.find((line) => line.location._id === room._id)).toMatchObject({
        stock: 0,
        reorderPoint: 3,
        reorderQuantity: 10,
      });
      expect(
        (await put(room._id, { reorderPoint: 3, reorderQuantity: 10 }, { 'idempotency-key': key })).body,
      ).toEqual(res.body);
      parsed(await put(main._id, { reorderPoint: 1, reorderQuantity: null }), ProductLocationsResponse);
      expect(await stockAt(id, main._id)).toBe(5);
      const back = parsed(
        await put(room._id, { reorderPoint: null, reorderQuantity: null }),
        ProductLocationsResponse,
      );
      expect(back.locations.find((line) => line.location._id === room._id)?.reorderPoint).toBeNull();
      const audits = await t.sql<{ changes: unknown }>(
        `select changes from audit_log where entity_id = $1 and action = 'updated' order by at, id`,
        [id],
      );
      expect(audits).toHaveLength(3);
      expect(audits[0]?.changes).toEqual([
        { field: 'location', new: room.name },
        { field: 'reorderPoint', old: null, new: 3 },
        { field: 'reorderQuantity', old: null, new: 10 },
      ]);
      await holds(id);
      const bad: [string, unknown, number][] = [
        [room._id, { reorderPoint: -1, reorderQuantity: null }, 400],
        [room._id, { reorderPoint: '1', reorderQuantity: null }, 400],
        [room._id, { reorderPoint: 1.5, reorderQuantity: null }, 400],
        [room._id, { reorderPoint: 'x'.repeat(10_000), reorderQuantity: null }, 413],
        [room._id, { reorderPoint: [1], reorderQuantity: null }, 400],
        [room._id, { reorderPoint: 1, reorderQuantity: 0 }, 400],
        [room._id, { reorderPoint: 1 }, 400],
        ['00000000-0000-4000-8000-000000000000', { reorderPoint: 1, reorderQuantity: 1 }, 404],
        ['x'.repeat(10_000), { reorderPoint: 1, reorderQuantity: 1 }, 404],
      ];
      for (const [where, payload, status] of bad) {
        const answer = await put(where, payload);
        expect(answer.status, answer.text).toBe(status);
        parsed(answer, ApiError);
      }
      const rep = await t.call('PUT', `/api/products/${id}/locations/${room._id}`, {
        token: t.as.salesRep.token,
        body: { reorderPoint: 1, reorderQuantity: 1 },
      });
      expect(rep.status).toBe(403);
    });

    it('a lot-tracked product’s line lists its lots there', async () => {
      const { id } = await t.product({ stock: 0 });
      await t.sql(`update products set tracking = 'lot' where id = $1`, [id]);
      parsed(
        await adjust(id, {
          quantity: 3,
          reason: 'received',
          lot: { number: 'L1', expiresOn: '2030-01-01' },
          location: room._id,
        }),
        MovementResponse,
      );
      const body = await byLocation(id);
      const line = body.locations.find((l) => l.location._id === room._id);
      expect(line?.stock).toBe(3);
      expect(line?.lots).toEqual([
        { _id: expect.any(String), number: 'L1', expiresOn: '2030-01-01', quantity: 3 },
      ]);
      expect(body.locations.find((l) => l.location._id === main._id)?.lots).toEqual([]);
      // A count of the lot at the stockroom counts its units there.
      const counted = parsed(
        await count(id, { counted: 1, lot: { number: 'L1' }, location: room._id }),
        MovementResponse,
      );
      expect(counted.movement).toMatchObject({ quantity: -2, location: room, lot: { number: 'L1' } });
      const trace = parsed(
        await t.call('GET', `/api/lots/${line?.lots?.[0]?._id}/trace`, { token: admin() }),
        TraceResponse,
      );
      expect(trace.movements.map((m) => m.location)).toEqual([room, room]);
      const expiring = parsed(
        await t.call('GET', `/api/lots/expiring?days=365&location=${room._id}`, { token: admin() }),
        ExpiringResponse,
      );
      expect(expiring.lots).toEqual([]);
      await holds(id);
    });
  });

  describe('GET /api/products?location=', () => {
    it('answers each product’s stock there beside stockTotal; without it the answer is unchanged', async () => {
      const name = `Located ${tag()}`;
      const { id } = await t.product({ stock: 7, name });
      parsed(await adjust(id, { quantity: 2, reason: 'found', location: room._id }), MovementResponse);
      const search = encodeURIComponent(name);
      const plain = parsed(
        await t.call('GET', `/api/products?page=1&pageSize=5&search=${search}`, { token: admin() }),
        ProductListResponse,
      );
      expect(plain.products[0]?.stock).toBe(9);
      expect(plain.products[0]).not.toHaveProperty('stockTotal');
      const here = parsed(
        await t.call('GET', `/api/products?page=1&pageSize=5&search=${search}&location=${room._id}`, {
          token: t.as.user.token,
        }),
        ProductListResponse,
      );
      expect(here.products[0]).toMatchObject({ _id: id, stock: 2, stockTotal: 9 });
      const paged = parsed(
        await t.call(
          'GET',
          `/api/products?page=1&pageSize=100&search=${search}&sort=-stock&location=${main._id}`,
          { token: admin() },
        ),
        ProductListResponse,
      );
      expect(paged.products.find((p) => p._id === id)).toMatchObject({ stock: 7, stockTotal: 9 });
      const whole = parsed(
        await t.call('GET', `/api/products?location=${room._id}`, { token: admin() }),
        ProductListResponse,
      );
      expect(whole.products.find((p) => p._id === id)).toMatchObject({ stock: 2, stockTotal: 9 });
      expect(whole.products.every((p) => p.stockTotal !== undefined)).toBe(true);
      const csv = await t.call('GET', `/api/products?format=csv&search=${search}&location=${room._id}`, {
        token: admin(),
      });
      expect(csv.status).toBe(200);
      const [header, row] = parseCsv(csv.text);
      expect(row?.[header?.indexOf('Stock') ?? -1]).toBe('2');
      for (const [bad, status] of [
        ['00000000-0000-4000-8000-000000000000', 404],
        ['nope', 404],
        ['x'.repeat(10_000), 400],
        ['', 400],
      ] as const) {
        const res = await t.call('GET', `/api/products?page=1&location=${bad}`, { token: admin() });
        expect(res.status, res.text).toBe(status);
        parsed(res, ApiError);
      }
      const arrays = await t.call('GET', `/api/products?page=1&location=${room._id}&location=${main._id}`, {
        token: admin(),
      });
      expect(arrays.status).toBe(400);
      const sa = await t.call('GET', `/api/products?page=1&location=${room._id}`, {
        token: t.as.superAdmin.token,
      });
      expect(sa.status).toBe(403);
    });
  });

  describe('the expiring list by location', () => {
    it('lists the lots with units at the location, their units there; CSV too', async () => {
      const { id } = await t.product({ stock: 0 });
      await t.sql(`update products set tracking = 'lot' where id = $1`, [id]);
      const number = `EXP-${tag()}`;
      const lot = { number, expiresOn: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10) };
      parsed(await adjust(id, { quantity: 4, reason: 'received', lot }), MovementResponse);
      parsed(
        await adjust(id, { quantity: 3, reason: 'received', lot: { number }, location: room._id }),
        MovementResponse,
      );
      const list = async (query: string) =>
        parsed(
          await t.call('GET', `/api/lots/expiring?pageSize=100${query}`, { token: admin() }),
          ExpiringResponse,
        );
      const mine = (body: { lots: { lot: { number: string }; quantity: number }[] }) =>
        body.lots.filter((row) => row.lot.number === number).map((row) => row.quantity);
      expect(mine(await list(''))).toEqual([7]);
      expect(mine(await list(`&location=${room._id}`))).toEqual([3]);
      expect(mine(await list(`&location=${main._id}`))).toEqual([4]);
      expect(mine(await list(`&location=${closed._id}`))).toEqual([]);
      const csv = await t.call('GET', `/api/lots/expiring?format=csv&location=${room._id}`, {
        token: admin(),
      });
      expect(csv.status).toBe(200);
      const row = parseCsv(csv.text).find((cells) => cells[1] === number);
      expect(row?.[3]).toBe('3');
      for (const [bad, status] of [
        ['00000000-0000-4000-8000-000000000000', 404],
        ['nope', 404],
        ['x'.repeat(10_000), 400],
      ] as const) {
        const res = await t.call('GET', `/api/lots/expiring?location=${bad}`, { token: admin() });
        expect(res.status, res.text).toBe(status);
        parsed(res, ApiError);
      }
      await holds(id);
    });
  });

  describe('imports take a location', () => {
    const category = `Imported ${tag()}`;
    const supplier = `Importer ${tag()}`;
    const fileOf = (rows: (string | number)[][]) =>
      [['Name', 'SKU', 'Category', 'Supplier', 'Price', 'Stock'], ...rows]
        .map((cells) => csvRow(cells))
        .join('');
    const imported = async (rows: (string | number)[][], location?: string) => {
      const up = await t.call('POST', `/api/imports/products?fileName=loc-${tag()}.csv`, {
        token: admin(),
        body: fileOf(rows),
        headers: { 'content-type': 'text/csv' },
      });
      expect(up.status, up.text).toBe(201);
      const uploaded = ImportResponse.parse(up.body).import;
      const checked = await t.call('POST', `/api/imports/${uploaded._id}/check`, {
        token: admin(),
        body: {
          mapping: uploaded.mapping,
          createMissing: { categories: true, suppliers: true },
          ...(location === undefined ? {} : { location }),
        },
      });
      return { id: uploaded._id, checked };
    };
    const apply = async (id: string) => {
      const res = await t.call('POST', `/api/imports/${id}/apply`, { token: admin(), body: {} });
      expect(res.status, res.text).toBe(202);
      await t.app.importApplier.applying(id);
    };

    it('opens created products at the location and sets an existing product’s stock there', async () => {
      const sku = `IMP-${tag()}`;
      const { id, checked } = await imported(
        [[`Imported ${sku}`, sku, category, supplier, '2.00', 6]],
        room._id,
      );
      expect(checked.status, checked.text).toBe(200);
      expect(ImportResponse.parse(checked.body).import.options?.location).toBe(room._id);
      await apply(id);
      const [product] = await t.sql<{ id: string }>('select id from products where sku = $1', [sku]);
      const productId = product?.id as string;
      expect(await stockAt(productId, room._id)).toBe(6);
      expect(await stockAt(productId, main._id)).toBe(0);
      // Give it 5 at the main store, then set the stockroom to 2 by import: the main store keeps 5.
      parsed(await adjust(productId, { quantity: 5, reason: 'found' }), MovementResponse);
      const again = await imported([[`Imported ${sku}`, sku, category, supplier, '2.00', 2]], room._id);
      await apply(again.id);
      expect(await stockAt(productId, room._id)).toBe(2);
      expect(await stockAt(productId, main._id)).toBe(5);
      // Without a location: the default location's stock is set.
      const plain = await imported([[`Imported ${sku}`, sku, category, supplier, '2.00', 1]]);
      expect(ImportResponse.parse(plain.checked.body).import.options?.location).toBe(main._id);
      await apply(plain.id);
      expect(await stockAt(productId, main._id)).toBe(1);
      expect(await stockAt(productId, room._id)).toBe(2);
      const after = parsed(
        await t.call('GET', `/api/products/${productId}`, { token: admin() }),
        ProductResponse,
      );
      expect(after.product.stock).toBe(3);
      await holds(productId);
    });

    it('refuses an unknown or inactive location at the check', async () => {
      for (const [location, status] of [
        ['00000000-0000-4000-8000-000000000000', 404],
        ['nope', 404],
        [closed._id, 409],
        ['x'.repeat(10_000), 400],
        [['a'], 400],
      ] as const) {
        const { checked } = await imported(
          [['X', `BAD-${tag()}`, category, supplier, '1.00', 1]],
          location as string,
        );
        expect(checked.status, checked.text).toBe(status);
        parsed(checked, ApiError);
      }
    });
  });
});
