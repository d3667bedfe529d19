import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { StockCheckResponse } from '../../../shared/stock';
import {
  type Transfer,
  type TransferInput,
  TransferListResponse,
  TransferResponse,
} from '../../../shared/transfers';
import { fixtures, nth, tag } from '../../test/fixtures';
import { type Answer, parsed, startApp, type TestApp, targets } from '../../test/harness';
import { locationLedgerProblems } from '../../test/location-ledger';
import { recordMovements } from '../stock/movements';

describe.each(targets)('transfers on $name', (target) => {
  let t: TestApp;
  let main: string;
  beforeAll(async () => {
    t = await startApp(target);
    main = (await t.sql<{ id: string }>('select default_location() as id'))[0]?.id as string;
  });
  afterAll(() => t?.close());
  const { sell, stockOf } = fixtures(() => t);
  const admin = () => t.as.admin.token;

  /** A location made directly (the locations API is another module's). */
  const location = async (name = `Stockroom ${tag()}`, active = true) =>
    (
      await t.sql<{ id: string }>(
        `insert into locations (name, kind, active) values ($1, 'stockroom', $2) returning id`,
        [name, active],
      )
    )[0]?.id as string;
  /** A product holding `stock` units at `where` (none elsewhere). */
  const productAt = async (where: string, stock: number) => {
    const { id } = await t.product({ stock: 0 });
    if (stock > 0)
      await recordMovements(t.app.database, [
        { productId: id, kind: 'receipt', quantity: stock, locationId: where },
      ]);
    return id;
  };
  const stockAt = async (productId: string, where: string) =>
    (
      await t.sql<{ stock: number }>(
        'select coalesce((select stock from location_stock where product_id = $1 and location_id = $2), 0) as stock',
        [productId, where],
      )
    )[0]?.stock;
  const call = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
    t.call(method, url, { token: admin(), body, headers });
  const draft = async (body: TransferInput): Promise<Transfer> => {
    const answer = await call('POST', '/api/transfers', body);
    expect(answer.status, answer.text).toBe(201);
    return parsed(answer, TransferResponse).transfer;
  };
  const send = (id: string) => call('POST', `/api/transfers/${id}/send`);
  const sent = async (id: string): Promise<Transfer> => {
    const answer = await send(id);
    expect(answer.status, answer.text).toBe(200);
    return parsed(answer, TransferResponse).transfer;
  };
  const receive = (id: string, lines: { line: string; received: number; lost?: number }[]) =>
    call('POST', `/api/transfers/${id}/receive`, { lines });
  const refusal = (answer: Answer) => parsed(answer, ApiError);
  const holds = async (productIds: string[]) => {
    expect(await locationLedgerProblems(t.app.database, productIds)).toEqual([]);
    const check = parsed(await call('GET', '/api/stock/check'), StockCheckResponse);
    expect(check.mismatches.filter((m) => productIds.includes(m.product._id))).toEqual([]);
  };

  describe('a transfer from draft to received', () => {
    it('a draft holds nothing; it is edited, sent (units leave from and belong nowhere), received in part, with lost units, then whole', async () => {
      const room = await location();
      const a = await productAt(main, 10);
      const b = await productAt(main, 6);
      const made = await draft({ from: main, to: room, lines: [{ product: a, quantity: 3 }], note: 'First' });
      expect(made).toMatchObject({ status: 'draft', note: 'First', from: { _id: main }, to: { _id: room } });
      expect(made.number).toMatch(/^TR-\d{6}$/);
      expect(made.lines).toEqual([
        expect.objectContaining({ product: expect.objectContaining({ _id: a }), quantity: 3, sent: 0 }),
      ]);
      expect(await stockAt(a, main)).toBe(10);

      const edited = await call('PUT', `/api/transfers/${made._id}`, {
        from: main,
        to: room,
        lines: [
          { product: a, quantity: 4 },
          { product: b, quantity: 6 },
        ],
      });
      expect(edited.status, edited.text).toBe(200);
      expect(parsed(edited, TransferResponse).transfer.lines.map((l) => l.quantity)).toEqual([4, 6]);

      const out = await sent(made._id);
      expect(out.status).toBe('inTransit');
      expect(out.sentAt).not.toBeNull();
      expect(out.lines.map((l) => l.sent)).toEqual([4, 6]);
      expect([await stockAt(a, main), await stockAt(a, room), await stockOf(a)]).toEqual([6, 0, 6]);
      expect([await stockAt(b, main), await stockAt(b, room), await stockOf(b)]).toEqual([0, 0, 0]);
      const moves = await t.sql<{ kind: string; quantity: number; location_id: string; note: string }>(
        `select kind, quantity, location_id, note from stock_movements where transfer_id = $1 order by product_id`,
        [made._id],
      );
      expect(moves).toHaveLength(2);
      for (const move of moves)
        expect(move).toMatchObject({
          kind: 'transferOut',
          location_id: main,
          note: expect.stringContaining(made.number),
        });
      await holds([a, b]);
      // Sent, it is no draft: no second send, no edit.
      expect(refusal(await send(made._id)).code).toBe('TRANSFER_STATUS');
      const late = await call('PUT', `/api/transfers/${made._id}`, {
        from: main,
        to: room,
        lines: [{ product: a, quantity: 1 }],
      });
      expect(late.status).toBe(409);
      expect(refusal(late)).toMatchObject({
        code: 'TRANSFER_STATUS',
        error: `${made.number} is in transit: it cannot be changed.`,
      });

      const lineA = nth(out.lines, 0)._id;
      const lineB = nth(out.lines, 1)._id;
      const part = await receive(made._id, [{ line: lineA, received: 2, lost: 1 }]);
      expect(part.status, part.text).toBe(200);
      expect(parsed(part, TransferResponse).transfer).toMatchObject({ status: 'partiallyReceived' });
      expect([await stockAt(a, main), await stockAt(a, room), await stockOf(a)]).toEqual([6, 2, 8]);
      await holds([a, b]);

      // More than is still on the road is refused, and nothing of the call is kept.
      const over = await receive(made._id, [
        { line: lineB, received: 6 },
        { line: lineA, received: 2 },
      ]);
      expect(over.status).toBe(409);
      expect(refusal(over)).toMatchObject({ code: 'TRANSFER_OVER_RECEIVED' });
      expect(await stockAt(b, room)).toBe(0);

      const rest = await receive(made._id, [
        { line: lineA, received: 1 },
        { line: lineB, received: 5, lost: 1 },
      ]);
      expect(rest.status, rest.text).toBe(200);
      const whole = parsed(rest, TransferResponse).transfer;
      expect(whole.status).toBe('received');
      expect(whole.receivedAt).not.toBeNull();
      expect(whole.lines.map((l) => [l.sent, l.received, l.lost, l.returned])).toEqual([
        [4, 3, 1, 0],
        [6, 5, 1, 0],
      ]);
      expect([await stockAt(a, room), await stockAt(b, room), await stockOf(b)]).toEqual([3, 5, 5]);
      const lost = await t.sql<{ kind: string; quantity: number; location_id: string }>(
        `select kind, quantity, location_id from stock_movements where transfer_id = $1 and kind = 'transferLoss'`,
        [made._id],
      );
      expect(lost).toEqual([
        { kind: 'transferLoss', quantity: -1, location_id: room },
        { kind: 'transferLoss', quantity: -1, location_id: room },
      ]);
      await holds([a, b]);
      expect(refusal(await call('POST', `/api/transfers/${made._id}/cancel`)).code).toBe('TRANSFER_STATUS');
      expect(refusal(await receive(made._id, [{ line: lineA, received: 0, lost: 1 }])).code).toBe(
        'TRANSFER_STATUS',
      );

      const audit = await t.sql<{ action: string }>(
        `select action from audit_log where entity_type = 'transfer' and entity_id = $1 order by at, id`,
        [made._id],
      );
      expect(audit.map((row) => row.action)).toEqual(['created', 'updated', 'sent', 'received', 'received']);
    });

    it('a cancelled draft moves nothing; closing one in transit returns what is still on the road to from', async () => {
      const room = await location();
      const a = await productAt(main, 8);
      const cancelled = await draft({ from: main, to: room, lines: [{ product: a, quantity: 3 }] });
      const gone = await call('POST', `/api/transfers/${cancelled._id}/cancel`);
      expect(parsed(gone, TransferResponse).transfer.status).toBe('cancelled');
      expect(refusal(await send(cancelled._id)).code).toBe('TRANSFER_STATUS');
      expect(refusal(await call('POST', `/api/transfers/${cancelled._id}/cancel`)).code).toBe(
        'TRANSFER_STATUS',
      );
      expect(await stockAt(a, main)).toBe(8);

      const road = await draft({ from: main, to: room, lines: [{ product: a, quantity: 5 }] });
      const out = await sent(road._id);
      await receive(road._id, [{ line: nth(out.lines)._id, received: 1, lost: 1 }]);
      expect([await stockAt(a, main), await stockAt(a, room)]).toEqual([3, 1]);
      const closed = parsed(
        await call('POST', `/api/transfers/${road._id}/cancel`),
        TransferResponse,
      ).transfer;
      expect(closed.status).toBe('closed');
      expect(closed.closedAt).not.toBeNull();
      expect(nth(closed.lines)).toMatchObject({ sent: 5, received: 1, lost: 1, returned: 3 });
      expect([await stockAt(a, main), await stockAt(a, room), await stockOf(a)]).toEqual([6, 1, 7]);
      await holds([a]);
      expect(refusal(await call('POST', `/api/transfers/${road._id}/cancel`)).code).toBe('TRANSFER_STATUS');
    });
  });

  describe('sending', () => {
    it('a line short at from is a 409 naming the product and the location, with where else it is, and nothing moves', async () => {
      const room = await location();
      const shop = await location(`Shop ${tag()}`);
      const a = await productAt(main, 5);
      const b = await productAt(main, 1);
      await recordMovements(t.app.database, [
        { productId: b, kind: 'receipt', quantity: 12, locationId: shop },
      ]);
      const made = await draft({
        from: main,
        to: room,
        lines: [
          { product: a, quantity: 5 },
          { product: b, quantity: 2 },
        ],
      });
      const answer = await send(made._id);
      expect(answer.status).toBe(409);
      const [name] = await t.sql<{ name: string }>('select name from products where id = $1', [b]);
      expect(refusal(answer)).toMatchObject({
        code: 'SHORT_AT_LOCATION',
        error: `Not enough stock of ${name?.name} at Main store: 1 left.`,
        elsewhere: [{ location: { _id: shop, name: expect.stringMatching(/^Shop /) }, stock: 12 }],
      });
      expect([await stockAt(a, main), await stockAt(b, main)]).toEqual([5, 1]);
      const [moved] = await t.sql<{ n: number }>(
        'select count(*)::int as n from stock_movements where transfer_id = $1',
        [made._id],
      );
      expect(moved?.n).toBe(0);
      expect(parsed(await call('GET', `/api/transfers/${made._id}`), TransferResponse).transfer.status).toBe(
        'draft',
      );
    });

    it('units in transit are sellable nowhere: not at from, not at to until received', async () => {
      const room = await location();
      const a = await productAt(main, 4);
      const sale = { lines: [{ productId: a, quantity: 1 }], payment: { method: 'card' } };
      const made = await draft({ from: main, to: room, lines: [{ product: a, quantity: 4 }] });
      const out = await sent(made._id);
      expect((await sell(t.as.salesRep, sale)).status).toBe(409);
      // A sale at `to`: the store's default location is where a sale without a register sells from.
      await t.sql('update store_settings set default_location_id = $1', [room]);
      try {
        expect((await sell(t.as.salesRep, sale)).status).toBe(409);
        await receive(made._id, [{ line: nth(out.lines)._id, received: 2 }]);
        expect((await sell(t.as.salesRep, { ...sale, lines: [{ productId: a, quantity: 3 }] })).status).toBe(
          409,
        );
        const sold = await sell(t.as.salesRep, { ...sale, lines: [{ productId: a, quantity: 2 }] });
        expect(sold.status, sold.text).toBe(201);
      } finally {
        await t.sql('update store_settings set default_location_id = $1', [main]);
      }
      expect([await stockAt(a, main), await stockAt(a, room), await stockOf(a)]).toEqual([0, 0, 0]);
      await holds([a]);
    });

    it('lot-tracked lines travel first-expiry-first-out (unexpired first) or as named, and arrive in the same lots with their expiries', async () => {
      const room = await location();
      const { id } = await t.product({ stock: 0 });
      await t.sql(`update products set tracking = 'lot' where id = $1`, [id]);
      const lotIds: Record<string, string> = {};
      for (const [number, days, quantity] of [
        ['OLD', -3, 5],
        ['SOON', 10, 3],
        ['LATER', 40, 6],
        ['NEVER', null, 2],
      ] as const) {
        const [lot] = await t.sql<{ id: string }>(
          `insert into lots (product_id, number, expires_on)
           values ($1, $2, case when $3::int is null then null else store_today() + $3::int end) returning id`,
          [id, number, days],
        );
        lotIds[number] = lot?.id as string;
        await recordMovements(t.app.database, [
          { productId: id, kind: 'receipt', quantity, lotId: lot?.id, locationId: main },
        ]);
      }
      const fefo = await sent(
        (await draft({ from: main, to: room, lines: [{ product: id, quantity: 5 }] }))._id,
      );
      expect(nth(fefo.lines).lots?.map((lot) => [lot.number, lot.sent])).toEqual([
        ['SOON', 3],
        ['LATER', 2],
      ]);
      const named = await sent(
        (
          await draft({
            from: main,
            to: room,
            lines: [
              {
                product: id,
                quantity: 3,
                lots: [
                  { number: 'old', quantity: 2 },
                  { number: 'NEVER', quantity: 1 },
                ],
              },
            ],
          })
        )._id,
      );
      // Listed as they travel: the unexpired first, the expired last.
      expect(nth(named.lines).lots?.map((lot) => [lot.number, lot.sent])).toEqual([
        ['NEVER', 1],
        ['OLD', 2],
      ]);
      // Received in part: from the lots it was sent with, the earliest expiry first.
      const got = parsed(
        await receive(fefo._id, [{ line: nth(fefo.lines)._id, received: 4, lost: 1 }]),
        TransferResponse,
      );
      expect(nth(got.transfer.lines).lots?.map((lot) => [lot.number, lot.received, lot.lost])).toEqual([
        ['SOON', 3, 0],
        ['LATER', 1, 1],
      ]);
      const atRoom = await t.sql<{ lot_id: string; quantity: number; expires_on: string | null }>(
        `select s.lot_id, s.quantity, l.expires_on::text from lot_stock s join lots l on l.id = s.lot_id
         where s.location_id = $1 and s.product_id = $2 and s.quantity > 0 order by l.expires_on`,
        [room, id],
      );
      expect(atRoom.map((row) => [row.lot_id, row.quantity])).toEqual([
        [lotIds.SOON, 3],
        [lotIds.LATER, 1],
      ]);
      expect(await stockAt(id, room)).toBe(4);
      await holds([id]);
      // A named lot that is not there in that number is refused, and a lot of another product.
      const tooMany = await draft({
        from: main,
        to: room,
        lines: [{ product: id, quantity: 5, lots: [{ number: 'OLD', quantity: 5 }] }],
      });
      expect(refusal(await send(tooMany._id)).code).toBe('LOT_SHORT');
      const closed = await call('POST', `/api/transfers/${named._id}/cancel`);
      expect(parsed(closed, TransferResponse).transfer.status).toBe('closed');
      const [old] = await t.sql<{ quantity: number }>('select quantity from lots where id = $1', [
        lotIds.OLD,
      ]);
      expect(old?.quantity).toBe(5);
      await holds([id]);
    });
  });

  describe('keys, audit and listing', () => {
    it('every step with an Idempotency-Key happens once; the list filters by status and by location', async () => {
      const room = await location();
      const a = await productAt(main, 9);
      const key = () => ({ 'idempotency-key': `tr-${tag()}` });
      const create = key();
      const body = { from: main, to: room, lines: [{ product: a, quantity: 2 }] };
      const first = await call('POST', '/api/transfers', body, create);
      const again = await call('POST', '/api/transfers', body, create);
      expect([first.status, again.status]).toEqual([201, 201]);
      const id = parsed(first, TransferResponse).transfer._id;
      expect(parsed(again, TransferResponse).transfer._id).toBe(id);
      const sendKey = key();
      for (let i = 0; i < 2; i++)
        expect((await call('POST', `/api/transfers/${id}/send`, undefined, sendKey)).status).toBe(200);
      expect(await stockAt(a, main)).toBe(7);
      const line = nth(
        parsed(await call('GET', `/api/transfers/${id}`), TransferResponse).transfer.lines,
      )._id;
      const receiveKey = key();
      for (let i = 0; i < 2; i++)
        expect(
          (await call('POST', `/api/transfers/${id}/receive`, { lines: [{ line, received: 1 }] }, receiveKey))
            .status,
        ).toBe(200);
      expect(await stockAt(a, room)).toBe(1);

      const byRoom = parsed(await call('GET', `/api/transfers?location=${room}`), TransferListResponse);
      expect(byRoom.transfers.map((x) => x._id)).toEqual([id]);
      expect(nth(byRoom.transfers)).toMatchObject({
        lineCount: 1,
        units: 2,
        inTransit: 1,
        status: 'partiallyReceived',
      });
      const other = parsed(
        await call('GET', `/api/transfers?location=${room}&status=draft`),
        TransferListResponse,
      );
      expect(other).toMatchObject({ transfers: [], total: 0 });
      const paged = parsed(await call('GET', '/api/transfers?page=1&pageSize=1'), TransferListResponse);
      expect(paged.transfers).toHaveLength(1);
      expect(paged.total).toBeGreaterThanOrEqual(1);
      await holds([a]);
    });
  });

  describe('refusals', () => {
    it('only admins manage transfers', async () => {
      for (const role of ['superAdmin', 'salesRep', 'medicalRep', 'user'] as const) {
        const answer = await t.call('GET', '/api/transfers', { token: t.as[role].token });
        expect(answer.status, role).toBe(403);
        const write = await t.call('POST', '/api/transfers', { token: t.as[role].token, body: {} });
        expect(write.status, role).toBe(403);
      }
      expect((await t.call('GET', '/api/transfers')).status).toBe(401);
    });

    it('bad input is a 4xx with one sentence, never a 500', async () => {
      const room = await location();
      const idle = await location(`Closed ${tag()}`, false);
      const a = await productAt(main, 3);
      const line = { product: a, quantity: 1 };
      const long = 'x'.repeat(10_000);
      const bodies: [unknown, number][] = [
        [{ from: main, to: main, lines: [line] }, 400],
        [{ from: main, to: main.toUpperCase(), lines: [line] }, 400],
        [{ from: main, to: idle, lines: [line] }, 409],
        [{ from: idle, to: main, lines: [line] }, 409],
        [{ from: main, to: '00000000-0000-4000-8000-000000000000', lines: [line] }, 404],
        [{ from: 'nope', to: room, lines: [line] }, 404],
        [{ from: [main], to: room, lines: [line] }, 400],
        [{ from: main, to: room, lines: [] }, 400],
        [{ from: main, to: room, lines: line }, 400],
        [{ from: main, to: room, lines: [line, line] }, 400],
        [{ from: main, to: room, lines: [{ product: a, quantity: Number.NaN }] }, 400],
        [{ from: main, to: room, lines: [{ product: a, quantity: -1 }] }, 400],
        [{ from: main, to: room, lines: [{ product: a, quantity: 0 }] }, 400],
        [{ from: main, to: room, lines: [{ product: a, quantity: 1.5 }] }, 400],
        [{ from: main, to: room, lines: [{ product: a, quantity: 1e12 }] }, 400],
        [{ from: main, to: room, lines: [{ product: a, quantity: '1' }] }, 400],
        [{ from: main, to: room, lines: [{ product: a, quantity: [1] }] }, 400],
        [{ from: main, to: room, lines: [{ product: 'nope', quantity: 1 }] }, 400],
        [
          { from: main, to: room, lines: [{ product: '00000000-0000-4000-8000-000000000000', quantity: 1 }] },
          400,
        ],
        [{ from: main, to: room, lines: [{ product: long, quantity: 1 }] }, 400],
        [{ from: main, to: room, lines: [{ ...line, lots: [{ number: 'A', quantity: 1 }] }] }, 400],
        [{ from: main, to: room, lines: [line], note: long }, 400],
        [{ from: main, to: room, lines: [line], note: 'a\u0000b' }, 400],
        [{ from: `${main}\u0000`, to: room, lines: [line] }, 400],
        [{ from: long, to: room, lines: [line] }, 400],
        [{ from: main, to: room, lines: Array.from({ length: 501 }, () => line) }, 400],
        ['{"from": ', 400],
        [null, 400],
      ];
      for (const [body, status] of bodies) {
        const json = typeof body === 'string' ? { 'content-type': 'application/json' } : undefined;
        const answer = await call('POST', '/api/transfers', body, json);
        expect(answer.status, JSON.stringify(body).slice(0, 200)).toBe(status);
        // A body that is no object at all is zod's own sentence, as on every route.
        if (body !== null) expect(refusal(answer).error).toMatch(/^\S[^\n]*\.$/);
      }
      const made = await draft({ from: main, to: room, lines: [line] });
      await sent(made._id);
      const receives: [unknown, number][] = [
        [{ lines: [{ line: 'nope', received: 1 }] }, 400],
        [{ lines: [{ line: '00000000-0000-4000-8000-000000000000', received: 1 }] }, 400],
        [{ lines: [{ line: nth(made.lines)._id, received: -1 }] }, 400],
        [{ lines: [{ line: nth(made.lines)._id, received: Number.NaN }] }, 400],
        [{ lines: [{ line: nth(made.lines)._id, received: 1, lost: [1] }] }, 400],
        [{ lines: [{ line: nth(made.lines)._id, received: 0 }] }, 400],
        [{ lines: [{ line: nth(made.lines)._id, received: 2 }] }, 409],
        [{ lines: [{ line: nth(made.lines)._id, received: 1e9 }] }, 400],
        [
          {
            lines: [
              { line: nth(made.lines)._id, received: 1 },
              { line: nth(made.lines)._id, received: 1 },
            ],
          },
          400,
        ],
        [{ lines: 'all' }, 400],
        [{}, 400],
      ];
      for (const [body, status] of receives) {
        const answer = await receive(made._id, (body as { lines: never }).lines);
        expect(answer.status, JSON.stringify(body)).toBe(status);
        expect(refusal(answer).error).toMatch(/^\S[^\n]*\.$/);
      }
      for (const id of ['nope', '00000000-0000-4000-8000-000000000000', 'x'.repeat(1000)]) {
        expect((await call('GET', `/api/transfers/${id}`)).status).toBe(404);
        expect((await send(id)).status).toBe(404);
        expect((await call('POST', `/api/transfers/${id}/cancel`)).status).toBe(404);
        expect((await receive(id, [{ line: nth(made.lines)._id, received: 1 }])).status).toBe(404);
      }
      for (const query of [
        'status=lost',
        'status=draft&status=sent',
        'page=0',
        'pageSize=1000',
        'page=x',
        `location=${long}`,
      ])
        expect((await call('GET', `/api/transfers?${query}`)).status, query).toBe(400);
      expect((await call('GET', '/api/transfers?location=nope')).status).toBe(404);
      await holds([a]);
    });
  });
});
