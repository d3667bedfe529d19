import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { LotsResponse } from '../../../shared/lots';
import { Product, ProductListResponse, ProductResponse } from '../../../shared/products';
import {
  MOVEMENT_CSV_HEADER,
  MovementListResponse,
  MovementResponse,
  StockCheckResponse,
} from '../../../shared/stock';
import { fixtures, nth, tag } from '../../test/fixtures';
import { type Answer, parsed, startApp, type TestApp, targets } from '../../test/harness';
import { lotLedgerOf } from '../../test/lot-ledger';
import { parseCsv } from '../../test/parse-csv';

/**
 * Lot-tracked stock through the routes (DESIGN §15): products created and edited with `tracking`,
 * adjustments and counts naming their lot, movements naming theirs, a product's lots, and the stock
 * check over every lot. After each step: a lot = the sum of its movements, and a product = the sum
 * of its lots = the sum of its movements.
 */
describe.each(targets)('lot-tracked stock on $name', (target) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startApp(target);
    admin = t.as.admin.token;
  });
  afterAll(() => t?.close());

  const day = async (offset: number) =>
    (
      await t.sql<{ d: string }>(
        `select ((now() at time zone (select time_zone from report_settings))::date + $1::int)::text as d`,
        [offset],
      )
    )[0]?.d as string;

  /** A category and supplier, and a product body using them. */
  async function body(extra: Record<string, unknown> = {}) {
    const { categoryId, supplierId } = await t.product();
    return {
      name: `Lotted ${tag()}`,
      price: 3,
      stock: 0,
      category: categoryId,
      supplier: supplierId,
      ...extra,
    };
  }
  const create = async (extra: Record<string, unknown> = {}) =>
    t.call('POST', '/api/products/add', { token: admin, body: await body(extra) });
  /** A lot-tracked product made through the API, with its opening lot when it has stock. */
  async function trackedProduct(
    stock: number,
    lot = { number: `L-${tag()}`, expiresOn: null as string | null },
  ) {
    const res = await create({ tracking: 'lot', stock, ...(stock > 0 ? { lot } : {}) });
    expect(res.status, res.text).toBe(201);
    return { id: parsed(res, ProductResponse).product._id, lot: lot.number };
  }
  /** The product as its form shows it, to send back changed. */
  async function form(id: string) {
    const res = await t.call('GET', `/api/products/${id}`, { token: admin });
    const p = parsed(res, ProductResponse).product;
    return {
      name: p.name,
      price: p.price,
      stock: p.stock,
      expectedStock: p.stock,
      category: p.category._id,
      supplier: p.supplier._id,
    };
  }
  const edit = async (id: string, change: Record<string, unknown>) =>
    t.call('PUT', `/api/products/${id}`, { token: admin, body: { ...(await form(id)), ...change } });
  const adjust = (id: string, payload: Record<string, unknown>, key?: string) =>
    t.call('POST', `/api/products/${id}/adjust`, {
      token: admin,
      body: payload,
      headers: key ? { 'idempotency-key': key } : {},
    });
  const count = (id: string, payload: Record<string, unknown>, key?: string) =>
    t.call('POST', `/api/products/${id}/count`, {
      token: admin,
      body: payload,
      headers: key ? { 'idempotency-key': key } : {},
    });
  const lotsOf = async (id: string, token = admin) => {
    const res = await t.call('GET', `/api/products/${id}/lots`, { token });
    expect(res.status, res.text).toBe(200);
    return LotsResponse.strict().parse(res.body).lots;
  };
  const quantities = async (id: string) =>
    (await lotsOf(id)).map((lot) => [lot.number, lot.expiresOn, lot.quantity]);
  const { stockOf } = fixtures(() => t);
  const movementsOf = (id: string) =>
    t.sql<{ kind: string; quantity: number; number: string | null; note: string; reason: string | null }>(
      `select m.kind, m.quantity, l.number, m.note, m.reason from stock_movements m
       left join lots l on l.id = m.lot_id where m.product_id = $1 order by m.at, m.id`,
      [id],
    );
  /** Every lot = the sum of its movements; the product = the sum of its lots (when tracked) = the sum of its movements. */
  async function holds(id: string) {
    const row = await lotLedgerOf(t.sql, id);
    expect(row?.bad, 'lots differing from their movements').toBe(0);
    expect(row?.ledger, 'stock against the sum of movements').toBe(row?.stock);
    if (row?.tracking === 'lot') expect(row?.lots, 'stock against the sum of lots').toBe(row?.stock);
    else expect(row?.lots, 'an untracked product keeps no units in lots').toBe(0);
  }
  /** A 4xx with one sentence, never a 500. */
  function refused(res: Answer, status = 400) {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    const refusal = parsed(res, ApiError);
    expect(refusal.success).toBe(false);
    expect(refusal.error).toMatch(/^[^\n]+[.]$/);
  }

  describe('POST /api/products/add with tracking', () => {
    it('a lot-tracked product created with stock puts it into its new lot by the opening movement', async () => {
      const expiresOn = await day(200);
      const res = await create({ tracking: 'lot', stock: 12, lot: { number: ' ab-1 ', expiresOn } });
      expect(res.status, res.text).toBe(201);
      const product = Product.strict().parse(parsed(res, ProductResponse).product);
      expect(product).toMatchObject({ tracking: 'lot', stock: 12 });
      expect(await quantities(product._id)).toEqual([['ab-1', expiresOn, 12]]);
      expect(await movementsOf(product._id)).toEqual([
        { kind: 'initial', quantity: 12, number: 'ab-1', note: '', reason: null },
      ]);
      await holds(product._id);
      const [entry] = await t.sql<{ changes: { field: string; new?: unknown }[] }>(
        `select changes from audit_log where entity_id = $1 and action = 'created'`,
        [product._id],
      );
      expect(entry?.changes).toContainEqual({ field: 'tracking', new: 'lot' });
      expect(entry?.changes).toContainEqual({ field: 'lot', new: 'ab-1' });
    });

    it('refuses a lot-tracked product with stock but no lot with 400, and creates nothing', async () => {
      const payload = await body({ tracking: 'lot', stock: 5 });
      const res = await t.call('POST', '/api/products/add', { token: admin, body: payload });
      refused(res);
      expect(parsed(res, ApiError).error).toBe('Name the lot the opening stock goes into.');
      expect(await t.sql('select 1 from products where name = $1', [payload.name])).toEqual([]);
    });

    it('a lot-tracked product without stock needs no lot and has none', async () => {
      const { id } = await trackedProduct(0);
      expect(await lotsOf(id)).toEqual([]);
      expect(
        parsed(await t.call('GET', `/api/products/${id}`, { token: admin }), ProductResponse).product
          .tracking,
      ).toBe('lot');
      await holds(id);
      // Its stock arrives through a lot.
      const added = await adjust(id, {
        quantity: 4,
        reason: 'received',
        lot: { number: 'N1', expiresOn: null },
      });
      expect(added.status, added.text).toBe(200);
      expect(await quantities(id)).toEqual([['N1', null, 4]]);
      await holds(id);
    });

    it('refuses a lot for an untracked product, a new lot without its expiry, and a lot id it cannot have', async () => {
      const untracked = await create({ stock: 3, lot: { number: 'X1', expiresOn: null } });
      refused(untracked);
      expect(parsed(untracked, ApiError).error).toBe('Name a lot only for a product tracked by lot.');
      refused(await create({ tracking: 'none', stock: 3, lot: { number: 'X1', expiresOn: null } }));
      const noExpiry = await create({ tracking: 'lot', stock: 3, lot: { number: 'X1' } });
      refused(noExpiry);
      expect(parsed(noExpiry, ApiError).error).toBe(
        'Give the expiry of the new lot X1 (null when it does not expire).',
      );
      const byId = await create({
        tracking: 'lot',
        stock: 3,
        lot: { _id: '00000000-0000-4000-8000-000000000000' },
      });
      refused(byId, 404);
      expect(parsed(byId, ApiError).error).toBe('Lot not found.');
    });
  });

  it('every product answer says it is lot-tracked: one product, a page, a search and a scanned code', async () => {
    const word = `Trackword${tag()}`;
    const sku = `SKU-${tag()}`;
    const res = await create({
      name: `${word} drops`,
      sku,
      tracking: 'lot',
      stock: 1,
      lot: { number: 'A', expiresOn: null },
    });
    const id = parsed(res, ProductResponse).product._id;
    const answers = [
      parsed(await t.call('GET', `/api/products/${id}`, { token: admin }), ProductResponse).product,
      nth(
        parsed(
          await t.call('GET', `/api/products?search=${word}&page=1&pageSize=5`, { token: admin }),
          ProductListResponse,
        ).products,
      ),
      parsed(
        await t.call('GET', `/api/products/code/${sku}`, { token: t.as.salesRep.token }),
        ProductResponse,
      ).product,
    ];
    for (const product of answers) expect(product).toMatchObject({ _id: id, tracking: 'lot' });
  });

  describe('PUT /api/products/:id with tracking', () => {
    it('turning tracking on moves the stock there is into the lot named, in one transaction', async () => {
      const res = await create({ stock: 7 });
      const id = parsed(res, ProductResponse).product._id;
      await holds(id);
      const on = await edit(id, { tracking: 'lot', lot: { number: 'ON-1', expiresOn: await day(30) } });
      expect(on.status, on.text).toBe(200);
      expect(parsed(on, ProductResponse).product).toMatchObject({ tracking: 'lot', stock: 7 });
      expect(await quantities(id)).toEqual([['ON-1', await day(30), 7]]);
      expect((await movementsOf(id)).map((m) => [m.kind, m.quantity, m.number, m.note])).toEqual([
        ['initial', 7, null, ''],
        ['count', -7, null, 'Lot tracking turned on'],
        ['count', 7, 'ON-1', 'Lot tracking turned on'],
      ]);
      await holds(id);
      const [entry] = await t.sql<{ changes: unknown[] }>(
        `select changes from audit_log where entity_id = $1 and action = 'updated'`,
        [id],
      );
      expect(entry?.changes).toEqual([
        { field: 'tracking', old: null, new: 'lot' },
        { field: 'lot', new: 'ON-1' },
      ]);
    });

    it('turning tracking on with stock but no lot is a 400 that changes nothing', async () => {
      const id = parsed(await create({ stock: 7 }), ProductResponse).product._id;
      const res = await edit(id, { tracking: 'lot', price: 99 });
      refused(res);
      expect(parsed(res, ApiError).error).toBe('Name the lot the 7 units in stock go into.');
      const after = parsed(
        await t.call('GET', `/api/products/${id}`, { token: admin }),
        ProductResponse,
      ).product;
      expect(after).toMatchObject({ tracking: 'none', stock: 7, price: 3 });
      expect(await movementsOf(id)).toHaveLength(1);
      await holds(id);
    });

    it('turning tracking on at stock 0 needs no lot; a lot named is created empty', async () => {
      const bare = parsed(await create({ stock: 0 }), ProductResponse).product._id;
      expect((await edit(bare, { tracking: 'lot' })).status).toBe(200);
      expect(await lotsOf(bare)).toEqual([]);
      await holds(bare);
      const named = parsed(await create({ stock: 0 }), ProductResponse).product._id;
      expect((await edit(named, { tracking: 'lot', lot: { number: 'E1', expiresOn: null } })).status).toBe(
        200,
      );
      expect(await quantities(named)).toEqual([['E1', null, 0]]);
      await holds(named);
    });

    it('turning tracking on while setting a new stock counts it first, then moves it all into the lot', async () => {
      const id = parsed(await create({ stock: 7 }), ProductResponse).product._id;
      const res = await edit(id, { tracking: 'lot', stock: 9, lot: { number: 'C9', expiresOn: null } });
      expect(res.status, res.text).toBe(200);
      expect(await quantities(id)).toEqual([['C9', null, 9]]);
      expect((await movementsOf(id)).map((m) => [m.kind, m.quantity, m.number])).toEqual([
        ['initial', 7, null],
        ['count', 2, null],
        ['count', -9, null],
        ['count', 9, 'C9'],
      ]);
      await holds(id);
    });

    it("a lot-tracked product's stock is not changed through the form: 409, and other fields still save", async () => {
      const { id } = await trackedProduct(6);
      const res = await edit(id, { stock: 10 });
      refused(res, 409);
      expect(parsed(res, ApiError).error).toBe("Change a lot-tracked product's stock through its lots.");
      const noExpected = await t.call('PUT', `/api/products/${id}`, {
        token: admin,
        body: { ...(await form(id)), expectedStock: undefined, stock: 2 },
      });
      refused(noExpected, 409);
      expect(await stockOf(id)).toBe(6);
      // A form opened before a sale saves its price without touching the stock.
      const opened = await form(id);
      expect(
        (
          await t.call('POST', '/api/order/add', {
            token: t.as.user.token,
            body: { productId: id, quantity: 2 },
          })
        ).status,
      ).toBe(201);
      const saved = await t.call('PUT', `/api/products/${id}`, {
        token: admin,
        body: { ...opened, price: 8 },
      });
      expect(saved.status, saved.text).toBe(200);
      expect(parsed(saved, ProductResponse).product).toMatchObject({ price: 8, stock: 4, tracking: 'lot' });
      await holds(id);
    });

    it('turning tracking off needs every lot empty (409), then the product is untracked', async () => {
      const { id, lot } = await trackedProduct(3);
      const res = await edit(id, { tracking: 'none' });
      refused(res, 409);
      expect(parsed(res, ApiError).error).toBe(
        'Lot tracking can be turned off only when every lot is empty.',
      );
      expect(
        parsed(await t.call('GET', `/api/products/${id}`, { token: admin }), ProductResponse).product
          .tracking,
      ).toBe('lot');
      expect((await adjust(id, { quantity: -3, reason: 'expired', lot: { number: lot } })).status).toBe(200);
      const off = await edit(id, { tracking: 'none' });
      expect(off.status, off.text).toBe(200);
      expect(parsed(off, ProductResponse).product).toMatchObject({ tracking: 'none', stock: 0 });
      await holds(id);
      // Untracked again: adjusted without a lot, and refused one.
      expect((await adjust(id, { quantity: 5, reason: 'found' })).status).toBe(200);
      refused(await adjust(id, { quantity: 1, reason: 'found', lot: { number: lot } }));
      await holds(id);
    });

    it('refuses a lot on an edit that does not turn tracking on, and on an untracked product', async () => {
      const { id } = await trackedProduct(2);
      const again = await edit(id, { lot: { number: 'NEW', expiresOn: null } });
      refused(again);
      expect(parsed(again, ApiError).error).toBe(
        'Name a lot only when creating a product or turning lot tracking on.',
      );
      const untracked = parsed(await create({ stock: 1 }), ProductResponse).product._id;
      const res = await edit(untracked, { lot: { number: 'NEW', expiresOn: null } });
      refused(res);
      expect(parsed(res, ApiError).error).toBe('Name a lot only for a product tracked by lot.');
      refused(await edit(untracked, { tracking: 'none', lot: { number: 'NEW', expiresOn: null } }));
      expect(await lotsOf(untracked)).toEqual([]);
      await holds(id);
      await holds(untracked);
    });

    it('turning tracking on into a known lot of another expiry is a 409 that undoes the move', async () => {
      const id = parsed(await create({ stock: 0 }), ProductResponse).product._id;
      expect((await edit(id, { tracking: 'lot', lot: { number: 'K1', expiresOn: null } })).status).toBe(200);
      expect((await edit(id, { tracking: 'none' })).status).toBe(200);
      expect((await adjust(id, { quantity: 4, reason: 'found' })).status).toBe(200);
      const res = await edit(id, { tracking: 'lot', lot: { number: 'k1', expiresOn: '2030-01-01' } });
      refused(res, 409);
      expect(parsed(res, ApiError).error).toBe('Lot K1 has no expiry, not 2030-01-01.');
      expect(await stockOf(id)).toBe(4);
      await holds(id);
      expect((await edit(id, { tracking: 'lot', lot: { number: 'k1' } })).status).toBe(200);
      expect(await quantities(id)).toEqual([['K1', null, 4]]);
      await holds(id);
    });
  });

  describe('POST /api/products/:id/adjust of a lot-tracked product', () => {
    it('needs its lot: 400 without one', async () => {
      const { id } = await trackedProduct(5);
      const res = await adjust(id, { quantity: 1, reason: 'found' });
      refused(res);
      expect(parsed(res, ApiError).error).toBe('Name the lot: this product is tracked by lot.');
      refused(await adjust(id, { quantity: -1, reason: 'damaged' }));
      expect(await stockOf(id)).toBe(5);
      await holds(id);
    });

    it('adds units to a new lot (with its expiry) or a known one (agreeing on its expiry), and answers the lot', async () => {
      const { id, lot } = await trackedProduct(5);
      const expiresOn = await day(60);
      const fresh = await adjust(id, {
        quantity: 3,
        reason: 'received',
        lot: { number: 'FRESH', expiresOn },
      });
      expect(fresh.status, fresh.text).toBe(200);
      const answer = MovementResponse.strict().parse(fresh.body);
      expect(answer.movement).toMatchObject({ kind: 'adjustment', quantity: 3, stockAfter: 8 });
      expect(answer.movement.lot).toEqual({ _id: expect.any(String), number: 'FRESH', expiresOn });
      expect(answer.product.stock).toBe(8);
      // A known number, by number ignoring case or by id, with or without its own expiry.
      expect((await adjust(id, { quantity: 1, reason: 'found', lot: { number: 'fresh' } })).status).toBe(200);
      expect(
        (await adjust(id, { quantity: 1, reason: 'found', lot: { number: 'Fresh', expiresOn } })).status,
      ).toBe(200);
      expect(
        (await adjust(id, { quantity: 1, reason: 'found', lot: { _id: answer.movement.lot?._id } })).status,
      ).toBe(200);
      const other = await adjust(id, {
        quantity: 1,
        reason: 'found',
        lot: { number: 'FRESH', expiresOn: null },
      });
      refused(other, 409);
      expect(parsed(other, ApiError).error).toBe(
        `Lot FRESH expires on ${expiresOn}; it was given no expiry.`,
      );
      const noExpiry = await adjust(id, { quantity: 1, reason: 'found', lot: { number: 'NEWER' } });
      refused(noExpiry);
      expect(await quantities(id)).toEqual([
        ['FRESH', expiresOn, 6],
        [lot, null, 5],
      ]);
      expect(await stockOf(id)).toBe(11);
      await holds(id);
      const [entry] = await t.sql<{ changes: unknown[] }>(
        `select changes from audit_log where entity_id = $1 and action = 'stockAdjusted' order by at, id limit 1`,
        [id],
      );
      expect(entry?.changes).toEqual([
        { field: 'stock', old: 5, new: 8 },
        { field: 'location', new: 'Main store' },
        { field: 'lot', new: 'FRESH' },
        { field: 'reason', new: 'received' },
      ]);
    });

    it('units may be added to an expired lot, and written off as expired', async () => {
      const gone = await day(-3);
      const { id } = await trackedProduct(2, { number: 'OLD', expiresOn: gone });
      expect(
        (await adjust(id, { quantity: 2, reason: 'found', lot: { number: 'OLD', expiresOn: gone } })).status,
      ).toBe(200);
      const off = await adjust(id, { quantity: -4, reason: 'expired', lot: { number: 'old' } });
      expect(off.status, off.text).toBe(200);
      expect(parsed(off, MovementResponse).movement).toMatchObject({
        quantity: -4,
        reason: 'expired',
        lot: { number: 'OLD' },
      });
      expect(await quantities(id)).toEqual([['OLD', gone, 0]]);
      await holds(id);
    });

    it('takes units out of the lot named, never below 0 in that lot (409), whatever other lots hold', async () => {
      const { id, lot } = await trackedProduct(2);
      expect(
        (await adjust(id, { quantity: 10, reason: 'received', lot: { number: 'BIG', expiresOn: null } }))
          .status,
      ).toBe(200);
      const res = await adjust(id, { quantity: -3, reason: 'damaged', lot: { number: lot } });
      refused(res, 409);
      expect(parsed(res, ApiError).error).toBe(`Not enough stock in lot ${lot}.`);
      const unknown = await adjust(id, { quantity: -1, reason: 'lost', lot: { number: 'NOPE' } });
      refused(unknown, 404);
      expect(parsed(unknown, ApiError).error).toBe('Lot not found.');
      // Another product's lot is not this one's.
      const other = await trackedProduct(3);
      const [foreign] = await lotsOf(other.id);
      refused(await adjust(id, { quantity: -1, reason: 'lost', lot: { _id: foreign?._id } }), 404);
      refused(await adjust(id, { quantity: 1, reason: 'found', lot: { _id: foreign?._id } }), 404);
      expect((await adjust(id, { quantity: -2, reason: 'damaged', lot: { number: lot } })).status).toBe(200);
      expect(await stockOf(id)).toBe(10);
      await holds(id);
      await holds(other.id);
    });

    it('parallel write-offs of one lot never take it below 0', async () => {
      const { id, lot } = await trackedProduct(6);
      await adjust(id, { quantity: 9, reason: 'received', lot: { number: 'SIDE', expiresOn: null } });
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => adjust(id, { quantity: -1, reason: 'lost', lot: { number: lot } })),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(6);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(4);
      expect(await quantities(id)).toEqual([
        [lot, null, 0],
        ['SIDE', null, 9],
      ]);
      await holds(id);
    });

    it('an untracked product given a lot is a 400', async () => {
      const { id } = await t.product({ stock: 5 });
      const res = await adjust(id, { quantity: 1, reason: 'found', lot: { number: 'L1', expiresOn: null } });
      refused(res);
      expect(parsed(res, ApiError).error).toBe('This product is not tracked by lot, so name no lot.');
      expect(await stockOf(id)).toBe(5);
      expect(await lotsOf(id)).toEqual([]);
    });

    it('happens once per Idempotency-Key, a lot created once', async () => {
      const { id } = await trackedProduct(0);
      const key = `lot-adjust-${tag()}`;
      const payload = { quantity: 4, reason: 'received', lot: { number: 'ONCE', expiresOn: null } };
      const [first, second] = await Promise.all([adjust(id, payload, key), adjust(id, payload, key)]);
      expect(first?.status, first?.text).toBe(200);
      expect(second?.body).toEqual(first?.body);
      expect((await adjust(id, payload, key)).body).toEqual(first?.body);
      expect(await quantities(id)).toEqual([['ONCE', null, 4]]);
      refused(await adjust(id, { ...payload, quantity: 5 }, key), 409);
      await holds(id);
    });
  });

  describe('POST /api/products/:id/count of a lot-tracked product', () => {
    it('counts one lot: the movement is counted − that lot’s units, other lots untouched', async () => {
      const { id, lot } = await trackedProduct(5);
      await adjust(id, { quantity: 7, reason: 'received', lot: { number: 'OTHER', expiresOn: null } });
      const res = await count(id, { counted: 3, lot: { number: lot } });
      expect(res.status, res.text).toBe(200);
      const answer = MovementResponse.strict().parse(res.body);
      expect(answer.movement).toMatchObject({
        kind: 'count',
        quantity: -2,
        stockAfter: 10,
        lot: { number: lot },
      });
      expect(await quantities(id)).toEqual([
        [lot, null, 3],
        ['OTHER', null, 7],
      ]);
      // A zero difference is recorded too; more than the lot held adds to it.
      expect(
        parsed(await count(id, { counted: 3, lot: { number: lot } }), MovementResponse).movement.quantity,
      ).toBe(0);
      expect(
        parsed(await count(id, { counted: 8, lot: { number: lot } }), MovementResponse).movement.quantity,
      ).toBe(5);
      expect(await stockOf(id)).toBe(15);
      await holds(id);
    });

    it('a count may name a new lot with its expiry, and refuses a known one of another expiry', async () => {
      const { id } = await trackedProduct(1);
      const expiresOn = await day(10);
      const res = await count(id, { counted: 4, lot: { number: 'SHELF', expiresOn } });
      expect(res.status, res.text).toBe(200);
      expect(parsed(res, MovementResponse).movement).toMatchObject({
        quantity: 4,
        lot: { number: 'SHELF', expiresOn },
      });
      refused(await count(id, { counted: 2, lot: { number: 'SHELF', expiresOn: null } }), 409);
      refused(await count(id, { counted: 2, lot: { number: 'UNSEEN' } }));
      expect(await stockOf(id)).toBe(5);
      await holds(id);
    });

    it('needs the lot (400), refuses one for an untracked product (400), and happens once per key', async () => {
      const { id, lot } = await trackedProduct(5);
      const res = await count(id, { counted: 2 });
      refused(res);
      expect(parsed(res, ApiError).error).toBe('Name the lot: this product is tracked by lot.');
      const plain = await t.product({ stock: 5 });
      refused(await count(plain.id, { counted: 2, lot: { number: 'X' } }));
      expect(await stockOf(plain.id)).toBe(5);
      const key = `lot-count-${tag()}`;
      const first = await count(id, { counted: 2, lot: { number: lot } }, key);
      const again = await count(id, { counted: 2, lot: { number: lot } }, key);
      expect(again.body).toEqual(first.body);
      expect((await movementsOf(id)).filter((m) => m.kind === 'count')).toHaveLength(1);
      expect(await stockOf(id)).toBe(2);
      await holds(id);
    });
  });

  describe('GET /api/products/:id/movements names each movement’s lot', () => {
    it('in JSON: sales over two lots, adjustments and the opening, each with its lot', async () => {
      const soon = await day(5);
      const late = await day(50);
      const { id } = await trackedProduct(2, { number: 'SOON', expiresOn: soon });
      await adjust(id, { quantity: 5, reason: 'received', lot: { number: 'LATE', expiresOn: late } });
      const sold = await t.call('POST', '/api/order/add', {
        token: t.as.user.token,
        body: { productId: id, quantity: 3 },
      });
      expect(sold.status, sold.text).toBe(201);
      const res = await t.call('GET', `/api/products/${id}/movements`, { token: admin });
      expect(res.status).toBe(200);
      const page = MovementListResponse.strict().parse(res.body);
      const named = page.movements.map((m) => [m.kind, m.quantity, m.lot?.number, m.lot?.expiresOn]);
      expect(named).toHaveLength(4);
      expect(named).toEqual(
        expect.arrayContaining([
          ['sale', -2, 'SOON', soon],
          ['sale', -1, 'LATE', late],
          ['adjustment', 5, 'LATE', late],
          ['initial', 2, 'SOON', soon],
        ]),
      );
      expect(page.movements.every((m) => m.lot && typeof m.lot._id === 'string')).toBe(true);
      // An untracked product's movements name none.
      const plain = await t.product({ stock: 2 });
      await adjust(plain.id, { quantity: 1, reason: 'found' });
      const plainPage = await t.call('GET', `/api/products/${plain.id}/movements`, { token: admin });
      expect(parsed(plainPage, MovementListResponse).movements.map((m) => 'lot' in m)).toEqual([
        false,
        false,
      ]);
      await holds(id);
    });

    it('in CSV: the lot and its expiry in their columns, empty for none', async () => {
      const expiresOn = await day(20);
      const { id } = await trackedProduct(4, { number: 'CSV-1', expiresOn });
      await adjust(id, { quantity: 2, reason: 'received', lot: { number: 'CSV-2', expiresOn: null } });
      const res = await t.call('GET', `/api/products/${id}/movements?format=csv`, { token: admin });
      expect(res.status).toBe(200);
      const [header, ...rows] = parseCsv(res.text);
      expect(header).toEqual([...MOVEMENT_CSV_HEADER]);
      const lotAt = header?.indexOf('lot') ?? -1;
      const expiresAt = header?.indexOf('lot expires') ?? -1;
      expect(rows.map((row) => [row[1], row[2], row[lotAt], row[expiresAt]])).toEqual([
        ['adjustment', '2', 'CSV-2', ''],
        ['initial', '4', 'CSV-1', expiresOn],
      ]);
    });
  });

  describe('GET /api/products/:id/lots', () => {
    it('answers every role the lots in the order a sale takes them, empty ones too', async () => {
      const { id } = await trackedProduct(1, { number: 'NONE', expiresOn: null });
      await adjust(id, {
        quantity: 2,
        reason: 'received',
        lot: { number: 'LATER', expiresOn: await day(90) },
      });
      await adjust(id, {
        quantity: 3,
        reason: 'received',
        lot: { number: 'FIRST', expiresOn: await day(1) },
      });
      await adjust(id, { quantity: -3, reason: 'damaged', lot: { number: 'FIRST' } });
      for (const role of ['superAdmin', 'admin', 'salesRep', 'medicalRep', 'user'] as const) {
        expect((await lotsOf(id, t.as[role].token)).map((lot) => [lot.number, lot.quantity])).toEqual([
          ['FIRST', 0],
          ['LATER', 2],
          ['NONE', 1],
        ]);
      }
    });

    it('404 for an unknown, malformed or deleted product; 401 without a token', async () => {
      for (const url of [
        '/api/products/00000000-0000-4000-8000-000000000000/lots',
        '/api/products/not-an-id/lots',
        `/api/products/${'x'.repeat(100)}/lots`,
      ]) {
        refused(await t.call('GET', url, { token: admin }), 404);
      }
      const { id } = await trackedProduct(0);
      expect((await t.call('DELETE', `/api/products/${id}`, { token: admin })).status).toBe(200);
      refused(await t.call('GET', `/api/products/${id}/lots`, { token: admin }), 404);
      expect((await t.call('GET', `/api/products/${id}/lots`)).status).toBe(401);
    });
  });

  describe('GET /api/stock/check over lots', () => {
    it('finds every lot agreeing with its movements, and names a lot and a product that do not', async () => {
      const before = await t.call('GET', '/api/stock/check', { token: admin });
      expect(before.status).toBe(200);
      expect(StockCheckResponse.strict().parse(before.body).mismatches).toEqual([]);

      const name = `Tampered lots ${tag()}`;
      const made = await t.call('POST', '/api/products/add', {
        token: admin,
        body: await body({ name, tracking: 'lot', stock: 4, lot: { number: 'T1', expiresOn: null } }),
      });
      const id = parsed(made, ProductResponse).product._id;
      const [lot] = await lotsOf(id);
      await t.sql('alter table lots disable trigger lots_quantity_from_ledger');
      try {
        await t.sql('update lots set quantity = 9 where product_id = $1', [id]);
      } finally {
        await t.sql('alter table lots enable trigger lots_quantity_from_ledger');
      }
      const after = StockCheckResponse.strict().parse(
        (await t.call('GET', '/api/stock/check', { token: admin })).body,
      );
      expect(after.mismatches).toEqual([
        { product: { _id: id, name }, stock: 4, ledger: 4, lots: 9 },
        {
          product: { _id: id, name },
          lot: { _id: lot?._id, number: 'T1', expiresOn: null },
          stock: 9,
          ledger: 4,
          locations: 4,
        },
      ]);
      await t.sql('alter table lots disable trigger lots_quantity_from_ledger');
      try {
        await t.sql('update lots set quantity = 4 where product_id = $1', [id]);
      } finally {
        await t.sql('alter table lots enable trigger lots_quantity_from_ledger');
      }
      expect(
        parsed(await t.call('GET', '/api/stock/check', { token: admin }), StockCheckResponse).mismatches,
      ).toEqual([]);
    });
  });

  describe('hostile values for tracking and lot are a 400 with one sentence', () => {
    const long = 'L'.repeat(10_000);
    const badTracking: unknown[] = [
      ['lot'],
      'LOT',
      'lots',
      '',
      1,
      true,
      null,
      { lot: true },
      'lot\u0000',
      long,
    ];
    const badLots: unknown[] = [
      'L1',
      42,
      null,
      [{ number: 'L1', expiresOn: null }],
      {},
      { number: '' },
      { number: '   ' },
      { number: 123 },
      { number: ['L1'] },
      { number: 'a\u0000b' },
      { number: 'tab\there' },
      { number: long },
      { number: 'L'.repeat(65), expiresOn: null },
      { number: 'L1', expiresOn: '2026-02-30' },
      { number: 'L1', expiresOn: '0000-01-01' },
      { number: 'L1', expiresOn: '2026-13-01' },
      { number: 'L1', expiresOn: 20260101 },
      { number: 'L1', expiresOn: 'soon' },
      { number: 'L1', expiresOn: ['2026-01-01'] },
      { number: 'L1', expiresOn: `2026-01-01${'0'.repeat(10_000)}` },
      { _id: 42 },
      { _id: ['00000000-0000-4000-8000-000000000000'] },
      { _id: long },
    ];

    const productCount = async () =>
      (await t.sql<{ n: number }>('select count(*)::int as n from products'))[0]?.n;

    it('on POST /api/products/add', async () => {
      const before = await productCount();
      for (const tracking of badTracking) {
        const res = await create({ tracking, stock: 0 });
        refused(res);
        expect(parsed(res, ApiError).error).toMatch(/tracking/);
      }
      for (const lot of badLots) refused(await create({ tracking: 'lot', stock: 2, lot }));
      // Each body's category and supplier came with a product of their own; no other was made.
      expect(await productCount()).toBe((before ?? 0) + badTracking.length + badLots.length);
    });

    it('on PUT /api/products/:id', async () => {
      const id = parsed(await create({ stock: 3 }), ProductResponse).product._id;
      for (const tracking of badTracking) refused(await edit(id, { tracking }));
      for (const lot of badLots) refused(await edit(id, { tracking: 'lot', lot }));
      expect(
        parsed(await t.call('GET', `/api/products/${id}`, { token: admin }), ProductResponse).product,
      ).toMatchObject({
        tracking: 'none',
        stock: 3,
      });
      expect(await lotsOf(id)).toEqual([]);
      await holds(id);
    });

    it('on adjust and count', async () => {
      const { id } = await trackedProduct(3);
      for (const lot of badLots) {
        refused(await adjust(id, { quantity: 1, reason: 'received', lot }));
        refused(await adjust(id, { quantity: -1, reason: 'expired', lot }));
        refused(await count(id, { counted: 1, lot }));
      }
      expect(await stockOf(id)).toBe(3);
      expect(await lotsOf(id)).toHaveLength(1);
      await holds(id);
    });
  });
});
