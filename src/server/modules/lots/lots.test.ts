import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import {
  addDays,
  EXPIRING_CSV_HEADER,
  ExpiringResponse,
  LotsResponse,
  TraceResponse,
} from '../../../shared/lots';
import { PurchaseOrderResponse } from '../../../shared/purchasing';
import type { Runner } from '../../db/connection';
import { fixtures, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { lotLedgerOf } from '../../test/lot-ledger';
import { parseCsv } from '../../test/parse-csv';
import { movementsInsert } from '../stock/movements';
import { type ExpiringCursor, expiringCsvBatch } from './lots.repository';

/**
 * Lots by route (DESIGN §15): receiving a purchase order into lots, the expiring list (JSON and
 * CSV) and a lot's recall trace. Tracking is turned on by SQL on a product at stock 0 (the
 * product form is another piece's); every unit then arrives through the receive route.
 */

type ReceiveLot = { number: string; expiresOn: string | null; quantity: number };

/** What every suite here needs: products, purchase orders and receipts by the API. */
function helpers(t: () => TestApp) {
  const admin = () => t().as.admin.token;
  const supplier = async () =>
    (
      await t().sql<{ id: string }>('insert into suppliers (name) values ($1) returning id', [
        `Supplier ${tag()}`,
      ])
    )[0]?.id as string;
  /** A product at stock 0, tracked by lot unless `tracking` says none. */
  const product = async (name: string, tracking: 'lot' | 'none' = 'lot') => {
    const { id } = await t().product({ name: `${name} ${tag()}`, stock: 0, price: 9 });
    if (tracking === 'lot') await t().sql(`update products set tracking = 'lot' where id = $1`, [id]);
    return id;
  };
  /** An ordered purchase order of [product, quantity, unit cost] lines; its id and line ids. */
  const ordered = async (lines: [string, number, number][]) => {
    const created = await t().call('POST', '/api/purchase-orders', {
      token: admin(),
      body: {
        supplier: await supplier(),
        lines: lines.map(([product, quantity, unitCost]) => ({ product, quantity, unitCost })),
      },
    });
    expect(created.status, created.text).toBe(201);
    const order = parsed(created, PurchaseOrderResponse).purchaseOrder;
    const marked = await t().call('POST', `/api/purchase-orders/${order._id}/order`, { token: admin() });
    expect(marked.status, marked.text).toBe(200);
    return { id: order._id, number: order.number, lines: order.lines.map((line) => line._id) };
  };
  const receive = (orderId: string, lines: { line: string; quantity: number; lots?: unknown }[]) =>
    t().call('POST', `/api/purchase-orders/${orderId}/receive`, { token: admin(), body: { lines } });
  /** A tracked product received into `lots` at `unitCost` on one purchase order. */
  const stocked = async (name: string, unitCost: number, lots: ReceiveLot[]) => {
    const id = await product(name);
    const quantity = lots.reduce((sum, lot) => sum + lot.quantity, 0);
    const order = await ordered([[id, quantity, unitCost]]);
    const res = await receive(order.id, [{ line: order.lines[0] as string, quantity, lots }]);
    expect(res.status, res.text).toBe(200);
    return { id, order };
  };
  const lotsOf = async (productId: string) =>
    t().sql<{ id: string; number: string; expires_on: string | null; quantity: number }>(
      `select id, number, expires_on::text as expires_on, quantity from lots where product_id = $1 order by number`,
      [productId],
    );
  /** Today in the store's report zone, as the ledger judges expiry. */
  const today = async () =>
    (
      await t().sql<{ d: string }>(
        `select ((now() at time zone (select time_zone from report_settings))::date)::text as d`,
      )
    )[0]?.d as string;
  return { admin, product, ordered, receive, stocked, lotsOf, today };
}

/** Every lot equals its movements, every tracked product's stock its lots and its movements. */
async function ledgerHolds(t: TestApp, productId: string) {
  const row = await lotLedgerOf(t.sql, productId);
  expect(row).toMatchObject({ stock: row?.lots, lots: row?.ledger, ledger: row?.stock, bad: 0 });
}

describe.each(targets)('receiving by lot on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());
  const h = helpers(() => t);

  it('POST /api/purchase-orders/:id/receive puts a tracked line into its lots, one receipt movement per lot naming it and the purchase order', async () => {
    const tracked = await h.product('Amoxicillin');
    const plain = await h.product('Gauze', 'none');
    const order = await h.ordered([
      [tracked, 10, 1.5],
      [plain, 4, 2],
    ]);
    // Every purchase order answer says which lines name lots.
    const read = await t.call('GET', `/api/purchase-orders/${order.id}`, { token: h.admin() });
    expect(parsed(read, PurchaseOrderResponse).purchaseOrder.lines.map((line) => line.product)).toEqual([
      { _id: tracked, name: expect.stringMatching(/^Amoxicillin /), tracking: 'lot' },
      { _id: plain, name: expect.stringMatching(/^Gauze /), tracking: 'none' },
    ]);
    const res = await h.receive(order.id, [
      {
        line: order.lines[0] as string,
        quantity: 7,
        lots: [
          { number: ' AMX-1 ', expiresOn: '2031-05-31', quantity: 5 },
          { number: 'AMX-2', expiresOn: null, quantity: 2 },
        ],
      },
      { line: order.lines[1] as string, quantity: 4 },
    ]);
    expect(res.status, res.text).toBe(200);
    const answer = PurchaseOrderResponse.parse(res.body).purchaseOrder;
    expect(answer.status).toBe('partially_received');
    expect(answer.lines.map((line) => [line.product.tracking, line.received])).toEqual([
      ['lot', 7],
      ['none', 4],
    ]);
    // The number is trimmed; the lot without expiry is kept as such.
    expect((await h.lotsOf(tracked)).map(({ id: _, ...lot }) => lot)).toEqual([
      { number: 'AMX-1', expires_on: '2031-05-31', quantity: 5 },
      { number: 'AMX-2', expires_on: null, quantity: 2 },
    ]);
    const movements = await t.sql<{ kind: string; quantity: number; number: string | null; po: string }>(
      `select m.kind, m.quantity, l.number, m.purchase_order_id as po from stock_movements m
       left join lots l on l.id = m.lot_id where m.product_id = any($1::uuid[])
       order by m.product_id = $2 desc, l.number`,
      [[tracked, plain], tracked],
    );
    expect(movements).toEqual([
      { kind: 'receipt', quantity: 5, number: 'AMX-1', po: order.id },
      { kind: 'receipt', quantity: 2, number: 'AMX-2', po: order.id },
      { kind: 'receipt', quantity: 4, number: null, po: order.id },
    ]);
    // The weighted average cost is as ever: none before, so the line's.
    const [cost] = await t.sql<{ cost: string; stock: number }>(
      'select cost::text as cost, stock from products where id = $1',
      [tracked],
    );
    expect(cost).toEqual({ cost: '1.50', stock: 7 });
    await ledgerHolds(t, tracked);
    // The untracked line as ever: its stock, no lot.
    expect(await t.sql('select stock from products where id = $1', [plain])).toEqual([{ stock: 4 }]);
    expect(await h.lotsOf(plain)).toEqual([]);

    // The rest into a known lot (its number in another case, the same expiry) and a new one.
    const rest = await h.receive(order.id, [
      {
        line: order.lines[0] as string,
        quantity: 3,
        lots: [
          { number: 'amx-1', expiresOn: '2031-05-31', quantity: 1 },
          { number: 'AMX-3', expiresOn: '2030-01-31', quantity: 2 },
        ],
      },
    ]);
    expect(rest.status, rest.text).toBe(200);
    expect(parsed(rest, PurchaseOrderResponse).purchaseOrder.status).toBe('received');
    expect((await h.lotsOf(tracked)).map((lot) => [lot.number, lot.quantity])).toEqual([
      ['AMX-1', 6],
      ['AMX-2', 2],
      ['AMX-3', 2],
    ]);
    await ledgerHolds(t, tracked);
  });

  it('POST /api/purchase-orders/:id/receive refuses a known lot number with another expiry (409), receiving nothing of the receipt', async () => {
    const first = await h.stocked('Insulin', 4, [{ number: 'INS-1', expiresOn: '2030-06-30', quantity: 3 }]);
    const other = await h.product('Heparin');
    const order = await h.ordered([
      [first.id, 5, 5],
      [other, 2, 1],
    ]);
    const res = await h.receive(order.id, [
      // A new lot of another product first: it must not stay when the receipt is refused.
      {
        line: order.lines[1] as string,
        quantity: 2,
        lots: [{ number: 'HEP-1', expiresOn: null, quantity: 2 }],
      },
      {
        line: order.lines[0] as string,
        quantity: 5,
        lots: [{ number: 'ins-1', expiresOn: '2030-07-31', quantity: 5 }],
      },
    ]);
    expect(res.status, res.text).toBe(409);
    expect(res.body).toEqual({
      success: false,
      code: 'LOT_EXPIRY_DIFFERS',
      error: 'Lot INS-1 expires on 2030-06-30, not 2030-07-31.',
    });
    expect((await h.lotsOf(first.id)).map((lot) => [lot.number, lot.quantity])).toEqual([['INS-1', 3]]);
    expect(await h.lotsOf(other)).toEqual([]);
    const [line] = await t.sql<{ received: number }>(
      'select received from purchase_order_lines where purchase_order_id = $1 order by position limit 1',
      [order.id],
    );
    expect(line?.received).toBe(0);
    // null for "no expiry" is an expiry too.
    const none = await h.receive(order.id, [
      {
        line: order.lines[0] as string,
        quantity: 1,
        lots: [{ number: 'INS-1', expiresOn: null, quantity: 1 }],
      },
    ]);
    expect(none.status, none.text).toBe(409);
    expect(parsed(none, ApiError).error).toBe('Lot INS-1 expires on 2030-06-30; it was given no expiry.');
    // The over-receipt rule stays: 5 ordered, 6 received is a 409 even with good lots.
    const over = await h.receive(order.id, [
      {
        line: order.lines[0] as string,
        quantity: 6,
        lots: [{ number: 'INS-2', expiresOn: null, quantity: 6 }],
      },
    ]);
    expect(over.status, over.text).toBe(409);
    expect(parsed(over, ApiError).error).toMatch(
      /^Only 5 of Insulin .* are left to receive on PO-\d{6}, not 6\.$/,
    );
    await ledgerHolds(t, first.id);
  });

  it('POST /api/purchase-orders/:id/receive asks for the lots of a tracked line and refuses lots on an untracked one, with 400 naming the product', async () => {
    const tracked = await h.product('Vaccine');
    const plain = await h.product('Tape', 'none');
    const order = await h.ordered([
      [tracked, 5, 1],
      [plain, 5, 1],
    ]);
    const [trackedName, plainName] = (
      await t.sql<{ name: string }>(
        'select name from products where id = any($1::uuid[]) order by name desc',
        [[tracked, plain]],
      )
    ).map((row) => row.name);
    const missing = await h.receive(order.id, [{ line: order.lines[0] as string, quantity: 5 }]);
    expect(missing.status, missing.text).toBe(400);
    expect(missing.body).toEqual({
      success: false,
      code: 'BAD_REQUEST',
      error: `${trackedName} is tracked by lot: give the lots received with their numbers, expiries and quantities.`,
    });
    const extra = await h.receive(order.id, [
      {
        line: order.lines[1] as string,
        quantity: 5,
        lots: [{ number: 'T-1', expiresOn: null, quantity: 5 }],
      },
    ]);
    expect(extra.status, extra.text).toBe(400);
    expect(extra.body).toEqual({
      success: false,
      code: 'BAD_REQUEST',
      error: `${plainName} is not tracked by lot, so its line takes no lots.`,
    });
    expect(await t.sql('select id from lots where product_id = any($1::uuid[])', [[tracked, plain]])).toEqual(
      [],
    );
    const [stock] = await t.sql<{ n: number }>(
      'select coalesce(sum(stock), 0)::int as n from products where id = any($1::uuid[])',
      [[tracked, plain]],
    );
    expect(stock?.n).toBe(0);
  });

  it('POST /api/purchase-orders/:id/receive refuses hostile lots with 400 and one sentence, never a 500', async () => {
    const tracked = await h.product('Serum');
    const order = await h.ordered([[tracked, 5, 1]]);
    const line = order.lines[0] as string;
    const lot = (values: Record<string, unknown>) => ({
      number: 'S-1',
      expiresOn: null,
      quantity: 5,
      ...values,
    });
    const long = 'x'.repeat(10_000);
    const cases: [string, unknown, number, string][] = [
      ['lots not adding up', [lot({ quantity: 4 })], 5, "A line's lots must add up to its quantity."],
      [
        'one number twice (ignoring case)',
        [lot({ quantity: 2 }), lot({ number: 's-1', quantity: 3 })],
        5,
        'Each lot may appear once per line.',
      ],
      ['no lots', [], 5, 'Give at least one lot.'],
      ['lots as text', 'S-1', 5, 'lots must be a list.'],
      [
        '51 lots',
        Array.from({ length: 51 }, (_, i) => lot({ number: `S-${i}`, quantity: 1 })),
        51,
        'at most 50 lots',
      ],
      ['an empty number', [lot({ number: '  ' })], 5, 'Lot number is required.'],
      [
        'a number of 10,000 characters',
        [lot({ number: long })],
        5,
        'Lot number must be at most 64 characters.',
      ],
      ['a NUL in the number', [lot({ number: 'S\u00001' })], 5, 'Text must not contain NUL characters'],
      ['a tab in the number', [lot({ number: 'S\t1' })], 5, 'Lot number may hold only'],
      ['a number as an array', [lot({ number: ['S-1'] })], 5, 'Lot number must be text.'],
      ['an expiry that does not exist', [lot({ expiresOn: '2030-02-30' })], 5, 'That date does not exist.'],
      ['year 0', [lot({ expiresOn: '0000-01-01' })], 5, 'Dates must be between 1900 and 9999.'],
      ['an expiry of 10,000 characters', [lot({ expiresOn: long })], 5, 'Dates look like 2025-01-31.'],
      ['no expiry given', [{ number: 'S-1', quantity: 5 }], 5, 'Dates must be text.'],
      ['a quantity of 0', [lot({ quantity: 0 })], 5, 'Quantity must be at least 1.'],
      ['a negative quantity', [lot({ quantity: -5 })], 5, 'Quantity must be at least 1.'],
      ['a fractional quantity', [lot({ quantity: 2.5 })], 5, 'Quantity must be a whole number.'],
      ['a huge quantity', [lot({ quantity: 2_000_000 })], 5, 'Quantity is too large.'],
      ['a quantity past safe integers', [lot({ quantity: 1e300 })], 5, 'Quantity must be a whole number.'],
      ['a quantity as text', [lot({ quantity: '5' })], 5, 'Quantity must be a number.'],
      ['NaN (null in JSON)', [lot({ quantity: Number.NaN })], 5, 'Quantity must be a number.'],
    ];
    for (const [label, lots, quantity, sentence] of cases) {
      const res = await h.receive(order.id, [{ line, quantity, lots }]);
      expect(res.status, `${label}: ${res.text}`).toBe(400);
      expect(parsed(res, ApiError).success, label).toBe(false);
      expect(parsed(res, ApiError).error, label).toContain(sentence);
      expect(parsed(res, ApiError).error, label).toMatch(/\.$/);
      expect(parsed(res, ApiError).error.length, label).toBeLessThan(300);
    }
    expect(await h.lotsOf(tracked)).toEqual([]);
  });
});

describe.each(targets)('the expiring list with TZ=Pacific/Kiritimati on $name', (target) => {
  let t: TestApp;
  let today: string;
  let aspirinId: string;
  const h = helpers(() => t);
  const names: Record<string, string> = {};
  const day = (days: number) => addDays(today, days);

  beforeAll(async () => {
    // UTC+14 all year: the store's today is most often not the UTC one.
    t = await startApp(target, { config: { timeZone: 'Pacific/Kiritimati' } });
    today = await h.today();
    const aspirin = await h.stocked('Aspirin', 2, [
      { number: 'A-OLD', expiresOn: day(-10), quantity: 4 },
      { number: 'A-NOW', expiresOn: day(0), quantity: 3 },
      { number: 'A-31', expiresOn: day(31), quantity: 6 },
      { number: 'A-365', expiresOn: day(365), quantity: 1 },
      { number: 'A-366', expiresOn: day(366), quantity: 1 },
      { number: 'A-NONE', expiresOn: null, quantity: 9 },
    ]);
    const brufen = await h.stocked('Brufen', 1.25, [
      { number: 'B-1', expiresOn: day(1), quantity: 5 },
      { number: 'B-2', expiresOn: day(2), quantity: 2 },
      { number: 'B-30', expiresOn: day(30), quantity: 2 },
    ]);
    // B-2 written off whole (the adjustment route is another piece's): an empty lot is not listed.
    await t.sql(
      movementsInsert({
        values: {
          product_id: 'product_id',
          kind: "'adjustment'",
          quantity: '-2',
          reason: "'damaged'",
          lot_id: 'id',
        },
        from: 'lots',
        where: "product_id = $1 and number = 'B-2'",
      }),
      [brufen.id],
    );
    // A cost not known (yet): the lot counts, worth 0.
    const cetirizine = await h.stocked('Cetirizine', 3, [
      { number: 'C-200', expiresOn: day(200), quantity: 8 },
    ]);
    await t.sql('update products set cost = null where id = $1', [cetirizine.id]);
    for (const [key, id] of Object.entries({
      aspirin: aspirin.id,
      brufen: brufen.id,
      cetirizine: cetirizine.id,
    }))
      names[key] = (await t.sql<{ name: string }>('select name from products where id = $1', [id]))[0]
        ?.name as string;
    aspirinId = aspirin.id;
  });
  afterAll(() => t?.close());

  const get = (query: string, token = t.as.admin.token) =>
    t.call('GET', `/api/lots/expiring${query ? `?${query}` : ''}`, { token });
  const listed = (body: ExpiringResponse) =>
    body.lots.map((row) => [row.product.name, row.lot.number, row.lot.expiresOn, row.quantity, row.value]);
  const row = (product: string, number: string, days: number, quantity: number, value: number) => [
    names[product],
    number,
    day(days),
    quantity,
    value,
  ];

  it('GET /api/lots/expiring lists the lots holding units that expire within days of the store’s today, expired ones too, soonest first, value at cost', async () => {
    const res = await get('days=1&page=1&pageSize=100');
    expect(res.status, res.text).toBe(200);
    const body = ExpiringResponse.strict().parse(res.body);
    expect(body.today).toBe(today);
    expect(listed(body)).toEqual([
      row('aspirin', 'A-OLD', -10, 4, 8),
      row('aspirin', 'A-NOW', 0, 3, 6),
      row('brufen', 'B-1', 1, 5, 6.25),
    ]);
    expect(body).toMatchObject({ total: 3, quantity: 12, value: 20.25, page: 1, pageSize: 100 });
    expect(body.lots[0]?.lot._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.lots[0]?.product._id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('GET /api/lots/expiring looks 30 days ahead by default, day 30 included and day 31 not; 365 at most, no expiry and empty lots never', async () => {
    const thirty = ExpiringResponse.parse((await get('')).body);
    expect(listed(thirty).map((r) => r[1])).toEqual(['A-OLD', 'A-NOW', 'B-1', 'B-30']);
    expect(thirty).toMatchObject({ total: 4, quantity: 14, value: 22.75 });
    const more = ExpiringResponse.parse((await get('days=31&pageSize=100')).body);
    expect(listed(more).map((r) => r[1])).toEqual(['A-OLD', 'A-NOW', 'B-1', 'B-30', 'A-31']);
    expect(more).toMatchObject({ total: 5, quantity: 20, value: 34.75 });
    const year = ExpiringResponse.parse((await get('days=365&pageSize=100')).body);
    expect(listed(year)).toEqual([
      row('aspirin', 'A-OLD', -10, 4, 8),
      row('aspirin', 'A-NOW', 0, 3, 6),
      row('brufen', 'B-1', 1, 5, 6.25),
      row('brufen', 'B-30', 30, 2, 2.5),
      row('aspirin', 'A-31', 31, 6, 12),
      row('cetirizine', 'C-200', 200, 8, 0),
      row('aspirin', 'A-365', 365, 1, 2),
    ]);
    expect(year).toMatchObject({ total: 7, quantity: 29, value: 36.75 });
  });

  it('GET /api/products/:id/lots and GET /api/lots/:id/trace name the store’s today as the expiring list does, so a screen judges expiry by it and not by its own clock', async () => {
    for (const role of ['admin', 'salesRep', 'user'] as const) {
      const res = await t.call('GET', `/api/products/${aspirinId}/lots`, { token: t.as[role].token });
      expect(res.status, res.text).toBe(200);
      const body = LotsResponse.strict().parse(res.body);
      expect(body.today).toBe(today);
      expect(body.lots.map((lot) => lot.number)).toContain('A-OLD');
    }
    const [old] = await t.sql<{ id: string }>(`select id from lots where number = 'A-OLD'`);
    const trace = await t.call('GET', `/api/lots/${old?.id}/trace`, { token: t.as.admin.token });
    expect(trace.status, trace.text).toBe(200);
    expect(TraceResponse.strict().parse(trace.body).today).toBe(today);
    // The one day, said by the database: the store's zone (UTC+14), not the server's clock.
    const [{ d } = { d: '' }] = await t.sql<{ d: string }>('select store_today()::text as d');
    expect(today).toBe(d);
  });

  it('GET /api/lots/expiring pages the list while the totals count every page', async () => {
    const page = async (n: number) =>
      ExpiringResponse.parse((await get(`days=365&page=${n}&pageSize=3`)).body);
    const pages = [await page(1), await page(2), await page(3), await page(4)];
    expect(pages.map((p) => p.lots.map((lot) => lot.lot.number))).toEqual([
      ['A-OLD', 'A-NOW', 'B-1'],
      ['B-30', 'A-31', 'C-200'],
      ['A-365'],
      [],
    ]);
    for (const [at, p] of pages.entries())
      expect(p).toMatchObject({ total: 7, quantity: 29, value: 36.75, today, page: at + 1, pageSize: 3 });
  });

  it('GET /api/lots/expiring?format=csv streams the whole list (no paging) with its header', async () => {
    const res = await get('days=365&format=csv&page=2&pageSize=1');
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="expiring-lots-365-days.csv"');
    expect(parseCsv(res.text)).toEqual([
      [...EXPIRING_CSV_HEADER],
      [names.aspirin, 'A-OLD', day(-10), '4', '8'],
      [names.aspirin, 'A-NOW', day(0), '3', '6'],
      [names.brufen, 'B-1', day(1), '5', '6.25'],
      [names.brufen, 'B-30', day(30), '2', '2.5'],
      [names.aspirin, 'A-31', day(31), '6', '12'],
      [names.cetirizine, 'C-200', day(200), '8', '0'],
      [names.aspirin, 'A-365', day(365), '1', '2'],
    ]);
    const thirty = parseCsv((await get('format=csv')).text);
    expect(thirty.map((r) => r[1])).toEqual(['Lot', 'A-OLD', 'A-NOW', 'B-1', 'B-30']);
  });

  it('the expiring CSV reads batch after batch by expiry and id: every lot once, in order', async () => {
    const run = { query: t.sql, run: () => Promise.reject(new Error('not used')) } as unknown as Runner;
    const whole = (await expiringCsvBatch(run, today, 365, undefined, 1000)).rows;
    const walked: unknown[][] = [];
    let after: ExpiringCursor | undefined;
    let batches = 0;
    do {
      const batch = await expiringCsvBatch(run, today, 365, after, 2);
      walked.push(...batch.rows);
      after = batch.next;
      batches++;
    } while (after !== undefined);
    expect(whole.map((r) => r[1])).toEqual(['A-OLD', 'A-NOW', 'B-1', 'B-30', 'A-31', 'C-200', 'A-365']);
    expect(walked).toEqual(whole);
    expect(batches).toBe(4);
  });

  it.each([
    ['0', '0', 'days must be at least 1.'],
    ['366', '366', 'days must be at most 365.'],
    ['-1', '-1', 'days must be at least 1.'],
    ['NaN', 'NaN', 'days must be a number.'],
    ['text', 'abc', 'days must be a number.'],
    ['1e309 (Infinity)', '1e309', 'days must be a number.'],
    ['a fraction', '1.5', 'days must be a whole number.'],
    ['an array', '1&days=2', 'days must be a number.'],
    ['10,000 digits', '9'.repeat(10_000), 'days must be a number.'],
    ['10,000 characters', 'x'.repeat(10_000), 'days must be a number.'],
    ['a NUL', '3%00', 'Text must not contain NUL characters'],
  ])(
    'GET /api/lots/expiring refuses days as %s with 400 and one sentence, JSON or CSV',
    async (_label, days, sentence) => {
      for (const format of ['', '&format=csv']) {
        const res = await get(`days=${days}${format}`);
        expect(res.status, res.text.slice(0, 200)).toBe(400);
        expect(parsed(res, ApiError).success).toBe(false);
        expect(parsed(res, ApiError).error).toContain(sentence);
        expect(parsed(res, ApiError).error.length).toBeLessThan(200);
      }
    },
  );

  it('GET /api/lots/expiring refuses a hostile page, page size or format with 400', async () => {
    for (const [query, sentence] of [
      ['page=0', 'page starts at 1.'],
      ['pageSize=101', 'pageSize must be at most 100.'],
      ['pageSize=abc', 'pageSize must be a number.'],
      ['format=xlsx', 'format must be json or csv.'],
    ]) {
      const res = await get(query as string);
      expect(res.status, `${query}: ${res.text}`).toBe(400);
      expect(parsed(res, ApiError).error).toContain(sentence);
    }
  });

  it('GET /api/lots/expiring answers 403 to every role but admin', async () => {
    for (const role of ['superAdmin', 'salesRep', 'medicalRep', 'user'] as const) {
      const res = await get('', t.as[role].token);
      expect(res.status, role).toBe(403);
    }
  });
});

describe.each(targets)('a lot’s recall trace on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());
  const h = helpers(() => t);

  const { sold, customer } = fixtures(() => t);
  const sell = (productId: string, quantity: number, buyer: string) =>
    sold(t.as.salesRep, { lines: [{ productId, quantity }], customer: buyer });
  const trace = (id: string, token = t.as.admin.token) => t.call('GET', `/api/lots/${id}/trace`, { token });

  it('GET /api/lots/:id/trace names every movement of a lot received, sold to two customers and returned, oldest first, with its order, sale, customer and purchase order', async () => {
    const today = await h.today();
    const { id, order } = await h.stocked('Paracetamol', 0.8, [
      { number: 'P-EARLY', expiresOn: addDays(today, 10), quantity: 2 },
      { number: 'P-LATE', expiresOn: addDays(today, 100), quantity: 10 },
    ]);
    const [early, late] = await h.lotsOf(id);
    const ann = (await customer({ name: `Ann ${tag()}` }))._id;
    const bob = (await customer({ name: `Bob ${tag()}` }))._id;
    // Ann's 3 take the 2 of the earlier lot and 1 of the later; Bob's 2 the later.
    const annSale = await sell(id, 3, ann);
    const bobSale = await sell(id, 2, bob);
    const bobOrder = bobSale.lines[0]?.order._id as string;
    const back = await t.call('POST', `/api/order/${bobOrder}/return`, {
      token: t.as.admin.token,
      body: { quantity: 1 },
    });
    expect(back.status, back.text).toBe(200);
    // Ann moves house: the sale keeps the name she bought under.
    const [{ name: annName = '' } = {}] = await t.sql<{ name: string }>(
      'select name from customers where id = $1',
      [ann],
    );
    await t.sql(`update customers set name = 'Ann Renamed' where id = $1`, [ann]);

    const res = await trace(late?.id as string);
    expect(res.status, res.text).toBe(200);
    const body = TraceResponse.strict().parse(res.body);
    const [{ name: productName = '' } = {}] = await t.sql<{ name: string }>(
      'select name from products where id = $1',
      [id],
    );
    expect(body.lot).toEqual({
      _id: late?.id,
      number: 'P-LATE',
      expiresOn: addDays(today, 100),
      quantity: 10 - 1 - 2 + 1,
      product: { _id: id, name: productName },
    });
    const admin = { _id: t.as.admin.id, name: t.as.admin.name };
    const rep = { _id: t.as.salesRep.id, name: t.as.salesRep.name };
    const annOrder = annSale.lines[0]?.order._id as string;
    const [main] = await t.sql<{ _id: string; name: string }>(
      'select id as "_id", name from locations where id = default_location()',
    );
    // Every movement says where (DESIGN §17): with one location, the main store.
    expect(body.movements.map((m) => m.location)).toEqual([main, main, main, main]);
    expect(body.movements.map(({ _id, at, note, location: _where, ...rest }) => rest)).toEqual([
      {
        kind: 'receipt',
        quantity: 10,
        reason: null,
        purchaseOrder: { _id: order.id, number: order.number },
        user: admin,
      },
      {
        kind: 'sale',
        quantity: -1,
        reason: null,
        order: { _id: annOrder },
        sale: { _id: annSale._id, number: annSale.number },
        customer: { _id: ann, name: annName },
        user: rep,
      },
      {
        kind: 'sale',
        quantity: -2,
        reason: null,
        order: { _id: bobOrder },
        sale: { _id: bobSale._id, number: bobSale.number },
        customer: { _id: bob, name: expect.stringMatching(/^Bob /) },
        user: rep,
      },
      {
        kind: 'return',
        quantity: 1,
        reason: expect.any(String),
        order: { _id: bobOrder },
        sale: { _id: bobSale._id, number: bobSale.number },
        customer: { _id: bob, name: expect.stringMatching(/^Bob /) },
        user: admin,
      },
    ]);
    expect(order.number).toMatch(/^PO-\d{6}$/);
    const times = body.movements.map((m) => m.at);
    expect([...times].sort()).toEqual(times);
    expect(body.movements.reduce((sum, m) => sum + m.quantity, 0)).toBe(body.lot.quantity);

    // The earlier lot went to Ann alone.
    const other = TraceResponse.parse((await trace(early?.id as string)).body);
    expect(other.lot).toMatchObject({ number: 'P-EARLY', quantity: 0 });
    expect(
      other.movements.map((m) => [m.kind, m.quantity, m.customer?._id ?? null, m.sale?._id ?? null]),
    ).toEqual([
      ['receipt', 2, null, null],
      ['sale', -2, ann, annSale._id],
    ]);
    await ledgerHolds(t, id);
  });

  it('GET /api/lots/:id/trace answers a lot without movements, and 404 for an unknown or malformed id', async () => {
    const id = await h.product('Syrup');
    const [lot] = await t.sql<{ id: string }>(
      `insert into lots (product_id, number, expires_on) values ($1, 'S-0', '2040-01-31') returning id`,
      [id],
    );
    const empty = TraceResponse.parse((await trace(lot?.id as string)).body);
    expect(empty.movements).toEqual([]);
    expect(empty.lot).toMatchObject({
      number: 'S-0',
      expiresOn: '2040-01-31',
      quantity: 0,
      product: { _id: id },
    });
    for (const unknown of ['00000000-0000-4000-8000-000000000000', 'abc', 'S-0', "1' or '1'='1"]) {
      const res = await trace(encodeURIComponent(unknown));
      expect(res.status, unknown).toBe(404);
      expect(res.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'Lot not found.' });
    }
    // Longer than any id: the router's own 404.
    const long = await trace('x'.repeat(10_000));
    expect(long.status).toBe(404);
    expect(long.body).toEqual({
      success: false,
      code: 'NOT_FOUND',
      error: expect.stringMatching(/^[A-Z].*\.$/),
    });
  });

  it('GET /api/lots/:id/trace answers 403 to every role but admin', async () => {
    const id = await h.product('Drops');
    const [lot] = await t.sql<{ id: string }>(
      `insert into lots (product_id, number, expires_on) values ($1, 'D-0', null) returning id`,
      [id],
    );
    for (const role of ['superAdmin', 'salesRep', 'medicalRep', 'user'] as const)
      expect((await trace(lot?.id as string, t.as[role].token)).status, role).toBe(403);
  });
});
