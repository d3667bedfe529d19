import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/common';
import { type Cart, centsNumber, isCartProblem, priceCart } from '../../../shared/money';
import { ORDER_CSV_HEADER, OrderListResponse, OrderResponse, ReturnResponse } from '../../../shared/orders';
import { SaleListResponse, SaleResponse } from '../../../shared/sales';
import { fixtures, nth, tag } from '../../test/fixtures';
import { type Account, PASSWORD, parsed, startApp, type TestApp, targets } from '../../test/harness';
import { parseCsv } from '../../test/parse-csv';

/** DESIGN §12 at the counter: priced by the shared computation, approvals, selling above stock, returns. */
describe.each(targets)('money at the counter on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    // A strict sign-in throttle (3 per email and address), which wrong PINs must never touch.
    t = await startApp(target, { throttle: { perPair: 3, perEmail: 1000, perAddress: 1000, perUser: 1000 } });
  });
  afterAll(() => t?.close());
  const { sell, stockOf, ledgerOf, taxRate } = fixtures(() => t);

  const store = async (values: {
    pricesIncludeTax?: boolean;
    maxDiscountPercent?: number;
    rate?: string | null;
  }) =>
    t.sql(
      `insert into store_settings (id, name, address, phone, tax_number, receipt_footer, prices_include_tax,
                                   max_discount_percent, default_tax_rate_id)
       values (1, 'Corner Shop', '1 High St', '555-0100', 'VAT-1', 'Thank you!', $1, $2, $3)
       on conflict (id) do update set name = excluded.name, address = excluded.address, phone = excluded.phone,
         tax_number = excluded.tax_number, receipt_footer = excluded.receipt_footer,
         prices_include_tax = $1, max_discount_percent = $2, default_tax_rate_id = $3`,
      [values.pricesIncludeTax ?? false, values.maxDiscountPercent ?? 10, values.rate ?? null],
    );
  const rate = async (name: string, percent: string) =>
    (await taxRate({ name: `${name} ${tag()}`, rate: Number(percent) }))._id;
  const rateNameOf = async (id: string) =>
    (await t.sql<{ name: string }>('select name from tax_rates where id = $1', [id]))[0]?.name as string;
  const taxed = async (productId: string, rateId: string | null) =>
    t.sql('update products set tax_rate_id = $2 where id = $1', [productId, rateId]);
  /** An admin with a PIN, set through the endpoint. */
  const approver = async (pin = '4321') => {
    const admin = await t.account('admin');
    const res = await t.call('PUT', '/api/users/me/pin', {
      token: admin.token,
      body: { pin, currentPassword: PASSWORD },
    });
    expect(res.status).toBe(200);
    return admin;
  };

  beforeEach(async () => {
    await store({});
  });

  it('prices prices without tax as priceCart does: line and cart discounts shared exactly, tax by rate', async () => {
    await store({ maxDiscountPercent: 20 });
    const vat = await rate('VAT', '20');
    const city = await rate('City', '8.875');
    const zero = await rate('Zero', '0');
    const pen = await t.product({ name: 'Pen', stock: 20, price: 10 });
    const pad = await t.product({ name: 'Pad', stock: 20, price: 5.55 });
    const ink = await t.product({ name: 'Ink', stock: 20, price: 3.33 });
    await taxed(pen.id, vat);
    await taxed(pad.id, city);
    await taxed(ink.id, zero);
    const res = await sell(t.as.salesRep, {
      lines: [
        { productId: pen.id, quantity: 3, discount: { type: 'percent', value: 5 } },
        { productId: pad.id, quantity: 2, discount: { type: 'amount', value: 1.1 } },
        { productId: ink.id, quantity: 1 },
      ],
      discount: { type: 'amount', value: 1 },
      payment: { method: 'cash', tendered: 100 },
    });
    expect(res.status).toBe(201);
    const sale = parsed(res, SaleResponse).sale;
    const [vatName, cityName, zeroName] = [
      await rateNameOf(vat),
      await rateNameOf(city),
      await rateNameOf(zero),
    ];
    const cart: Cart = {
      pricesIncludeTax: false,
      discount: { type: 'amount', value: 1 },
      lines: [
        {
          unitPrice: 10,
          quantity: 3,
          taxRate: { name: vatName, rate: 20 },
          discount: { type: 'percent', value: 5 },
        },
        {
          unitPrice: 5.55,
          quantity: 2,
          taxRate: { name: cityName, rate: 8.875 },
          discount: { type: 'amount', value: 1.1 },
        },
        { unitPrice: 3.33, quantity: 1, taxRate: { name: zeroName, rate: 0 } },
      ],
    };
    const priced = priceCart(cart);
    if (isCartProblem(priced)) throw new Error('the cart prices');
    // The server's amounts are the shared computation's on the same data.
    expect(sale.lines.map((l) => [l.gross, l.discount, l.tax, l.total, l.net])).toEqual(
      priced.lines.map((l) => [l.gross, l.discount, l.tax, l.total, l.net].map(centsNumber)),
    );
    // By hand: pen 30.00 − 1.50 = 28.50, pad 11.10 − 1.10 = 10.00, ink 3.33; the cart's 1.00 over
    // 41.83 in proportion: 0.681…, 0.239…, 0.079… rounded down to 0.68, 0.23, 0.07 (0.98), the two
    // cents left to the largest remainders (ink, then pad) → 0.68, 0.24, 0.08, adding up to 1.00.
    expect(sale.lines.map((l: { discount: number }) => l.discount)).toEqual([2.18, 1.34, 0.08]);
    expect(sale.lines.map((l: { tax: number }) => l.tax)).toEqual([5.56, 0.87, 0]);
    expect(sale.subtotal).toBe(44.43);
    expect(sale.discount).toBe(3.6);
    expect(sale.tax).toBe(6.43);
    expect(sale.total).toBe(centsNumber(priced.total));
    expect(sale.total).toBe(47.26);
    expect(sale.change).toBe(52.74);
    expect(sale.taxes).toEqual([
      { name: vatName, rate: 20, base: 27.82, tax: 5.56 },
      { name: cityName, rate: 8.875, base: 9.76, tax: 0.87 },
      { name: zeroName, rate: 0, base: 3.25, tax: 0 },
    ]);
    expect(nth(sale.lines).taxRate).toEqual({ name: vatName, rate: 20 });
    expect(sale.store).toEqual({
      name: 'Corner Shop',
      address: '1 High St',
      phone: '555-0100',
      taxNumber: 'VAT-1',
      receiptFooter: 'Thank you!',
      currency: 'USD',
      pricesIncludeTax: false,
    });
    // The database holds the same: orders, the sale, and the receipt reads it back unchanged.
    const [row] = await t.sql<{ subtotal: string; discount: string; tax: string; total: string }>(
      'select subtotal::text, discount::text, tax::text, total::text from sales where id = $1',
      [sale._id],
    );
    expect(row).toEqual({ subtotal: '44.43', discount: '3.60', tax: '6.43', total: '47.26' });
    const receipt = await t.call('GET', `/api/sales/${sale._id}`, { token: t.as.salesRep.token });
    expect(receipt.body).toEqual({ success: true, sale });
    // Every order answer carries the money: the list, and the CSV's new columns.
    const listed = await t.call('GET', `/api/order/${t.as.salesRep.id}?page=1&pageSize=50`, {
      token: t.as.salesRep.token,
    });
    const penOrder = nth(
      parsed(listed, OrderListResponse).orders.filter((o) => o._id === nth(sale.lines).order._id),
    );
    expect(penOrder).toMatchObject({
      totalPrice: 33.38,
      discount: 2.18,
      tax: 5.56,
      taxRate: { name: vatName, rate: 20 },
      netTotal: 27.82,
      returnedTotal: 0,
    });
    const unpaged = await t.call('GET', `/api/order/${t.as.salesRep.id}`, { token: t.as.salesRep.token });
    expect(parsed(unpaged, OrderListResponse).orders.find((o) => o._id === penOrder._id)).toEqual(penOrder);
    const csv = await t.call('GET', `/api/order/${t.as.admin.id}?format=csv`, { token: t.as.admin.token });
    const [header, ...rows] = parseCsv(csv.text);
    expect(header).toEqual([...ORDER_CSV_HEADER]);
    const cells = rows.find((r) => r[0] === penOrder._id) as string[];
    const cell = (name: string) => cells[ORDER_CSV_HEADER.indexOf(name as (typeof ORDER_CSV_HEADER)[number])];
    expect([
      cell('total'),
      cell('discount'),
      cell('tax'),
      cell('tax rate'),
      cell('net'),
      cell('returned total'),
    ]).toEqual(['33.38', '2.18', '5.56', `${vatName} 20%`, '27.82', '0']);
    // The sales list sums it up.
    const list = await t.call('GET', `/api/sales?search=${sale.number}`, { token: t.as.admin.token });
    expect(parsed(list, SaleListResponse).sales[0]).toMatchObject({
      subtotal: 44.43,
      discount: 3.6,
      tax: 6.43,
      total: 47.26,
    });
  });

  it('prices prices with tax: the total is the amount, the tax inside it; the store default rate applies', async () => {
    const vat = await rate('VAT', '20');
    await store({ pricesIncludeTax: true, rate: vat });
    const tea = await t.product({ name: 'Tea', stock: 10, price: 12 });
    const res = await sell(t.as.salesRep, {
      lines: [{ productId: tea.id, quantity: 1, discount: { type: 'percent', value: 10 } }],
      payment: { method: 'card' },
    });
    expect(res.status).toBe(201);
    // 12.00 − 1.20 = 10.80, tax 10.80 × 20 / 120 = 1.80, net 9.00.
    expect(nth(parsed(res, SaleResponse).sale.lines)).toMatchObject({
      gross: 12,
      discount: 1.2,
      tax: 1.8,
      total: 10.8,
      net: 9,
    });
    expect(parsed(res, SaleResponse).sale).toMatchObject({
      subtotal: 12,
      discount: 1.2,
      tax: 1.8,
      total: 10.8,
    });
    expect(parsed(res, SaleResponse).sale.store.pricesIncludeTax).toBe(true);
    expect(parsed(res, SaleResponse).sale.taxes).toEqual([
      { name: await rateNameOf(vat), rate: 20, base: 9, tax: 1.8 },
    ]);
  });

  it('a total other than the one computation gives is a 409 TOTAL_CHANGED with the new total, before anything is written; the total it gives passes', async () => {
    const city = await rate('City', '6.75');
    // The counter read "prices without tax" (7.74 + 0.52 tax = 8.26); the admin has since switched.
    await store({ pricesIncludeTax: true, rate: city });
    const cheese = await t.product({ name: 'Cheese', stock: 10, price: 7.74 });
    const counts = async () =>
      (
        await t.sql<{ orders: number; sales: number; movements: number }>(
          `select (select count(*) from orders)::int as orders, (select count(*) from sales)::int as sales,
                  (select count(*) from stock_movements)::int as movements`,
        )
      )[0];
    const [{ last } = { last: 0 }] = await t.sql<{ last: number }>(
      'select coalesce(max(number), 0)::int as last from sales',
    );
    const before = await counts();
    const stale = await sell(
      t.as.salesRep,
      {
        lines: [{ productId: cheese.id, quantity: 1 }],
        // Cash of the total the screen showed: without the check it would pass with 0.52 change.
        payment: { method: 'cash', tendered: 8.26 },
        total: 8.26,
      },
      { 'Idempotency-Key': `stale-${cheese.id}` },
    );
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      success: false,
      error:
        'The total is now $7.74, not $8.26 (prices or tax changed): check it with the customer and complete the sale again.',
      code: 'TOTAL_CHANGED',
      total: 7.74,
    });
    expect(await stockOf(cheese.id)).toBe(10);
    expect(await ledgerOf(cheese.id)).toBe(10);
    expect(await counts()).toEqual(before);

    const good = await sell(t.as.salesRep, {
      lines: [{ productId: cheese.id, quantity: 1 }],
      payment: { method: 'cash', tendered: 10 },
      total: 7.74,
    });
    expect(good.status).toBe(201);
    expect(parsed(good, SaleResponse).sale).toMatchObject({ total: 7.74, tax: 0.49, change: 2.26 });
    // The refusal drew no receipt number.
    expect(parsed(good, SaleResponse).sale.number).toBe(last + 1);
    expect(await stockOf(cheese.id)).toBe(9);
  });

  it('a stale total is refused before the payments are judged: cash of the old total is not taken with change', async () => {
    const reduced = await rate('Reduced', '5');
    await store({ pricesIncludeTax: true, rate: reduced });
    const soup = await t.product({ name: 'Soup', stock: 3, price: 4.36 });
    // The screen said 4.58 (4.36 + 5 %) and the cashier took exactly that.
    const res = await sell(t.as.salesRep, {
      lines: [{ productId: soup.id, quantity: 1 }],
      payments: [{ method: 'cash', amount: 4.58 }],
      total: 4.58,
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'TOTAL_CHANGED', total: 4.36 });
    expect(await stockOf(soup.id)).toBe(3);
    // Every refusal has its own code (decision 0041); only TOTAL_CHANGED names a total.
    const short = await sell(t.as.salesRep, {
      lines: [{ productId: soup.id, quantity: 4 }],
      payment: { method: 'card' },
    });
    expect(short.status).toBe(409);
    expect(parsed(short, ApiError).code).toBe('SHORT_AT_LOCATION');
    expect(short.body).not.toHaveProperty('total');
    const bad = await sell(t.as.salesRep, {
      lines: [{ productId: soup.id, quantity: 1 }],
      payment: { method: 'card' },
      total: 4.361,
    });
    expect(bad.status).toBe(400);
    expect(parsed(bad, ApiError).error).toBe('total: The total has at most 2 decimals.');
  });

  it('a catalogue order is taxed the same way (the same path)', async () => {
    const vat = await rate('VAT', '20');
    const bandage = await t.product({ name: 'Bandage', stock: 10, price: 10 });
    await taxed(bandage.id, vat);
    const res = await t.call('POST', '/api/order/add', {
      token: t.as.user.token,
      body: { productId: bandage.id, quantity: 2 },
    });
    expect(res.status).toBe(201);
    expect(parsed(res, OrderResponse).order).toMatchObject({
      totalPrice: 24,
      tax: 4,
      netTotal: 20,
      discount: 0,
      taxRate: { name: await rateNameOf(vat), rate: 20 },
    });
    const receipt = await t.call('GET', `/api/sales/${parsed(res, OrderResponse).order.sale?._id}`, {
      token: t.as.user.token,
    });
    expect(parsed(receipt, SaleResponse).sale).toMatchObject({ subtotal: 20, tax: 4, total: 24 });
  });

  it('a discount within the limit needs no approval, and a given one is not checked (no count, no refusal)', async () => {
    const admin = await approver();
    const pen = await t.product({ stock: 50, price: 10 });
    for (let i = 0; i < 6; i++) {
      const res = await sell(t.as.salesRep, {
        lines: [{ productId: pen.id, quantity: 1, discount: { type: 'percent', value: 10 } }],
        approval: { email: admin.email, pin: '0000' },
        payment: { method: 'card' },
      });
      expect(res.status).toBe(201);
    }
    // Six wrong PINs were never checked: the right one still passes (the PIN counter allows 5).
    const res = await sell(t.as.salesRep, {
      lines: [{ productId: pen.id, quantity: 1, discount: { type: 'percent', value: 50 } }],
      approval: { email: admin.email, pin: '4321' },
      payment: { method: 'card' },
    });
    expect(res.status).toBe(201);
  });

  it('above the limit a selling role needs an admin’s PIN: 403 without, 403 "That PIN is not right for <email>." for any approval that does not approve, 201 with, audited; admins are unlimited', async () => {
    const admin = await approver();
    const pen = await t.product({ stock: 50, price: 10 });
    const over = (approval?: unknown) =>
      sell(t.as.salesRep, {
        lines: [{ productId: pen.id, quantity: 2, discount: { type: 'amount', value: 2.01 } }],
        ...(approval ? { approval } : {}),
        payment: { method: 'card' },
      });
    const without = await over();
    expect(without.status).toBe(403);
    expect(parsed(without, ApiError).error).toBe("This discount needs a manager's approval.");
    // A deactivated admin approves nothing, PIN or not; nor does an admin who has set no PIN.
    const gone = await approver('5555');
    await t.sql('update users set active = false where id = $1', [gone.id]);
    const pinless = await t.account('admin');
    // Every approval that does not approve answers alike, so no one learns which emails are admins'.
    for (const approval of [
      { email: admin.email, pin: '9999' },
      { email: t.as.salesRep.email, pin: '4321' },
      { email: 'nobody@example.com', pin: '4321' },
      { email: gone.email, pin: '5555' },
      { email: pinless.email, pin: '4321' },
    ]) {
      const res = await over(approval);
      expect(res.status, approval.email).toBe(403);
      expect(parsed(res, ApiError).error).toBe(`That PIN is not right for ${approval.email}.`);
    }
    // A cart discount counts with the line's own (both together, per line).
    const cartOver = await sell(t.as.medicalRep, {
      lines: [{ productId: pen.id, quantity: 1, discount: { type: 'percent', value: 6 } }],
      discount: { type: 'percent', value: 5 },
      payment: { method: 'card' },
    });
    expect(cartOver.status).toBe(403);
    expect(await stockOf(pen.id)).toBe(50);
    const approved = await over({ email: admin.email.toUpperCase(), pin: '4321' });
    expect(approved.status).toBe(201);
    expect(parsed(approved, SaleResponse).sale.discount).toBe(2.01);
    const [entry] = await t.sql<{
      actor_id: string;
      entity_type: string;
      entity_id: string;
      changes: unknown;
    }>(
      `select actor_id, entity_type, entity_id, changes from audit_log where action = 'discountApproved' and entity_id = $1`,
      [parsed(approved, SaleResponse).sale._id],
    );
    expect(entry).toMatchObject({ actor_id: admin.id, entity_type: 'sale' });
    expect(JSON.stringify(entry?.changes)).toContain(admin.name);
    // An admin at the till gives what they like, without an approval.
    const mine = await sell(t.as.admin, {
      lines: [{ productId: pen.id, quantity: 1, discount: { type: 'percent', value: 100 } }],
      payment: { method: 'cash' },
    });
    expect(mine.status).toBe(201);
    expect(parsed(mine, SaleResponse).sale.total).toBe(0);
  });

  it('wrong PINs count on the approver’s own PIN counter, 5 in 15 minutes, then 429 even with the right one; never on their sign-in', async () => {
    const admin = await approver('12345678');
    const pen = await t.product({ stock: 50, price: 10 });
    const attempt = (pin: string, email = admin.email, seller = t.as.salesRep) =>
      sell(seller, {
        lines: [{ productId: pen.id, quantity: 1, discount: { type: 'percent', value: 20 } }],
        approval: { email, pin },
        payment: { method: 'card' },
      });
    // A right PIN is no failure: it takes its count back.
    expect((await attempt('12345678')).status).toBe(201);
    // Five wrong, from two sellers and however the email is typed: one counter, the approver's.
    for (let i = 0; i < 5; i++) {
      const res = await attempt(
        '1111',
        i % 2 ? admin.email.toUpperCase() : admin.email,
        i % 2 ? t.as.user : t.as.salesRep,
      );
      expect(res.status).toBe(403);
    }
    // The admin still signs in: wrong PINs never touch the sign-in throttle (3 per pair here).
    const login = await t.call('POST', '/api/auth/login', {
      body: { email: admin.email, password: PASSWORD },
    });
    expect(login.status, login.text).toBe(200);
    const throttled = await attempt('12345678');
    expect(throttled.status).toBe(429);
    expect(parsed(throttled, ApiError).error).toBe(
      `Too many wrong PINs for ${admin.email}; try again in 15 minutes.`,
    );
    expect(await stockOf(pen.id)).toBe(49);
    // Another approver's counter is their own.
    const other = await approver('2468');
    expect((await attempt('2468', other.email)).status).toBe(201);
  });

  it('overrideStock with approval records the missing units found by the approver, then sells; without it stays 409', async () => {
    const admin = await approver();
    const pen = await t.product({ name: 'Shelf pen', stock: 2, price: 4 });
    const without = await sell(t.as.salesRep, {
      lines: [{ productId: pen.id, quantity: 5, overrideStock: true }],
      payment: { method: 'card' },
    });
    expect(without.status).toBe(409);
    expect(parsed(without, ApiError).error).toBe('Not enough stock of Shelf pen at Main store: 2 left.');
    const wrong = await sell(t.as.salesRep, {
      lines: [{ productId: pen.id, quantity: 5, overrideStock: true }],
      approval: { email: admin.email, pin: '1111' },
      payment: { method: 'card' },
    });
    expect(wrong.status).toBe(403);
    expect(parsed(wrong, ApiError).error).toBe(`That PIN is not right for ${admin.email}.`);
    // Not asking to override: a 409, approval or not.
    const plain = await sell(t.as.salesRep, {
      lines: [{ productId: pen.id, quantity: 5 }],
      approval: { email: admin.email, pin: '4321' },
      payment: { method: 'card' },
    });
    expect(plain.status).toBe(409);
    expect(await stockOf(pen.id)).toBe(2);
    const res = await sell(t.as.salesRep, {
      lines: [{ productId: pen.id, quantity: 5, overrideStock: true }],
      approval: { email: admin.email, pin: '4321' },
      payment: { method: 'card' },
    });
    expect(res.status).toBe(201);
    const moves = await t.sql<{ kind: string; reason: string | null; quantity: number; user_id: string }>(
      `select kind, reason, quantity, user_id from stock_movements where product_id = $1 and kind <> 'initial'
       order by kind`,
      [pen.id],
    );
    expect(moves).toEqual([
      { kind: 'adjustment', reason: 'found', quantity: 3, user_id: admin.id },
      { kind: 'sale', reason: null, quantity: -5, user_id: t.as.salesRep.id },
    ]);
    expect(await stockOf(pen.id)).toBe(0);
    expect(await ledgerOf(pen.id)).toBe(0);
    const audited = await t.sql(
      `select 1 from audit_log where action = 'stockOverridden' and entity_id = $1`,
      [parsed(res, SaleResponse).sale._id],
    );
    expect(audited).toHaveLength(1);
    // An admin at the till vouches for the units themselves.
    const shelf = await t.product({ stock: 1 });
    const mine = await sell(t.as.admin, {
      lines: [{ productId: shelf.id, quantity: 3, overrideStock: true }],
      payment: { method: 'card' },
    });
    expect(mine.status).toBe(201);
    const [found] = await t.sql<{ quantity: number; user_id: string }>(
      `select quantity, user_id from stock_movements where product_id = $1 and reason = 'found'`,
      [shelf.id],
    );
    expect(found).toEqual({ quantity: 2, user_id: t.as.admin.id });
    expect([await stockOf(shelf.id), await ledgerOf(shelf.id)]).toEqual([0, 0]);
    // A line within its stock sells as usual with overrideStock: nothing found.
    const within = await sell(t.as.salesRep, {
      lines: [{ productId: (await t.product({ stock: 3 })).id, quantity: 1, overrideStock: true }],
      payment: { method: 'card' },
    });
    expect(within.status).toBe(201);
  });

  it('returns give back pro rata, cents exact: 29.00 over 3 units back as 9.67, 9.66, 9.67', async () => {
    const vat = await rate('VAT', '20');
    const pen = await t.product({ stock: 10, price: 10 });
    const res = await sell(t.as.salesRep, {
      lines: [{ productId: pen.id, quantity: 3, discount: { type: 'amount', value: 1 } }],
      payment: { method: 'card' },
    });
    expect(parsed(res, SaleResponse).sale.total).toBe(29);
    const orderId = nth(parsed(res, SaleResponse).sale.lines).order._id;
    const back = async () =>
      t.call('POST', `/api/order/${orderId}/return`, { token: t.as.admin.token, body: { quantity: 1 } });
    const given = [];
    for (let i = 0; i < 3; i++) {
      const r = await back();
      expect(r.status).toBe(200);
      given.push(parsed(r, ReturnResponse).refunded);
    }
    expect(given).toEqual([9.67, 9.66, 9.67]);
    const [order] = await t.sql<{ returned_total: string; status: string }>(
      'select returned_total::text, status from orders where id = $1',
      [orderId],
    );
    expect(order).toEqual({ returned_total: '29.00', status: 'returned' });
    expect((await back()).status).toBe(409);
    // The tax comes back by the same rule, and the sales list sums the money given back.
    const taxedPen = await t.product({ stock: 10, price: 3.33 });
    await taxed(taxedPen.id, vat);
    const sold = await sell(t.as.salesRep, {
      lines: [{ productId: taxedPen.id, quantity: 3 }],
      payment: { method: 'card' },
    });
    const line = nth(parsed(sold, SaleResponse).sale.lines);
    expect(line).toMatchObject({ total: 11.99, tax: 2 });
    const two = await t.call('POST', `/api/order/${line.order._id}/return`, {
      token: t.as.admin.token,
      body: { quantity: 2 },
    });
    expect(two.body).toMatchObject({ refunded: 7.99, order: { returnedQuantity: 2, returnedTotal: 7.99 } });
    const [taxBack] = await t.sql<{ returned_tax: string }>(
      'select returned_tax::text from orders where id = $1',
      [line.order._id],
    );
    expect(taxBack?.returned_tax).toBe('1.33');
    const list = await t.call('GET', `/api/sales?search=${parsed(sold, SaleResponse).sale.number}`, {
      token: t.as.admin.token,
    });
    expect(parsed(list, SaleListResponse).sales[0]).toMatchObject({
      returnedQuantity: 2,
      returnedTotal: 7.99,
    });
    const receipt = await t.call('GET', `/api/sales/${parsed(sold, SaleResponse).sale._id}`, {
      token: t.as.admin.token,
    });
    expect(nth(parsed(receipt, SaleResponse).sale.lines)).toMatchObject({
      returnedQuantity: 2,
      returnedTotal: 7.99,
    });
  });

  it('a sale from before this change shows the store as it is now, subtotal = total and no taxes', async () => {
    const pen = await t.product({ stock: 10, price: 2 });
    const res = await sell(t.as.salesRep, {
      lines: [{ productId: pen.id, quantity: 1 }],
      payment: { method: 'card' },
    });
    await t.sql(`update sales set store = null, subtotal = null where id = $1;`, [
      parsed(res, SaleResponse).sale._id,
    ]);
    await t.sql(`update orders set tax_rate_name = null, tax_rate = null where sale_id = $1`, [
      parsed(res, SaleResponse).sale._id,
    ]);
    const receipt = await t.call('GET', `/api/sales/${parsed(res, SaleResponse).sale._id}`, {
      token: t.as.salesRep.token,
    });
    expect(parsed(receipt, SaleResponse).sale).toMatchObject({
      subtotal: 2,
      discount: 0,
      tax: 0,
      total: 2,
      taxes: [],
    });
    expect(parsed(receipt, SaleResponse).sale.store).toMatchObject({
      name: 'Corner Shop',
      address: '1 High St',
    });
    await t.sql('delete from store_settings');
    const bare = await t.call('GET', `/api/sales/${parsed(res, SaleResponse).sale._id}`, {
      token: t.as.salesRep.token,
    });
    expect(parsed(bare, SaleResponse).sale.store).toEqual({
      name: 'Inventory MS',
      address: '',
      phone: '',
      taxNumber: '',
      receiptFooter: '',
      currency: 'USD',
      pricesIncludeTax: false,
    });
    // Without settings a sale still goes ahead, on the defaults (limit 10 %).
    const fresh = await sell(t.as.salesRep, {
      lines: [{ productId: pen.id, quantity: 1, discount: { type: 'percent', value: 10 } }],
      payment: { method: 'card' },
    });
    expect(fresh.status).toBe(201);
    expect(parsed(fresh, SaleResponse).sale.store.name).toBe('Inventory MS');
  });

  it('refuses bad discounts, approvals and tendered amounts with 400 and one sentence, taking nothing', async () => {
    const pen = await t.product({ stock: 10, price: 10 });
    const line = (discount: unknown) => ({ productId: pen.id, quantity: 1, discount });
    const bodies: unknown[] = [
      { lines: [line({ type: 'percent', value: 'NaN' })] },
      { lines: [line({ type: 'percent', value: -1 })] },
      { lines: [line({ type: 'percent', value: 101 })] },
      { lines: [line({ type: 'percent', value: 1e308 })] },
      { lines: [line({ type: 'amount', value: 1.001 })] },
      { lines: [line({ type: 'amount', value: '5' })] },
      { lines: [line({ type: 'amount', value: [5] })] },
      { lines: [line({ type: 'amount', value: 1e15 })] },
      { lines: [line({ type: 'free', value: 1 })] },
      { lines: [line('10%')] },
      { lines: [line([{ type: 'percent', value: 5 }])] },
      { lines: [line({ type: 'amount', value: 10.01 })] },
      { lines: [line(null)] },
      { lines: [line({ type: 'percent', value: 5 })], discount: { type: 'amount', value: 9.51 } },
      { lines: [line({ type: 'percent', value: 5 })], discount: { type: 'percent', value: Number.NaN } },
      { lines: [{ productId: pen.id, quantity: 1, overrideStock: 'yes' }] },
      { lines: [line({ type: 'percent', value: 5 }), line({ type: 'percent', value: 6 })] },
      { lines: [line({ type: 'percent', value: 50 })], approval: { email: 'a@b.c', pin: 'abcd' } },
      {
        lines: [line({ type: 'percent', value: 50 })],
        approval: { email: 'a@b.c', pin: '1'.repeat(10_000) },
      },
      { lines: [line({ type: 'percent', value: 50 })], approval: { email: 'a'.repeat(10_000), pin: '1234' } },
      { lines: [line({ type: 'percent', value: 50 })], approval: { email: 'a@b.c', pin: 1234 } },
      { lines: [line({ type: 'percent', value: 50 })], approval: { email: 'a@b.c', pin: '12\u00003' } },
      { lines: [line({ type: 'percent', value: 50 })], approval: ['a@b.c', '1234'] },
    ];
    for (const body of bodies) {
      const res = await sell(t.as.salesRep, { payment: { method: 'card' }, ...(body as object) });
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(parsed(res, ApiError).error).toMatch(/\w.*\.$/);
    }
    // Cash tendered must cover the discounted, taxed total.
    const vat = await rate('VAT', '20');
    await taxed(pen.id, vat);
    const short = await sell(t.as.salesRep, {
      lines: [line({ type: 'percent', value: 10 })],
      payment: { method: 'cash', tendered: 10.79 },
    });
    expect(short.status).toBe(400);
    expect(parsed(short, ApiError).error).toBe('Cash tendered is less than the total ($10.80).');
    const enough = await sell(t.as.salesRep, {
      lines: [line({ type: 'percent', value: 10 })],
      payment: { method: 'cash', tendered: 10.8 },
    });
    expect(enough.status).toBe(201);
    expect(parsed(enough, SaleResponse).sale.change).toBe(0);
    expect(await stockOf(pen.id)).toBe(9);
    // Lines of one product with agreeing discounts merge: amounts add up, the same percent stays.
    const merged = await sell(t.as.salesRep, {
      lines: [line({ type: 'amount', value: 0.5 }), line({ type: 'amount', value: 0.25 })],
      payment: { method: 'card' },
    });
    expect(merged.status).toBe(201);
    expect(parsed(merged, SaleResponse).sale.lines).toHaveLength(1);
    expect(nth(parsed(merged, SaleResponse).sale.lines)).toMatchObject({
      quantity: 2,
      gross: 20,
      discount: 0.75,
    });
  });

  it('PUT /api/users/me/pin: admins only, 4–8 digits, the current password, stored as argon2id, never answered', async () => {
    const admin = await t.account('admin');
    const put = (who: Account, body: unknown) =>
      t.call('PUT', '/api/users/me/pin', { token: who.token, body });
    for (const role of ['salesRep', 'user', 'medicalRep', 'superAdmin'] as const)
      expect((await put(t.as[role], { pin: '1234', currentPassword: PASSWORD })).status).toBe(403);
    expect((await put(admin, { pin: '1234', currentPassword: 'wrong password' })).status).toBe(403);
    for (const pin of [
      'abcd',
      '123',
      '123456789',
      1234,
      ['1234'],
      '1'.repeat(10_000),
      '12\u000034',
      ' 1234',
      null,
    ])
      expect((await put(admin, { pin, currentPassword: PASSWORD })).status, String(pin).slice(0, 20)).toBe(
        400,
      );
    expect((await put(admin, { pin: '1234' })).status).toBe(400);
    expect((await put(admin, { pin: '1234', currentPassword: 'x'.repeat(10_000) })).status).toBe(400);
    const res = await put(admin, { pin: '00001234', currentPassword: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/pin_?hash|argon/i);
    const [row] = await t.sql<{ pin_hash: string }>('select pin_hash from users where id = $1', [admin.id]);
    expect(row?.pin_hash).toMatch(/^\$argon2id\$/);
    const me = await t.call('GET', `/api/users/${admin.id}`, { token: admin.token });
    expect(me.text).not.toMatch(/pin/i);
    const audited = await t.sql<{ changes: unknown }>(
      `select changes from audit_log where action = 'pinChanged' and entity_id = $1`,
      [admin.id],
    );
    expect(audited).toHaveLength(1);
    expect(JSON.stringify(audited[0]?.changes)).not.toContain('1234');
  });

  it('racing approved sales above the limit never oversell: stock = Σ movements ≥ 0', async () => {
    const admin = await approver();
    const pen = await t.product({ stock: 5, price: 10 });
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        sell(t.as.salesRep, {
          lines: [{ productId: pen.id, quantity: 1, discount: { type: 'percent', value: 30 } }],
          approval: { email: admin.email, pin: '4321' },
          payment: { method: 'card' },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
    expect(await stockOf(pen.id)).toBe(0);
    expect(await ledgerOf(pen.id)).toBe(0);
  });
});
