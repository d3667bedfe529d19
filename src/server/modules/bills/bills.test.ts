import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BooksCheckResponse, JournalEntryResponse, TrialBalanceResponse } from '../../../shared/accounting';
import {
  BillListResponse,
  BillResponse,
  PayablesResponse,
  ReceivedNotBilledResponse,
  SupplierPaymentResponse,
  TaxReturnResponse,
} from '../../../shared/bills';
import { ApiError } from '../../../shared/common';
import { toCents } from '../../../shared/money';
import { PurchaseOrderResponse } from '../../../shared/purchasing';
import { SessionResponse } from '../../../shared/till';
import { fixtures, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';

/**
 * DESIGN §20: bills from received purchase order lines (never more than received − billed, also
 * racing), freight on an account, the price difference to 5200, tax per line; draft, post, void;
 * payments by bank or cash from a till with allocations and credit allocated later; what is owed
 * (= 2000), received not billed (= 2100), the tax return (= the change of 2200 − 1400); and the
 * books check after all of it.
 */
describe.each(targets)('bills and payments on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());
  const { sold, taxRate } = fixtures(() => t);
  const admin = () => t.as.admin.token;
  const get = (url: string) => t.call('GET', url, { token: admin() });
  const post = (url: string, body?: unknown) => t.call('POST', url, { token: admin(), body });
  const put = (url: string, body?: unknown) => t.call('PUT', url, { token: admin(), body });
  const today = async () =>
    (await t.sql<{ day: string }>('select store_today()::text as day'))[0]?.day as string;
  const daysAgo = async (n: number) =>
    (await t.sql<{ day: string }>('select (store_today() - $1::int)::text as day', [n]))[0]?.day as string;
  const account = async (code: string) =>
    (await t.sql<{ id: string }>('select id from accounts where code = $1', [code]))[0]?.id as string;
  const balance = async (code: string) =>
    toCents(
      (
        await t.sql<{ b: string }>(
          `select coalesce(sum(l.debit - l.credit), 0)::text as b from journal_lines l
             join accounts a on a.id = l.account_id where a.code = $1`,
          [code],
        )
      )[0]?.b ?? '0',
    );
  const booksOk = async () => {
    const check = parsed(await get('/api/accounting/check'), BooksCheckResponse);
    expect(
      check.checks.filter((c) => !c.ok),
      'every check of the books holds',
    ).toEqual([]);
  };

  /** A purchase order of `units` at `cost`, ordered and received whole; its id and line. */
  async function received(units: number, cost: number, supplier?: string) {
    const product = await t.product({ stock: 0, price: 9, cost });
    const po = await post('/api/purchase-orders', {
      supplier: supplier ?? product.supplierId,
      lines: [{ product: product.id, quantity: units, unitCost: cost }],
    });
    expect(po.status, po.text).toBe(201);
    const order = parsed(po, PurchaseOrderResponse).purchaseOrder;
    expect((await post(`/api/purchase-orders/${order._id}/order`)).status).toBe(200);
    const got = await post(`/api/purchase-orders/${order._id}/receive`, {
      lines: [{ line: order.lines[0]?._id, quantity: units }],
    });
    expect(got.status, got.text).toBe(200);
    return { po: order._id, line: order.lines[0]?._id as string, supplier: supplier ?? product.supplierId };
  }

  it('bills received goods at a higher price with tax and freight: 2100 at cost, 5200 the difference, 1400 the tax, 2000 the total', async () => {
    const goods = await received(4, 2.75);
    const rate = await taxRate({ name: `Input ${tag()}`, rate: 10 });
    const freight = await account('6900');
    const day = await today();
    const made = await post('/api/bills', {
      supplier: goods.supplier,
      reference: `INV-${tag()}`,
      date: day,
      lines: [
        { purchaseOrderLine: goods.line, quantity: 4, unitPrice: 2.9, taxRate: rate._id },
        { description: 'Freight', quantity: 1, unitPrice: 5, account: freight },
      ],
    });
    expect(made.status, made.text).toBe(201);
    const draft = parsed(made, BillResponse).bill;
    expect(draft).toMatchObject({ status: 'draft', net: 16.6, tax: 1.16, total: 17.76, paid: 0, open: 0 });
    expect(draft.number).toMatch(/^BL-\d{6}$/);
    expect(draft.lines[0]).toMatchObject({ net: 11.6, tax: 1.16, account: { code: '2100' } });
    expect(draft.lines[0]?.purchaseOrderLine?.unitCost).toBe(2.75);
    // A draft changes nothing of the books or the purchase order.
    expect(await balance('2000')).toBe(0n);
    const before = { rnb: await balance('2100'), ppv: await balance('5200') };

    const posted = parsed(await post(`/api/bills/${draft._id}/post`), BillResponse).bill;
    expect(posted).toMatchObject({ status: 'posted', open: 17.76 });
    const entry = parsed(
      await get(`/api/accounting/journal/${posted.entry?._id}`),
      JournalEntryResponse,
    ).entry;
    expect(entry).toMatchObject({
      date: day,
      source: { kind: 'bill', _id: draft._id, number: draft.number },
    });
    const side = (code: string) =>
      entry.lines.filter((l) => l.account.code === code).map((l) => [l.debit, l.credit, l.supplier?._id]);
    expect(side('2100')).toEqual([[11, 0, goods.supplier]]);
    expect(side('5200')).toEqual([[0.6, 0, goods.supplier]]);
    expect(side('6900')).toEqual([[5, 0, goods.supplier]]);
    expect(side('1400')).toEqual([[1.16, 0, goods.supplier]]);
    expect(side('2000')).toEqual([[0, 17.76, goods.supplier]]);
    expect(entry.lines.find((l) => l.account.code === '1400')?.taxRate).toBe(rate.name);
    expect((await balance('2100')) - before.rnb).toBe(1100n);
    expect((await balance('5200')) - before.ppv).toBe(60n);

    const order = parsed(await get(`/api/purchase-orders/${goods.po}`), PurchaseOrderResponse).purchaseOrder;
    expect(order.lines[0]).toMatchObject({ received: 4, billed: 4 });
    const rnb = parsed(await get('/api/accounting/received-not-billed'), ReceivedNotBilledResponse);
    expect(rnb.lines.some((l) => l.line === goods.line)).toBe(false);
    expect(toCents(rnb.total)).toBe(-(await balance('2100')));
    // A posted bill is not rewritten or deleted.
    const again = await put(`/api/bills/${draft._id}`, {
      supplier: goods.supplier,
      reference: 'x',
      date: day,
      lines: [{ description: 'x', quantity: 1, unitPrice: 1, account: freight }],
    });
    expect(again.status).toBe(409);
    expect(parsed(again, ApiError).code).toBe('BILL_STATE');
    expect((await t.call('DELETE', `/api/bills/${draft._id}`, { token: admin() })).status).toBe(409);
    expect((await post(`/api/bills/${draft._id}/post`)).status).toBe(409);
    await booksOk();
  });

  it('never bills more than received − billed: at posting, and when two posts race one is refused', async () => {
    const goods = await received(4, 3);
    const day = await today();
    const draft = async (quantity: number) => {
      const made = await post('/api/bills', {
        supplier: goods.supplier,
        reference: `R-${tag()}`,
        date: day,
        lines: [{ purchaseOrderLine: goods.line, quantity, unitPrice: 3 }],
      });
      expect(made.status, made.text).toBe(201);
      return parsed(made, BillResponse).bill._id;
    };
    const five = await draft(5);
    const over = await post(`/api/bills/${five}/post`);
    expect(over.status).toBe(409);
    expect(parsed(over, ApiError)).toMatchObject({ code: 'BILL_OVER_RECEIVED' });
    expect(parsed(over, ApiError).error).toMatch(/4 received and not billed, not 5/);
    const [a, b] = [await draft(3), await draft(3)];
    const raced = await Promise.all([post(`/api/bills/${a}/post`), post(`/api/bills/${b}/post`)]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 409]);
    const [line] = await t.sql<{ billed: number }>('select billed from purchase_order_lines where id = $1', [
      goods.line,
    ]);
    expect(line?.billed).toBe(3);
    // The refused one stays a draft; voiding the posted one gives its units back, so it posts now.
    const posted = raced[0]?.status === 200 ? a : b;
    const refused = posted === a ? b : a;
    expect(parsed(await get(`/api/bills/${refused}`), BillResponse).bill.status).toBe('draft');
    const voided = parsed(await post(`/api/bills/${posted}/void`), BillResponse).bill;
    expect(voided).toMatchObject({ status: 'void', open: 0 });
    expect(voided.voidEntry?.number).toMatch(/^JE-/);
    expect((await post(`/api/bills/${posted}/void`)).status).toBe(409);
    expect((await post(`/api/bills/${refused}/post`)).status).toBe(200);
    await booksOk();
  });

  it('drafts: the reference is unique per supplier ignoring case, a line on another supplier’s order or a wrong account is a 400, and bad values are 400s', async () => {
    const goods = await received(2, 1.5);
    const other = await t.product({ stock: 0 });
    const day = await today();
    const freight = await account('6900');
    const reference = `Dup-${tag()}`;
    const body = (extra: Record<string, unknown> = {}) => ({
      supplier: goods.supplier,
      reference,
      date: day,
      lines: [{ description: 'Service', quantity: 1, unitPrice: 10, account: freight }],
      ...extra,
    });
    const first = await post('/api/bills', body());
    expect(first.status, first.text).toBe(201);
    const twice = await post('/api/bills', body({ reference: reference.toUpperCase() }));
    expect(twice.status).toBe(409);
    expect(parsed(twice, ApiError).code).toBe('BILL_REFERENCE_TAKEN');
    // Another supplier may use the same reference.
    expect((await post('/api/bills', body({ supplier: other.supplierId }))).status).toBe(201);
    const elsewhere = await post(
      '/api/bills',
      body({
        supplier: other.supplierId,
        reference: `X-${tag()}`,
        lines: [{ purchaseOrderLine: goods.line, quantity: 1, unitPrice: 1 }],
      }),
    );
    expect(elsewhere.status).toBe(400);
    expect(parsed(elsewhere, ApiError).code).toBe('BILL_LINE_INVALID');
    const income = await post(
      '/api/bills',
      body({
        reference: `Y-${tag()}`,
        lines: [{ description: 'x', quantity: 1, unitPrice: 1, account: await account('4000') }],
      }),
    );
    expect(income.status).toBe(400);
    expect(parsed(income, ApiError).error).toMatch(/4000 Sales is not an expense or asset account/);
    // A draft is rewritten whole and deleted.
    const id = parsed(first, BillResponse).bill._id;
    const edited = await put(
      `/api/bills/${id}`,
      body({ lines: [{ description: 'S', quantity: 2, unitPrice: 7.5, account: freight }] }),
    );
    expect(edited.status, edited.text).toBe(200);
    expect(parsed(edited, BillResponse).bill).toMatchObject({ total: 15, lines: [{ quantity: 2 }] });
    expect((await t.call('DELETE', `/api/bills/${id}`, { token: admin() })).status).toBe(200);
    expect((await get(`/api/bills/${id}`)).status).toBe(404);
    expect((await get('/api/bills/nope')).status).toBe(404);
    // A bill dated after today posts on its day, not before.
    const later = await post('/api/bills', body({ reference: `F-${tag()}`, date: '2999-01-01' }));
    const future = await post(`/api/bills/${parsed(later, BillResponse).bill._id}/post`);
    expect(future.status).toBe(409);
    expect(parsed(future, ApiError).code).toBe('DATE_IN_FUTURE');

    const line = { description: 'x', quantity: 1, unitPrice: 1, account: freight };
    for (const bad of [
      body({ reference: '' }),
      body({ reference: 'x'.repeat(101) }),
      body({ reference: 'a\u0000b' }),
      body({ reference: ['x'] }),
      body({ date: '2025-02-30' }),
      body({ date: '0000-01-01' }),
      body({ date: 'soon' }),
      body({ dueDate: '1999-01-01', date: '2000-01-01' }),
      body({ lines: [] }),
      body({ lines: [{ ...line, quantity: 0 }] }),
      body({ lines: [{ ...line, quantity: 1.5 }] }),
      body({ lines: [{ ...line, quantity: Number.NaN }] }),
      body({ lines: [{ ...line, unitPrice: -1 }] }),
      body({ lines: [{ ...line, unitPrice: 1.005 }] }),
      body({ lines: [{ ...line, unitPrice: 1e20 }] }),
      body({ lines: [{ ...line, unitPrice: 99_999_999.99, quantity: 1_000_000 }] }),
      body({ lines: [{ ...line, unitPrice: '1' }] }),
      body({ lines: [{ description: 'no account', quantity: 1, unitPrice: 1 }] }),
      body({ lines: [{ ...line, description: 'x'.repeat(10_000) }] }),
      body({ note: 'x'.repeat(10_000) }),
      body({ lines: line }),
    ]) {
      const answer = await post('/api/bills', bad);
      expect(answer.status, JSON.stringify(bad).slice(0, 120)).toBe(400);
      expect(parsed(answer, ApiError).error.length).toBeGreaterThan(0);
    }
    for (const query of ['status=open', 'overdue=maybe', 'page=0', 'pageSize=1000', 'supplier=x'.repeat(200)])
      expect((await get(`/api/bills?${query}`)).status, query).toBe(400);
    expect((await get('/api/accounting/payables?at=2025-13-01')).status).toBe(400);
    expect((await get('/api/accounting/tax-return?from=2025-02-01&to=2025-01-01')).status).toBe(400);
  });

  it('payments: by bank with part allocated, the rest as credit allocated later, cash from a till in its report; 409s for too much, another supplier and the drawer’s cap', async () => {
    const goods = await received(10, 2);
    const day = await today();
    const bill = async (quantity: number, date = day, dueDate?: string) => {
      const made = await post('/api/bills', {
        supplier: goods.supplier,
        reference: `P-${tag()}`,
        date,
        dueDate,
        lines: [{ purchaseOrderLine: goods.line, quantity, unitPrice: 2 }],
      });
      expect(made.status, made.text).toBe(201);
      const id = parsed(made, BillResponse).bill._id;
      expect((await post(`/api/bills/${id}/post`)).status).toBe(200);
      return id;
    };
    const a = await bill(4); // 8.00
    const b = await bill(6); // 12.00
    const pay = (body: Record<string, unknown>) =>
      post('/api/supplier-payments', { supplier: goods.supplier, date: day, method: 'bank', ...body });

    const tooMuch = await pay({ amount: 5, allocations: [{ bill: a, amount: 9 }] });
    expect(tooMuch.status).toBe(409);
    expect(parsed(tooMuch, ApiError).code).toBe('ALLOCATION_TOO_MUCH');
    const overPayment = await pay({ amount: 5, allocations: [{ bill: a, amount: 6 }] });
    expect(parsed(overPayment, ApiError).code).toBe('ALLOCATION_TOO_MUCH');
    const strangers = await t.product({ stock: 0 });
    const theirs = await post('/api/supplier-payments', {
      supplier: strangers.supplierId,
      date: day,
      method: 'bank',
      amount: 1,
      allocations: [{ bill: a, amount: 1 }],
    });
    expect(parsed(theirs, ApiError).code).toBe('ALLOCATION_SUPPLIER');
    expect(await t.sql('select 1 from supplier_payments where supplier_id = $1', [goods.supplier])).toEqual(
      [],
    );

    const banked = await pay({ amount: 10, allocations: [{ bill: a, amount: 3 }] });
    expect(banked.status, banked.text).toBe(201);
    const payment = parsed(banked, SupplierPaymentResponse).payment;
    expect(payment).toMatchObject({ amount: 10, method: 'bank', unallocated: 7 });
    expect(payment.number).toMatch(/^PY-\d{6}$/);
    expect(parsed(await get(`/api/bills/${a}`), BillResponse).bill).toMatchObject({
      status: 'partiallyPaid',
      paid: 3,
      open: 5,
      payments: [{ _id: payment._id, allocated: 3 }],
    });
    const entry = parsed(
      await get(`/api/accounting/journal/${payment.entry?._id}`),
      JournalEntryResponse,
    ).entry;
    expect(entry.lines.map((l) => [l.account.code, l.debit, l.credit])).toEqual([
      ['2000', 10, 0],
      ['1100', 0, 10],
    ]);
    // A part-paid bill is not voided.
    expect(parsed(await post(`/api/bills/${a}/void`), ApiError).code).toBe('BILL_STATE');
    // The credit, allocated later: 5 to a (paid in full), 2 to b; a third allocation has nothing left.
    const later = await post(`/api/supplier-payments/${payment._id}/allocate`, {
      allocations: [
        { bill: a, amount: 5 },
        { bill: b, amount: 2 },
      ],
    });
    expect(later.status, later.text).toBe(200);
    expect(parsed(later, SupplierPaymentResponse).payment.unallocated).toBe(0);
    expect(parsed(await get(`/api/bills/${a}`), BillResponse).bill.status).toBe('paid');
    const nothingLeft = await post(`/api/supplier-payments/${payment._id}/allocate`, {
      allocations: [{ bill: b, amount: 0.01 }],
    });
    expect(parsed(nothingLeft, ApiError).code).toBe('ALLOCATION_TOO_MUCH');
    const paidBill = await pay({ amount: 1, allocations: [{ bill: a, amount: 1 }] });
    expect(parsed(paidBill, ApiError).code).toBe('BILL_STATE');

    // Cash from a till: 5 of b's 10 open, out of a drawer holding 20; its report counts it as cash out.
    const register = (await post('/api/registers', { name: `Till ${tag()}` })).body as {
      register: { _id: string };
    };
    const opened = await post(`/api/registers/${register.register._id}/open`, { openingFloat: 20 });
    const session = parsed(opened, SessionResponse).session._id;
    const capped = await pay({ amount: 25, method: 'cash', session });
    expect(capped.status).toBe(409);
    expect(parsed(capped, ApiError).code).toBe('CASH_CAP');
    const yesterday = await pay({ amount: 1, method: 'cash', session, date: await daysAgo(1) });
    expect(parsed(yesterday, ApiError).code).toBe('PAYMENT_TILL_TODAY');
    expect((await pay({ amount: 1, method: 'bank', session })).status).toBe(400);
    const cash = await pay({ amount: 5, method: 'cash', session, allocations: [{ bill: b, amount: 5 }] });
    expect(cash.status, cash.text).toBe(201);
    const fromTill = parsed(cash, SupplierPaymentResponse).payment;
    expect(fromTill.session?._id).toBe(session);
    const report = parsed(await get(`/api/register-sessions/${session}`), SessionResponse).report;
    expect(report.cashOut).toBe(5);
    expect(report.expectedCash).toBe(15);
    const till = parsed(
      await get(`/api/accounting/journal/${fromTill.entry?._id}`),
      JournalEntryResponse,
    ).entry;
    expect(till.lines.map((l) => [l.account.code, l.debit, l.credit, l.register?._id ?? null])).toEqual([
      ['2000', 5, 0, null],
      ['1000', 0, 5, register.register._id],
    ]);
    // One entry for the payment: the drawer's cash movement posts none of its own.
    expect(
      await t.sql(
        "select 1 from journal_entries where source_kind = 'cash' and source_id in (select id from cash_movements where payment_id = $1)",
        [fromTill._id],
      ),
    ).toEqual([]);
    expect(parsed(await get(`/api/bills/${b}`), BillResponse).bill).toMatchObject({ paid: 7, open: 5 });
    await booksOk();
    const closed = await post(`/api/register-sessions/${session}/close`, { countedCash: 15 });
    expect(closed.status, closed.text).toBe(200);
    await booksOk();
    for (const bad of [
      { amount: 0 },
      { amount: -1 },
      { amount: 1.001 },
      { amount: 'ten' },
      { amount: 1, method: 'cheque' },
      { amount: 1, date: '2025-02-29' },
      {
        amount: 1,
        allocations: [
          { bill: a, amount: 1 },
          { bill: a, amount: 1 },
        ],
      },
      { amount: 1, allocations: { bill: a, amount: 1 } },
    ])
      expect((await pay(bad)).status, JSON.stringify(bad)).toBe(400);
    expect((await pay({ amount: 1, date: '2999-01-01' })).status).toBe(409);
  });

  it('payables at a day are aged by days past due and total the balance of 2000 then; the tax return is the change of 2200 − 1400', async () => {
    const goods = await received(20, 1);
    const rate = await taxRate({ name: `Aged ${tag()}`, rate: 20 });
    const bill = async (quantity: number, date: string, dueDate?: string) => {
      const made = await post('/api/bills', {
        supplier: goods.supplier,
        reference: `A-${tag()}`,
        date,
        dueDate,
        lines: [{ purchaseOrderLine: goods.line, quantity, unitPrice: 1, taxRate: rate._id }],
      });
      const id = parsed(made, BillResponse).bill._id;
      expect((await post(`/api/bills/${id}/post`)).status).toBe(200);
      return id;
    };
    await bill(5, await daysAgo(100)); // 6.00 over 90 days
    await bill(4, await daysAgo(50), await daysAgo(40)); // 4.80, 40 days: 31–60
    await bill(3, await daysAgo(5), await daysAgo(2)); // 3.60, 1–30
    await bill(2, await today(), await daysAgo(-30)); // 2.40, not due
    const credit = await post('/api/supplier-payments', {
      supplier: goods.supplier,
      date: await daysAgo(1),
      amount: 1.5,
      method: 'bank',
    });
    expect(credit.status, credit.text).toBe(201);
    const aging = parsed(await get('/api/accounting/payables'), PayablesResponse);
    const mine = aging.suppliers.find((s) => s.supplier._id === goods.supplier);
    expect(mine).toMatchObject({
      notDue: 2.4,
      days1to30: 3.6,
      days31to60: 4.8,
      days61to90: 0,
      over90: 6,
      unallocated: 1.5,
      total: 15.3,
    });
    expect(toCents(aging.totals.total)).toBe(-(await balance('2000')));
    // Ten days ago: only the two oldest bills, aged as they were then (30 and 90 days late), and no payment yet.
    const then = parsed(await get(`/api/accounting/payables?at=${await daysAgo(10)}`), PayablesResponse);
    expect(then.suppliers.find((s) => s.supplier._id === goods.supplier)).toMatchObject({
      notDue: 0,
      days1to30: 4.8,
      days31to60: 0,
      days61to90: 6,
      over90: 0,
      unallocated: 0,
      total: 10.8,
    });
    const at = await daysAgo(10);
    const tb = parsed(
      await get(`/api/accounting/trial-balance?from=1900-01-01&to=${at}`),
      TrialBalanceResponse,
    );
    expect(toCents(then.totals.total)).toBe(
      -toCents(tb.accounts.find((a) => a.account.code === '2000')?.closing ?? 0),
    );

    // A sale taxed at the same rate, then the tax return over the last 120 days.
    const { id: productId } = await t.product({ stock: 5, price: 10, cost: 1 });
    await t.sql('update products set tax_rate_id = $1 where id = $2', [rate._id, productId]);
    await sold(t.as.admin, { lines: [{ productId, quantity: 1 }], payment: { method: 'card' } });
    const from = await daysAgo(120);
    const to = await today();
    const taxes = parsed(await get(`/api/accounting/tax-return?from=${from}&to=${to}`), TaxReturnResponse);
    const range = parsed(
      await get(`/api/accounting/trial-balance?from=${from}&to=${to}`),
      TrialBalanceResponse,
    );
    const moved = (code: string) => {
      const row = range.accounts.find((a) => a.account.code === code);
      return row ? toCents(row.debit) - toCents(row.credit) : 0n;
    };
    expect(toCents(taxes.net)).toBe(-moved('2200') - moved('1400'));
    expect(taxes.input.find((r) => r.name === rate.name)).toMatchObject({ rate: 20, base: 14, tax: 2.8 });
    expect(taxes.output.find((r) => r.name === rate.name)?.tax).toBeGreaterThan(0);
    const csv = await get(`/api/accounting/tax-return?from=${from}&to=${to}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.text.split('\r\n')[0]).toBe('"side","name","rate","base","tax"');
    const list = parsed(await get(`/api/bills?supplier=${goods.supplier}&overdue=true`), BillListResponse);
    expect(list.bills.map((b) => b.overdueDays)).toEqual([100, 40, 2]);
    await booksOk();
  });
});
