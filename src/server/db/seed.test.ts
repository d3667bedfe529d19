import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BooksCheckResponse, ProfitAndLossResponse } from '../../shared/accounting';
import { LoginResponse } from '../../shared/auth';
import { BillListResponse, PayablesResponse, ReceivedNotBilledResponse } from '../../shared/bills';
import { ImportListResponse } from '../../shared/imports';
import { variantName } from '../../shared/items';
import { ProductListResponse } from '../../shared/products';
import { ItemReportResponse, ProductReportResponse } from '../../shared/reports';
import { ReviewListResponse, SaleListResponse, SaleResponse } from '../../shared/sales';
import { StockCheckResponse } from '../../shared/stock';
import { StocktakeLinesResponse, StocktakeListResponse, StocktakeResponse } from '../../shared/stocktakes';
import { StoreSettingsResponse, TaxRateListResponse } from '../../shared/store';
import { SessionResponse } from '../../shared/till';
import { nth } from '../test/fixtures';
import { parsed, startApp, type TestApp } from '../test/harness';
import { DEMO_PASSWORD, demoBarcode, seedDemo } from './seed';
import { DEMO_NEW_LINES, DEMO_PRICE_LIST } from './seed-imports';
import { seedOfflineSales } from './seed-offline';

/** The demo store's counter sales and customers add up like real ones (DESIGN §11). */
describe('the demo store', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ name: 'pglite' });
    await seedDemo(t.app.database);
    // As `npm run demo` does: the counter's offline sales, sent through the app (DESIGN §21).
    const account = (email: string) => ({ email, password: DEMO_PASSWORD });
    await seedOfflineSales(t.app, account('sales@demo.local'), account('admin@demo.local'));
  });

  it('has sales a counter made offline: one as sold, the others for review (stock found, a price it never had, a closed session), one reviewed with a note', async () => {
    const admin = await t.call('POST', '/api/auth/login', {
      body: { email: 'admin@demo.local', password: DEMO_PASSWORD },
    });
    const token = parsed(admin, LoginResponse).token;
    const open = parsed(await t.call('GET', '/api/sales/review?status=open', { token }), ReviewListResponse);
    const closed = parsed(
      await t.call('GET', '/api/sales/review?status=closed', { token }),
      ReviewListResponse,
    );
    expect(open.sales.map((sale) => sale.review).sort()).toEqual([['session'], ['stock']]);
    expect(closed.sales.map((sale) => [sale.review, sale.note])).toEqual([
      [['price'], 'Shelf label was last week’s promotion price; label replaced, difference accepted.'],
    ]);
    for (const sale of [...open.sales, ...closed.sales])
      expect(sale.deviceNumber).toMatch(/^T1-K7Q2-0000\d\d$/);
    // The four are found by their device numbers, and the one recorded as sold is not for review.
    const found = parsed(
      await t.call('GET', '/api/sales?search=T1-K7Q2-000041', { token }),
      SaleListResponse,
    );
    expect(found.sales.map((sale) => sale.offline?.review)).toEqual([[]]);
  });
  afterAll(() => t?.close());

  it('keeps ninety days of books that check out against the shop (DESIGN §19)', async () => {
    const admin = await t.call('POST', '/api/auth/login', {
      body: { email: 'admin@demo.local', password: DEMO_PASSWORD },
    });
    const token = parsed(admin, LoginResponse).token;
    const check = parsed(await t.call('GET', '/api/accounting/check', { token }), BooksCheckResponse);
    expect(check.checks.filter((c) => !c.ok)).toEqual([]);
    // Every sale and movement with a value is posted, dated on its own day over the ninety.
    const [posted] = await t.sql<{ unposted: number; days: number; kinds: string[] }>(
      `select (select count(*)::int from sales s where not exists (
                 select 1 from journal_entries e where e.source_kind = 'sale' and e.source_id = s.id))
            + (select count(*)::int from stock_movements m where m.value <> 0 and not exists (
                 select 1 from journal_movements j where j.movement_id = m.id)) as unposted,
              (select count(distinct date)::int from journal_entries) as days,
              (select array_agg(distinct source_kind order by source_kind) from journal_entries) as kinds`,
    );
    expect(posted?.unposted).toBe(0);
    expect(posted?.days).toBeGreaterThan(60);
    expect(posted?.kinds).toEqual(
      expect.arrayContaining([
        'cash',
        'credit',
        'movement',
        'receipt',
        'refund',
        'return',
        'sale',
        'sessionClose',
        'transfer',
      ]),
    );
    const from = new Date(Date.now() - 95 * 86_400_000).toISOString().slice(0, 10);
    const pl = parsed(
      await t.call('GET', `/api/accounting/profit-and-loss?from=${from}`, { token }),
      ProfitAndLossResponse,
    );
    expect(pl.netSales).toBeGreaterThan(1000);
    expect(pl.grossProfit).toBeLessThan(pl.netSales);
    expect(pl.months.length).toBeGreaterThanOrEqual(3);
  });

  it('has customers, and counter sales of several lines, each whole and adding up', async () => {
    const [counts] = await t.sql<{ customers: number; sales: number; multi: number; with_customer: number }>(
      `select (select count(*)::int from customers) as customers,
              (select count(*)::int from sales) as sales,
              (select count(*)::int from sales s where (select count(*) from orders o where o.sale_id = s.id) > 1) as multi,
              (select count(*)::int from sales where customer_id is not null) as with_customer`,
    );
    expect(counts?.customers).toBe(40);
    expect(counts?.sales).toBeGreaterThan(200);
    expect(counts?.multi).toBeGreaterThan(50);
    expect(counts?.with_customer).toBeGreaterThan(100);
    // Each sale's total is its lines' as sold; cash covers it; its lines are numbered 1…n and carry
    // the sale's number, time and customer.
    const wrong = await t.sql(
      `select s.id from sales s join orders o on o.sale_id = s.id
       group by s.id
       having s.total <> sum(o.total_price) or max(o.sale_line) <> count(*) or min(o.sale_line) <> 1
           or bool_or(o.sale_number <> s.number or o.order_date <> s.created_at
                      or o.customer_id is distinct from s.customer_id or o.customer_name is distinct from s.customer_name)
           or (s.payment_method = 'cash' and s.tendered < s.total)`,
    );
    expect(wrong).toEqual([]);
    // Numbers follow the sales' times, and the next sale at the counter continues after them. A
    // sale made offline is numbered when it arrives and dated when it was sold (DESIGN §21): the
    // demo's come after the rest.
    const numbers = await t.sql<{ number: string; offline: boolean }>(
      `select number::text, offline_id is not null as offline from sales
        order by offline_id is not null, case when offline_id is null then created_at end, number`,
    );
    const inOrder = numbers.map((row) => Number(row.number));
    expect(inOrder).toEqual(inOrder.map((_, i) => i + 1));
    expect(numbers.filter((row) => row.offline)).toHaveLength(4);
    const product = (await t.sql<{ id: string }>('select id from products where stock > 0 limit 1'))[0]?.id;
    const sale = await t.call('POST', '/api/sales', {
      token: t.as.user.token,
      body: { lines: [{ productId: product, quantity: 1 }], payment: { method: 'card' } },
    });
    expect(parsed(sale, SaleResponse).sale.number).toBe(inOrder.length + 1);
  });

  it('has a till worked for four days and open today, with split payments, refunds and store credit (DESIGN §13)', async () => {
    const sessions = await t.sql<{ status: string; difference: string | null; sales: number }>(
      `select s.status, (s.counted_cash - s.expected_cash)::text as difference,
              (select count(*)::int from sales x where x.session_id = s.id) as sales
       from register_sessions s order by s.opened_at`,
    );
    expect(sessions.map((s) => s.status)).toEqual(['closed', 'closed', 'closed', 'closed', 'open']);
    expect(sessions.map((s) => s.difference)).toEqual(['-0.50', '0.00', '1.00', '-2.35', null]);
    expect(sessions.reduce((sum, s) => sum + s.sales, 0)).toBeGreaterThan(5);
    // The Z reports the API gives agree with what each close stored.
    const closed = await t.sql<{ id: string; expected: string; counted: string }>(
      `select id, expected_cash::text as expected, counted_cash::text as counted from register_sessions
       where status = 'closed'`,
    );
    for (const session of closed) {
      const answer = await t.call('GET', `/api/register-sessions/${session.id}`, { token: t.as.admin.token });
      expect(answer.status).toBe(200);
      expect(parsed(answer, SessionResponse).report.expectedCash).toBe(Number(session.expected));
      expect(parsed(answer, SessionResponse).report.countedCash).toBe(Number(session.counted));
    }
    // Every sale's payments add up to its total; cash gives the change it records.
    const unpaid = await t.sql(
      `select s.id from sales s join sale_payments p on p.sale_id = s.id group by s.id
       having sum(p.amount) <> s.total
           or coalesce(sum(p.tendered), 0) - coalesce(sum(p.amount) filter (where p.method = 'cash'), 0)
              <> coalesce(s.change, 0)`,
    );
    expect(unpaid).toEqual([]);
    const [{ unpaidSales } = { unpaidSales: -1 }] = await t.sql<{ unpaidSales: number }>(
      `select count(*)::int as "unpaidSales" from sales s where not exists (select 1 from sale_payments p where p.sale_id = s.id)`,
    );
    expect(unpaidSales).toBe(0);
    const splits = await t.sql(`select id from sales where payment_method = 'split'`);
    expect(splits.length).toBeGreaterThanOrEqual(2);
    const refunds = await t.sql<{ method: string }>('select method from refunds order by method');
    expect(refunds.map((r) => r.method)).toEqual(['card', 'cash', 'storeCredit']);
    // Refunds gave back what their orders say, and stock is still the sum of its movements.
    const [check] = await t.sql<{ refunded: string; returned: string; drift: number; credit: number }>(
      `select (select sum(amount)::text from refund_lines) as refunded,
              (select sum(o.returned_total)::text from orders o where o.id in (select order_id from refund_lines)) as returned,
              (select count(*)::int from products p
               where p.stock <> (select coalesce(sum(quantity), 0) from stock_movements m where m.product_id = p.id)) as drift,
              (select count(*)::int from customers c
               where c.credit_balance <> (select coalesce(sum(amount), 0) from store_credit_entries e where e.customer_id = c.id)) as credit`,
    );
    expect(check?.refunded).toBe(check?.returned);
    expect(check?.drift).toBe(0);
    expect(check?.credit).toBe(0);
    const [credit] = await t.sql<{ holders: number }>(
      'select count(*)::int as holders from customers where credit_balance > 0',
    );
    expect(credit?.holders).toBeGreaterThanOrEqual(2);
  });

  it('has a stockroom and a second shop stocked by transfers, a transfer in every state, and every ledger whole (DESIGN §17)', async () => {
    const places = await t.sql<{ name: string; kind: string; units: number; products: number }>(
      `select l.name, l.kind, coalesce(sum(s.stock), 0)::int as units, count(*) filter (where s.stock > 0)::int as products
       from locations l left join location_stock s on s.location_id = l.id group by l.id order by l.name`,
    );
    // By name: the two made by the seed may share a created_at to the millisecond.
    expect(places.map((p) => [p.name, p.kind])).toEqual([
      ['Brooklyn shop', 'store'],
      ['Main store', 'store'],
      ['Stockroom', 'stockroom'],
    ]);
    for (const place of places) expect(place.products, place.name).toBeGreaterThan(10);
    const statuses = await t.sql<{ status: string }>('select distinct status from transfers order by status');
    expect(statuses.map((s) => s.status)).toEqual([
      'cancelled',
      'closed',
      'draft',
      'inTransit',
      'partiallyReceived',
      'received',
    ]);
    const [lost] = await t.sql<{ lost: number }>('select sum(lost)::int as lost from transfer_lines');
    expect(lost?.lost).toBeGreaterThan(0);
    const [till] = await t.sql<{ name: string }>(
      `select r.name from registers r join locations l on l.id = r.location_id where l.name = 'Brooklyn shop'`,
    );
    expect(till?.name).toBe('Brooklyn till');
    const check = await t.call('GET', '/api/stock/check', { token: t.as.admin.token });
    expect(parsed(check, StockCheckResponse).mismatches).toEqual([]);
  });

  it('gives every product a SKU and a valid EAN-13 barcode', async () => {
    const rows = await t.sql<{ sku: string | null; barcode: string | null }>(
      'select sku, barcode from products',
    );
    expect(rows.length).toBeGreaterThanOrEqual(300);
    for (const { sku, barcode } of rows) {
      expect(sku).toMatch(/^[A-Z]{3}-\d{4}$/);
      expect(barcode).toMatch(/^20\d{11}$/);
      const digits = [...(barcode as string)].map(Number);
      const sum = digits.reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 1 : 3), 0);
      expect(sum % 10).toBe(0);
    }
    expect(demoBarcode(1)).toBe('2000000000015');
  });

  it('has tax rates, a store pricing without tax at the standard default, and products on the reduced and zero rates', async () => {
    const store = await t.call('GET', '/api/settings/store', { token: t.as.user.token });
    expect(parsed(store, StoreSettingsResponse).store).toMatchObject({
      name: 'Inventory MS',
      currency: 'USD',
      pricesIncludeTax: false,
      defaultTaxRate: { name: 'Standard 8.875%', rate: 8.875 },
      maxDiscountPercent: 10,
    });
    expect(parsed(store, StoreSettingsResponse).store.address).not.toBe('');
    expect(parsed(store, StoreSettingsResponse).store.taxNumber).not.toBe('');
    expect(parsed(store, StoreSettingsResponse).store.receiptFooter).not.toBe('');
    const rates = await t.call('GET', '/api/tax-rates', { token: t.as.user.token });
    expect(parsed(rates, TaxRateListResponse).taxRates.map((rate) => rate.name)).toEqual([
      'Reduced 5%',
      'Standard 8.875%',
      'Zero 0%',
    ]);
    const products = await t.call('GET', '/api/products', { token: t.as.user.token });
    const inForce = new Set(parsed(products, ProductListResponse).products.map((p) => p.taxRate?.name));
    expect(inForce).toEqual(new Set(['Reduced 5%', 'Standard 8.875%', 'Zero 0%']));
  });

  it('owes its suppliers: bills paid, part paid and overdue, one with freight, a draft, a deposit not allocated (DESIGN §20)', async () => {
    const admin = await t.call('POST', '/api/auth/login', {
      body: { email: 'admin@demo.local', password: DEMO_PASSWORD },
    });
    const token = parsed(admin, LoginResponse).token;
    const list = parsed(await t.call('GET', '/api/bills', { token }), BillListResponse).bills;
    const statuses = list.map((bill) => bill.status);
    for (const status of ['paid', 'partiallyPaid', 'posted', 'draft'] as const)
      expect(statuses).toContain(status);
    expect(list.filter((bill) => bill.overdueDays > 0).length).toBeGreaterThanOrEqual(2);
    expect(list[0]?.overdueDays, 'overdue first').toBeGreaterThan(0);
    expect(list.some((bill) => bill.lines.some((line) => line.account.code === '6900'))).toBe(true);
    const aging = parsed(await t.call('GET', '/api/accounting/payables', { token }), PayablesResponse);
    expect(aging.totals.days31to60).toBeGreaterThan(0);
    expect(aging.totals.unallocated).toBeGreaterThan(0);
    const notBilled = parsed(
      await t.call('GET', '/api/accounting/received-not-billed', { token }),
      ReceivedNotBilledResponse,
    );
    expect(notBilled.lines.length).toBeGreaterThan(0);
    const [variance] = await t.sql<{ n: number }>(
      "select count(*)::int as n from journal_lines l join accounts a on a.id = l.account_id where a.code = '5200'",
    );
    expect(variance?.n).toBeGreaterThan(0);
  });

  it('has an applied import of a price list and a checked one waiting, written by the import itself (DESIGN §14)', async () => {
    const [admin] = await t.sql<{ id: string }>(`select id from users where email = 'admin@demo.local'`);
    const login = await t.call('POST', '/api/auth/login', {
      body: { email: 'admin@demo.local', password: DEMO_PASSWORD },
    });
    const token = LoginResponse.safeParse(login.body).data?.token ?? t.as.admin.token;
    const list = await t.call('GET', '/api/imports', { token });
    expect(list.status).toBe(200);
    expect(parsed(list, ImportListResponse).imports.map((i) => [i.fileName, i.status])).toEqual([
      // Newest first: the price list was applied as the demo opened, the spring lines wait since yesterday.
      [DEMO_PRICE_LIST, 'applied'],
      [DEMO_NEW_LINES, 'checked'],
    ]);
    const { imports } = parsed(list, ImportListResponse);
    const priceList = nth(imports, 0);
    const spring = nth(imports, 1);
    expect(spring).toMatchObject({ rows: 12, summary: { create: 12, update: 0, unchanged: 0, errors: 0 } });
    expect(priceList).toMatchObject({
      rows: 47,
      processed: 47,
      createdBy: { _id: admin?.id, name: 'Alex Admin' },
      summary: { create: 5, update: 40, unchanged: 0, errors: 2 },
    });
    // In order: uploaded, checked, applied.
    expect(
      priceList.createdAt <= (priceList.checkedAt ?? '') &&
        (priceList.checkedAt ?? '') <= (priceList.appliedAt ?? ''),
    ).toBe(true);

    // The summary is its rows' results; the two errors are the price and the missing category.
    const results = await t.sql<{ result: string; n: number }>(
      'select result, count(*)::int as n from import_rows where import_id = $1 group by result order by result',
      [priceList._id],
    );
    const of = (result: string) => results.find((r) => r.result === result)?.n ?? 0;
    expect({
      create: of('create'),
      update: of('update'),
      unchanged: of('unchanged'),
      errors: of('error'),
    }).toEqual({
      create: priceList.summary?.create,
      update: priceList.summary?.update,
      unchanged: priceList.summary?.unchanged,
      errors: priceList.summary?.errors,
    });
    const errors = await t.call('GET', `/api/imports/${priceList._id}/errors?format=csv`, { token });
    expect(errors.text).toContain('n/a');
    expect(errors.text).toContain('Pet Care');

    // Its products: created or repriced, their stock the sum of their movements, deliveries noted.
    const touched = await t.sql<{ id: string; stock: number; moved: number }>(
      `select p.id, p.stock, (select coalesce(sum(m.quantity), 0)::int from stock_movements m where m.product_id = p.id) as moved
         from products p where p.id in (select product_id from import_rows where import_id = $1 and result in ('create', 'update'))`,
      [priceList._id],
    );
    expect(touched).toHaveLength(45);
    expect(touched.filter((p) => p.stock !== p.moved)).toEqual([]);
    const noted = await t.sql<{ kind: string; n: number }>(
      'select kind, count(*)::int as n from stock_movements where note = $1 group by kind order by kind',
      [`import ${DEMO_PRICE_LIST}`],
    );
    expect(noted).toEqual([
      { kind: 'adjustment', n: 10 },
      { kind: 'initial', n: 5 },
    ]);
    const audit = await t.sql<{ n: number }>(
      `select count(*)::int as n from audit_log where entity_type = 'import' and entity_id = $1 and action = 'imported'`,
      [priceList._id],
    );
    expect(audit[0]?.n).toBe(1);
  });

  it('sells prescription medicines by lot: some expiring soon, one expired on the shelf, one written off, every lot whole', async () => {
    const lots = await t.sql<{
      number: string;
      quantity: number;
      state: string;
      ledger: number;
      customers: number;
    }>(
      `select l.number, l.quantity,
              case when l.expires_on < (now() at time zone (select time_zone from report_settings))::date then 'expired'
                   when l.expires_on <= (now() at time zone (select time_zone from report_settings))::date + 30 then 'soon'
                   else 'ok' end as state,
              (select coalesce(sum(m.quantity), 0)::int from stock_movements m where m.lot_id = l.id) as ledger,
              (select count(distinct o.customer_id)::int from stock_movements m join orders o on o.id = m.order_id
               where m.lot_id = l.id) as customers
       from lots l join products p on p.id = l.product_id
       where p.tracking = 'lot' order by l.number`,
    );
    expect(lots.length).toBeGreaterThanOrEqual(10);
    for (const lot of lots) expect(lot.quantity).toBe(lot.ledger);
    const soon = lots.filter((lot) => lot.state === 'soon' && lot.quantity > 0);
    expect(soon.length).toBeGreaterThanOrEqual(2);
    expect(lots.find((lot) => lot.number === 'AMX2403A')).toMatchObject({ state: 'expired' });
    expect(lots.find((lot) => lot.number === 'AMX2403A')?.quantity).toBeGreaterThan(0);
    expect(lots.find((lot) => lot.number === 'OMP2311')).toMatchObject({ state: 'expired', quantity: 0 });
    // Lots reached customers (the recall trace has names to give).
    expect(lots.filter((lot) => lot.customers > 0).length).toBeGreaterThanOrEqual(5);
    const [products] = await t.sql<{ bad: number; tracked: number }>(
      `select count(*) filter (where p.stock <> (select coalesce(sum(quantity), 0) from lots where product_id = p.id)
                                  or p.stock <> (select coalesce(sum(quantity), 0) from stock_movements where product_id = p.id))::int as bad,
              count(*)::int as tracked
       from products p where p.tracking = 'lot'`,
    );
    expect(products).toEqual({ bad: 0, tracked: 8 });
  });

  it('has items with sizes and colours, each variant a product named by variantName, its stock its movements, sold in the report range (DESIGN §22)', async () => {
    const items = await t.sql<{
      id: string;
      name: string;
      options: Array<{ name: string; values: string[] }>;
    }>('select id, name, options from items order by name');
    expect(items.map((item) => item.name)).toEqual([
      'CeraVe Moisturising Lotion',
      'Classic Crew T-Shirt',
      'Trail Runner Shoe',
    ]);
    const variants = await t.sql<{
      id: string;
      name: string;
      item_id: string;
      option_values: Record<string, string>;
      barcode: string;
      brand: string | null;
      active: boolean;
      stock: number;
      moved: number;
      initial: number;
    }>(
      `select p.id, p.name, p.item_id, p.option_values, p.barcode, p.brand, p.active, p.stock,
              (select coalesce(sum(m.quantity), 0)::int from stock_movements m where m.product_id = p.id) as moved,
              (select count(*)::int from stock_movements m
                where m.product_id = p.id and m.kind = 'initial' and m.location_id = default_location()) as initial
       from products p where p.item_id is not null order by p.name`,
    );
    const shirt = items.find((item) => item.name === 'Classic Crew T-Shirt');
    expect(shirt?.options.map((option) => option.name)).toEqual(['Size', 'Colour']);
    for (const item of items) {
      const own = variants.filter((variant) => variant.item_id === item.id);
      expect(own.length, item.name).toBeGreaterThanOrEqual(3);
      for (const variant of own) {
        expect(variant.name).toBe(variantName(item.name, item.options, variant.option_values));
        expect(variant.brand, variant.name).not.toBeNull();
        expect(variant.stock, variant.name).toBe(variant.moved);
        expect(variant.initial, variant.name).toBe(1);
      }
    }
    // Two options, one combination never stocked; the lotion's three bottles each with a barcode.
    expect(variants.filter((variant) => variant.item_id === shirt?.id)).toHaveLength(5);
    expect(variants.map((variant) => variant.name)).not.toContain('Classic Crew T-Shirt — L / White');
    expect(
      variants.filter((variant) => variant.name.startsWith('CeraVe')).map((variant) => variant.name),
    ).toEqual([
      'CeraVe Moisturising Lotion — 12 oz',
      'CeraVe Moisturising Lotion — 16 oz',
      'CeraVe Moisturising Lotion — 8 oz',
    ]);
    expect(variants.filter((variant) => variant.name.startsWith('Trail Runner Shoe'))).toHaveLength(8);
    expect(variants.filter((variant) => !variant.active).map((variant) => variant.name)).toEqual([
      'Trail Runner Shoe — 45',
    ]);
    const [branded] = await t.sql<{ n: number }>(
      'select count(*)::int as n from products where item_id is null and brand is not null',
    );
    expect(branded?.n).toBeGreaterThan(10);

    // The reports' default range (the last 30 days) sells every item, several variants of each.
    const report = await t.call('GET', '/api/reports/items?limit=100', { token: t.as.admin.token });
    const lines = parsed(report, ItemReportResponse).items.filter((line) => line.item);
    expect(lines.map((line) => line.item?.name).sort()).toEqual(items.map((item) => item.name));
    for (const line of lines) expect(line.variants, line.item?.name).toBeGreaterThanOrEqual(2);
    const products = await t.call('GET', '/api/reports/products?limit=100', { token: t.as.admin.token });
    expect(parsed(products, ProductReportResponse).products.some((line) => line.item !== null)).toBe(true);
  });

  it('has a dispensary count posted at the Main store with a small shrinkage, and the Brooklyn shop counting (DESIGN §18)', async () => {
    const list = await t.call('GET', '/api/stocktakes', { token: t.as.admin.token });
    expect(list.status, list.text).toBe(200);
    const { stocktakes } = parsed(list, StocktakeListResponse);
    // Newest first.
    expect(stocktakes.map((s) => [s.number, s.status, s.location.name])).toEqual([
      ['ST-000002', 'counting', 'Brooklyn shop'],
      ['ST-000001', 'posted', 'Main store'],
    ]);
    const [counting, posted] = [nth(stocktakes, 0), nth(stocktakes, 1)];
    expect(posted).toMatchObject({
      scope: { categories: [{ name: 'Prescription Medicines' }], products: [] },
      createdBy: { name: 'Alex Admin' },
      postedBy: { name: 'Alex Admin' },
      uncounted: 'keep',
    });

    // Every lot counted; three short by a box or two, one over; the shrinkage small, at cost.
    const review = parsed(
      await t.call('GET', `/api/stocktakes/${posted._id}`, { token: t.as.admin.token }),
      StocktakeResponse,
    ).stocktake;
    expect(review.summary).toMatchObject({ uncounted: 0, unitsShort: 4, unitsOver: 1 });
    expect(review.summary?.counted).toBe(posted.lines);
    expect(review.summary?.net).toBeLessThan(0);
    expect(review.summary?.net).toBeGreaterThan(-25);
    const lines = parsed(
      await t.call('GET', `/api/stocktakes/${posted._id}/lines?pageSize=100`, { token: t.as.admin.token }),
      StocktakeLinesResponse,
    ).lines;
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) {
      expect(line.lot, line.product.name).toBeDefined();
      expect(line.countedBy?.name).toBe('Morgan Medical');
      expect(line.posted).toBe((line.counted ?? 0) - (line.expectedAtCount ?? 0));
    }
    expect(lines.map((line) => line.posted).sort()).toEqual(
      [...Array(lines.length - 4).fill(0), -1, -1, -2, 1].sort(),
    );
    // Its count movements: one a line, each naming it, as the lines say; one audit entry.
    const movements = await t.sql<{ lot_id: string; quantity: number; kind: string; location: string }>(
      `select m.lot_id, m.quantity, m.kind, l.name as location from stock_movements m
         join locations l on l.id = m.location_id where m.stocktake_id = $1`,
      [posted._id],
    );
    expect(movements).toHaveLength(lines.length);
    for (const line of lines)
      expect(movements.find((m) => m.lot_id === line.lot?._id)).toEqual({
        lot_id: line.lot?._id,
        quantity: line.posted,
        kind: 'count',
        location: 'Main store',
      });
    const [audit] = await t.sql<{ n: number }>(
      `select count(*)::int as n from audit_log where entity_type = 'stocktake' and entity_id = $1 and action = 'posted'`,
      [posted._id],
    );
    expect(audit?.n).toBe(1);
    // The scanned lot kept a row per scan.
    const [scans] = await t.sql<{ n: number }>(
      `select count(*)::int as n from stocktake_counts c join stocktake_lines l on l.id = c.line_id
        where l.stocktake_id = $1 and c.mode = 'add' and c.quantity = 1`,
      [posted._id],
    );
    expect(scans?.n).toBeGreaterThan(3);

    // Brooklyn: about half its lines counted so far, by two of the staff; the rest still to count.
    const open = parsed(
      await t.call('GET', `/api/stocktakes/${counting._id}`, { token: t.as.admin.token }),
      StocktakeResponse,
    ).stocktake;
    expect(open.summary?.lines).toBe(counting.lines);
    expect(open.summary?.counted).toBeGreaterThan(counting.lines * 0.35);
    expect(open.summary?.uncounted).toBeGreaterThan(counting.lines * 0.35);
    expect(open.summary?.unitsShort).toBe(3);
    const countedBy = await t.sql<{ name: string }>(
      `select distinct counted_by_name as name from stocktake_lines where stocktake_id = $1 and counted is not null
        order by 1`,
      [counting._id],
    );
    expect(countedBy.map((c) => c.name)).toEqual(['Eddie Employee', 'Sally Sales']);
    const [moved] = await t.sql<{ n: number }>(
      'select count(*)::int as n from stock_movements where stocktake_id = $1',
      [counting._id],
    );
    expect(moved?.n).toBe(0);
    const check = await t.call('GET', '/api/stock/check', { token: t.as.admin.token });
    expect(parsed(check, StockCheckResponse).mismatches).toEqual([]);
  });
});
