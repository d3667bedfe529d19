import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { OrderResponse, ReturnResponse } from '../../../shared/orders';
import { SaleResponse } from '../../../shared/sales';
import { RefundResponse, RegisterResponse, SessionResponse } from '../../../shared/till';
import { fixtures, nth, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { recordMovements } from '../stock/movements';

/**
 * DESIGN §17 "Where a sale takes from": a sale in a till session takes from its register's
 * location, one without from the seller's (null: the default); a line short there is a 409
 * SHORT_AT_LOCATION naming the product and the location, with `elsewhere`, even when another
 * location holds it; FEFO among that location's lots only; refunds and returns restock where the
 * units left from unless they name another; each location's stock = Σ its movements.
 */
describe.each(targets)('where a sale takes from on $name', (target) => {
  let t: TestApp;
  let main: { id: string; name: string };
  let stockroom: { id: string; name: string };
  let shop: { id: string; name: string };
  beforeAll(async () => {
    t = await startApp(target);
    const [row] = await t.sql<{ id: string; name: string }>(
      'select id, name from locations where id = default_location()',
    );
    main = row as { id: string; name: string };
    const place = async (name: string, kind: string) =>
      nth(
        await t.sql<{ id: string; name: string }>(
          'insert into locations (name, kind) values ($1, $2) returning id, name',
          [name, kind],
        ),
      );
    stockroom = await place(`Stockroom ${tag()}`, 'stockroom');
    shop = await place(`Second shop ${tag()}`, 'store');
  });
  afterAll(async () => t?.close());
  const { sell } = fixtures(() => t);

  const at = async (productId: string, locationId: string) =>
    (
      await t.sql<{ stock: number }>(
        'select stock from location_stock where product_id = $1 and location_id = $2',
        [productId, locationId],
      )
    )[0]?.stock ?? 0;

  /** A product with `stock` units at each location given (the rest at 0). */
  async function stocked(spread: Record<string, number>, name = `Spread ${tag()}`) {
    const { id } = await t.product({ name, stock: 0, price: 2 });
    await recordMovements(
      { query: t.sql },
      Object.entries(spread).map(([locationId, quantity]) => ({
        productId: id,
        kind: 'receipt' as const,
        quantity,
        locationId,
      })),
    );
    return { id, name };
  }

  /** Each location's stock equals the sum of its movements; the product's the sum over locations. */
  async function ledgerHolds(productId: string) {
    const rows = await t.sql<{ bad: number }>(
      `select count(*)::int as bad from (
         select m.location_id, sum(m.quantity)::int as moved, coalesce(max(s.stock), 0) as stock
         from stock_movements m left join location_stock s
           on s.product_id = m.product_id and s.location_id = m.location_id
         where m.product_id = $1 group by m.location_id
       ) x where moved <> stock`,
      [productId],
    );
    expect(nth(rows).bad).toBe(0);
    const [sum] = await t.sql<{ ok: boolean }>(
      `select (select stock from products where id = $1) =
              (select coalesce(sum(stock), 0) from location_stock where product_id = $1) as ok`,
      [productId],
    );
    expect(sum?.ok).toBe(true);
  }

  const card = { method: 'card' as const };

  it('takes from the default location for a seller without one, and answers where', async () => {
    const p = await stocked({ [main.id]: 5, [stockroom.id]: 7 });
    const answer = await sell(t.as.salesRep, { lines: [{ productId: p.id, quantity: 2 }], payment: card });
    expect(answer.status, answer.text).toBe(201);
    const { sale } = parsed(answer, SaleResponse);
    expect(sale.location).toEqual({ _id: main.id, name: main.name });
    expect(await at(p.id, main.id)).toBe(3);
    expect(await at(p.id, stockroom.id)).toBe(7);
    const [order] = await t.sql<{ location_id: string }>(
      'select location_id from orders where sale_id = $1',
      [sale._id],
    );
    expect(order?.location_id).toBe(main.id);
    const receipt = await t.call('GET', `/api/sales/${sale._id}`, { token: t.as.admin.token });
    expect(parsed(receipt, SaleResponse).sale.location?.name).toBe(main.name);
    await ledgerHolds(p.id);
  });

  it("takes from the seller's location without a session (the catalogue's order too)", async () => {
    const seller = await t.account('salesRep', `Shop seller ${tag()}`);
    await t.sql('update users set location_id = $2 where id = $1', [seller.id, shop.id]);
    const p = await stocked({ [main.id]: 10, [shop.id]: 4 });
    const answer = await sell(seller, { lines: [{ productId: p.id, quantity: 3 }], payment: card });
    expect(answer.status, answer.text).toBe(201);
    expect(parsed(answer, SaleResponse).sale.location?._id).toBe(shop.id);
    expect(await at(p.id, shop.id)).toBe(1);
    expect(await at(p.id, main.id)).toBe(10);
    const order = await t.call('POST', '/api/order/add', {
      token: seller.token,
      body: { productId: p.id, quantity: 1 },
    });
    expect(order.status, order.text).toBe(201);
    expect(parsed(order, OrderResponse).order.location).toEqual({ _id: shop.id, name: shop.name });
    expect(await at(p.id, shop.id)).toBe(0);
    const [moved] = await t.sql<{ n: number }>(
      `select count(*)::int as n from stock_movements where product_id = $1 and kind = 'sale' and location_id = $2`,
      [p.id, shop.id],
    );
    expect(moved?.n).toBe(2);
    // Out there, whatever the main store holds: the order is refused naming the shop.
    const short = await t.call('POST', '/api/order/add', {
      token: seller.token,
      body: { productId: p.id, quantity: 1 },
    });
    expect(short.status).toBe(409);
    const body = parsed(short, ApiError);
    expect(body.code).toBe('SHORT_AT_LOCATION');
    expect(body.error).toBe(`${p.name} is out of stock at ${shop.name}.`);
    expect(body.elsewhere).toEqual([{ location: { _id: main.id, name: main.name }, stock: 10 }]);
    await ledgerHolds(p.id);
  });

  it("takes from the register's location in a session, whoever sells", async () => {
    const made = await t.call('POST', '/api/registers', {
      token: t.as.admin.token,
      body: { name: `Stockroom till ${tag()}` },
    });
    expect(made.status, made.text).toBe(201);
    const register = parsed(made, RegisterResponse).register;
    await t.sql('update registers set location_id = $2 where id = $1', [register._id, stockroom.id]);
    const opened = await t.call('POST', `/api/registers/${register._id}/open`, {
      token: t.as.salesRep.token,
      body: { openingFloat: 50 },
    });
    expect(opened.status, opened.text).toBe(201);
    const { session } = parsed(opened, SessionResponse);
    const p = await stocked({ [main.id]: 2, [stockroom.id]: 6 });
    const answer = await sell(t.as.salesRep, {
      lines: [{ productId: p.id, quantity: 4 }],
      payment: card,
      session: session._id,
    });
    expect(answer.status, answer.text).toBe(201);
    expect(parsed(answer, SaleResponse).sale.location?._id).toBe(stockroom.id);
    expect(await at(p.id, stockroom.id)).toBe(2);
    expect(await at(p.id, main.id)).toBe(2);

    // Short there, with stock elsewhere: 409 naming the product and the stockroom, most first.
    await recordMovements({ query: t.sql }, [
      { productId: p.id, kind: 'receipt', quantity: 9, locationId: shop.id },
    ]);
    const short = await sell(t.as.salesRep, {
      lines: [{ productId: p.id, quantity: 3 }],
      payment: card,
      session: session._id,
    });
    expect(short.status).toBe(409);
    const body = parsed(short, ApiError);
    expect(body.code).toBe('SHORT_AT_LOCATION');
    expect(body.error).toBe(`Not enough stock of ${p.name} at ${stockroom.name}: 2 left.`);
    expect(body.elsewhere).toEqual([
      { location: { _id: shop.id, name: shop.name }, stock: 9 },
      { location: { _id: main.id, name: main.name }, stock: 2 },
    ]);
    expect(await at(p.id, stockroom.id)).toBe(2);

    // An inactive location holds nothing and sells nothing.
    await t.sql('update locations set active = false where id = $1', [stockroom.id]);
    try {
      const inactive = await sell(t.as.salesRep, {
        lines: [{ productId: p.id, quantity: 1 }],
        payment: card,
        session: session._id,
      });
      expect(inactive.status).toBe(409);
      expect(parsed(inactive, ApiError).code).toBe('LOCATION_INACTIVE');
      // …nor is named in the elsewhere list of another's short line.
      const other = await sell(t.as.salesRep, { lines: [{ productId: p.id, quantity: 50 }], payment: card });
      expect(parsed(other, ApiError).elsewhere?.map((e) => e.location._id)).toEqual([shop.id]);
    } finally {
      await t.sql('update locations set active = true where id = $1', [stockroom.id]);
    }
    await ledgerHolds(p.id);
  });

  it('sells first-expiry-first-out among the location’s lots only', async () => {
    const { id } = await t.product({ name: `Lots ${tag()}`, stock: 0, price: 3 });
    await t.sql(`update products set tracking = 'lot' where id = $1`, [id]);
    const lot = async (number: string, expiresOn: string, quantity: number, locationId: string) => {
      const row = nth(
        await t.sql<{ id: string }>(
          'insert into lots (product_id, number, expires_on) values ($1, $2, $3) returning id',
          [id, number, expiresOn],
        ),
      );
      await recordMovements({ query: t.sql }, [
        { productId: id, kind: 'receipt', quantity, lotId: row.id, locationId },
      ]);
      return row.id;
    };
    const soonest = await lot('A', '2099-01-01', 5, stockroom.id);
    const later = await lot('B', '2099-06-01', 4, main.id);
    const latest = await lot('C', '2099-12-01', 4, main.id);
    const answer = await sell(t.as.salesRep, { lines: [{ productId: id, quantity: 6 }], payment: card });
    expect(answer.status, answer.text).toBe(201);
    const { sale } = parsed(answer, SaleResponse);
    expect(nth(sale.lines).lots.map((l) => [l.lot.number, l.quantity])).toEqual([
      ['B', 4],
      ['C', 2],
    ]);
    const left = await t.sql<{ lot_id: string; location_id: string; quantity: number }>(
      'select lot_id, location_id, quantity from lot_stock where product_id = $1 order by quantity',
      [id],
    );
    expect(left.find((r) => r.lot_id === soonest)?.quantity).toBe(5);
    expect(left.find((r) => r.lot_id === later)?.quantity).toBe(0);
    expect(left.find((r) => r.lot_id === latest)?.quantity).toBe(2);
    // Short of unexpired units here, though the stockroom holds 5: refused, saying where.
    const short = await sell(t.as.salesRep, { lines: [{ productId: id, quantity: 3 }], payment: card });
    expect(short.status).toBe(409);
    const body = parsed(short, ApiError);
    expect(body.code).toBe('UNEXPIRED_SHORT');
    expect(body.elsewhere).toEqual([{ location: { _id: stockroom.id, name: stockroom.name }, stock: 5 }]);
    await ledgerHolds(id);
  });

  it('refunds restock where the units left from, or where named; write-offs there too', async () => {
    const seller = await t.account('salesRep', `Refund seller ${tag()}`);
    await t.sql('update users set location_id = $2 where id = $1', [seller.id, shop.id]);
    const p = await stocked({ [main.id]: 3, [shop.id]: 10 });
    const sale = parsed(
      await sell(seller, { lines: [{ productId: p.id, quantity: 6 }], payment: card }),
      SaleResponse,
    ).sale;
    const order = nth(sale.lines).order._id;
    expect(await at(p.id, shop.id)).toBe(4);
    const refund = (body: unknown) =>
      t.call('POST', `/api/sales/${sale._id}/refunds`, { token: t.as.salesRep.token, body });
    const back = await refund({ lines: [{ order, quantity: 2 }], method: 'card' });
    expect(back.status, back.text).toBe(201);
    parsed(back, RefundResponse);
    expect(await at(p.id, shop.id)).toBe(6);
    const named = await refund({ lines: [{ order, quantity: 1 }], method: 'card', location: stockroom.id });
    expect(named.status, named.text).toBe(201);
    expect(await at(p.id, stockroom.id)).toBe(1);
    expect(await at(p.id, shop.id)).toBe(6);
    const written = await refund({ lines: [{ order, quantity: 1 }], method: 'card', restock: false });
    expect(written.status, written.text).toBe(201);
    expect(await at(p.id, shop.id)).toBe(6);
    const [off] = await t.sql<{ location_id: string }>(
      `select location_id from stock_movements where product_id = $1 and kind = 'adjustment' and reason = 'damaged'`,
      [p.id],
    );
    expect(off?.location_id).toBe(shop.id);

    // Bad locations: unknown or not an id → 404; inactive → 409; not text → 400; nothing moves.
    for (const [location, status] of [
      ['00000000-0000-4000-8000-000000000000', 404],
      ['main', 404],
      ['x'.repeat(10_000), 400],
      [['a'], 400],
      [Number.NaN, 400],
      [7, 400],
      ['', 400],
    ] as const) {
      const bad = await refund({ lines: [{ order, quantity: 1 }], method: 'card', location });
      expect(bad.status, `${String(location).slice(0, 20)}: ${bad.text}`).toBe(status);
      parsed(bad, ApiError);
    }
    await t.sql('update locations set active = false where id = $1', [stockroom.id]);
    try {
      const inactive = await refund({
        lines: [{ order, quantity: 1 }],
        method: 'card',
        location: stockroom.id,
      });
      expect(inactive.status).toBe(409);
      expect(parsed(inactive, ApiError).code).toBe('LOCATION_INACTIVE');
    } finally {
      await t.sql('update locations set active = true where id = $1', [stockroom.id]);
    }
    expect(await at(p.id, shop.id)).toBe(6);

    // An order's return: to its location, or the one named.
    const returned = await t.call('POST', `/api/order/${order}/return`, {
      token: t.as.admin.token,
      body: { quantity: 1 },
    });
    expect(returned.status, returned.text).toBe(200);
    expect(parsed(returned, ReturnResponse).order.location?._id).toBe(shop.id);
    expect(await at(p.id, shop.id)).toBe(7);
    const elsewhere = await t.call('POST', `/api/order/${order}/return`, {
      token: t.as.admin.token,
      body: { quantity: 1, location: main.id },
    });
    expect(elsewhere.status, elsewhere.text).toBe(200);
    expect(await at(p.id, main.id)).toBe(4);
    const unknown = await t.call('POST', `/api/order/${order}/return`, {
      token: t.as.admin.token,
      body: { quantity: 1, location: 'nowhere' },
    });
    expect(unknown.status).toBe(404);
    await ledgerHolds(p.id);
  });

  it('keeps each location = Σ its movements over a run of mixed sales and refunds', async () => {
    const sellers = await Promise.all(
      [main, stockroom, shop].map(async (place) => {
        const seller = await t.account('salesRep', `Mixed ${tag()}`);
        await t.sql('update users set location_id = $2 where id = $1', [seller.id, place.id]);
        return seller;
      }),
    );
    const p = await stocked({ [main.id]: 20, [stockroom.id]: 20, [shop.id]: 20 });
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    for (let round = 0; round < 12; round += 1) {
      const seller = nth(sellers, next(3));
      const quantity = 1 + next(8);
      const answer = await sell(seller, { lines: [{ productId: p.id, quantity }], payment: card });
      expect([201, 409]).toContain(answer.status);
      if (answer.status === 201 && next(2) === 0) {
        const sale = parsed(answer, SaleResponse).sale;
        const refund = await t.call('POST', `/api/sales/${sale._id}/refunds`, {
          token: t.as.salesRep.token,
          body: { lines: [{ order: nth(sale.lines).order._id, quantity: 1 }], method: 'card' },
        });
        expect(refund.status, refund.text).toBe(201);
      } else if (answer.status === 409) expect(parsed(answer, ApiError).code).toBe('SHORT_AT_LOCATION');
      await ledgerHolds(p.id);
    }
  });
});
