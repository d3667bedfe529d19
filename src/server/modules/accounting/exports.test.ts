import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_HEADERS, TrialBalanceResponse } from '../../../shared/accounting';
import { ApiError } from '../../../shared/common';
import { toCents } from '../../../shared/money';
import { fixtures, tag } from '../../test/fixtures';
import { parsed, startApp, type TestApp, targets } from '../../test/harness';
import { parseCsv } from '../../test/parse-csv';

/**
 * DESIGN §20: the files for the accountant. A day of sales, a refund, a receipt and a manual
 * entry, then each file read back by the tests' own CSV parser (not the writer's code): its header,
 * every row balanced with the rest (journal and QuickBooks by entry, Xero by day), and the sums
 * equal to the trial balance's movements over the same days; the three date formats; bad queries
 * a 400 with one sentence.
 */
describe.each(targets)('the accountant’s files on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());
  const { sell } = fixtures(() => t);
  const admin = () => t.as.admin.token;
  const get = (url: string) => t.call('GET', url, { token: admin() });
  const post = (url: string, body?: unknown) => t.call('POST', url, { token: admin(), body });
  const cents = (cell: string | undefined) => {
    expect(cell ?? '', 'a plain number').toMatch(/^-?\d+(\.\d{1,2})?$/);
    return toCents(cell as string);
  };

  it('journal, Xero and QuickBooks files each balance, name every line and agree with the trial balance', async () => {
    const { id, supplierId } = await t.product({ stock: 10, price: 7.25, cost: 2.4 });
    const sold = await sell(t.as.salesRep, {
      lines: [{ productId: id, quantity: 3 }],
      payment: { method: 'card' },
    });
    expect(sold.status, sold.text).toBe(201);
    const sale = sold.body as { sale: { _id: string; lines: { order: { _id: string } }[] } };
    const refund = await t.call('POST', `/api/sales/${sale.sale._id}/refunds`, {
      token: t.as.salesRep.token,
      body: { lines: [{ order: sale.sale.lines[0]?.order._id, quantity: 1 }], method: 'card', restock: true },
    });
    expect(refund.status, refund.text).toBe(201);
    const po = await post('/api/purchase-orders', {
      supplier: supplierId,
      lines: [{ product: id, quantity: 4, unitCost: 2.75 }],
    });
    const order = po.body as { purchaseOrder: { _id: string; lines: { _id: string }[] } };
    expect((await post(`/api/purchase-orders/${order.purchaseOrder._id}/order`)).status).toBe(200);
    const received = await post(`/api/purchase-orders/${order.purchaseOrder._id}/receive`, {
      lines: [{ line: order.purchaseOrder.lines[0]?._id, quantity: 4 }],
    });
    expect(received.status, received.text).toBe(200);
    const accounts = (await get('/api/accounting/accounts')).body as {
      accounts: { _id: string; code: string }[];
    };
    const byCode = (code: string) => accounts.accounts.find((a) => a.code === code)?._id;
    const today = (await t.sql<{ day: string }>('select store_today()::text as day'))[0]?.day as string;
    const memo = `=Banked, "the" takings ${tag()}`;
    const manual = await post('/api/accounting/journal', {
      date: today,
      memo,
      lines: [
        { account: byCode('1100'), debit: 12.5 },
        { account: byCode('1050'), credit: 12.5 },
      ],
    });
    expect(manual.status, manual.text).toBe(201);

    const range = `from=${today}&to=${today}`;
    const trial = parsed(await get(`/api/accounting/trial-balance?${range}`), TrialBalanceResponse);
    const moved = new Map(
      trial.accounts.map((row) => [row.account.code, toCents(row.debit) - toCents(row.credit)] as const),
    );
    const file = async (format: string, dateFormat = 'iso') => {
      const answer = await get(`/api/accounting/export?${range}&format=${format}&dateFormat=${dateFormat}`);
      expect(answer.status, answer.text).toBe(200);
      expect(String(answer.headers['content-type'])).toMatch(/^text\/csv/);
      const [header, ...rows] = parseCsv(answer.text);
      expect(header).toEqual(EXPORT_HEADERS[format as keyof typeof EXPORT_HEADERS]);
      return rows;
    };
    /** Per account code, what a file's rows move (debit − credit), and each group's balance. */
    const expectBalancedBy = (
      rows: string[][],
      group: (row: string[]) => string,
      amount: (row: string[]) => bigint,
    ) => {
      const groups = new Map<string, bigint>();
      for (const row of rows) groups.set(group(row), (groups.get(group(row)) ?? 0n) + amount(row));
      expect([...groups].filter(([, sum]) => sum !== 0n)).toEqual([]);
      return groups.size;
    };

    // The journal: a row a line; every entry balances; by account it moves what the trial balance says.
    const journal = await file('journal');
    expect(
      expectBalancedBy(
        journal,
        (r) => r[1] as string,
        (r) => cents(r[4]) - cents(r[5]),
      ),
    ).toBeGreaterThanOrEqual(4);
    const journalMoved = new Map<string, bigint>();
    for (const row of journal)
      journalMoved.set(
        row[2] as string,
        (journalMoved.get(row[2] as string) ?? 0n) + cents(row[4]) - cents(row[5]),
      );
    expect(new Map([...journalMoved].filter(([, v]) => v !== 0n))).toEqual(
      new Map([...moved].filter(([, v]) => v !== 0n)),
    );
    expect(journal.every((row) => row[0] === today && /^JE-\d{6}$/.test(row[1] as string))).toBe(true);
    // Text is defused against formulas, numbers are not; quotes and commas survive.
    const manualRows = journal.filter((row) => row[6] === `'${memo}`);
    expect(manualRows.map((row) => [row[2], row[4], row[5], row[7]])).toEqual([
      ['1100', '12.5', '0', 'manual'],
      ['1050', '0', '12.5', 'manual'],
    ]);
    expect(journal.some((row) => row[7] === 'sale' && /^S-\d{6}$/.test(row[8] as string))).toBe(true);
    expect(journal.some((row) => row[7] === 'refund' && /^R-\d{6}$/.test(row[8] as string))).toBe(true);
    expect(journal.some((row) => row[7] === 'receipt' && row[8]?.startsWith('PO-'))).toBe(true);
    expect(journal.some((row) => row[9] !== '')).toBe(true);

    // Xero: one journal a day, summed by account, credits negative; the day balances.
    const xero = await file('xero');
    expect(
      expectBalancedBy(
        xero,
        (r) => r[0] as string,
        (r) => cents(r[5]),
      ),
    ).toBe(1);
    expect(new Map(xero.map((row) => [row[3], cents(row[5])]))).toEqual(
      new Map([...moved].filter(([, v]) => v !== 0n)),
    );
    expect(xero.every((row) => row[1] === today && row[4] === 'Tax Exempt')).toBe(true);

    // QuickBooks: a row a line, journals numbered as the entries, each balanced.
    const quickbooks = await file('quickbooks');
    expect(quickbooks).toHaveLength(journal.length);
    expectBalancedBy(
      quickbooks,
      (r) => r[0] as string,
      (r) => cents(r[4]) - cents(r[5]),
    );
    expect(quickbooks.some((row) => row[2] === '1100 Bank' && row[3] === `'${memo}`)).toBe(true);

    // The date formats.
    const [y, m, d] = today.split('-');
    expect((await file('journal', 'us')).every((row) => row[0] === `${m}/${d}/${y}`)).toBe(true);
    expect((await file('xero', 'eu')).every((row) => row[1] === `${d}/${m}/${y}`)).toBe(true);
    expect((await file('quickbooks', 'eu')).every((row) => row[1] === `${d}/${m}/${y}`)).toBe(true);
  });

  it('a range with nothing posted is a header alone; bad queries are a 400 with one sentence; only admins', async () => {
    for (const format of ['journal', 'xero', 'quickbooks'] as const) {
      const answer = await get(`/api/accounting/export?from=2001-01-01&to=2001-01-31&format=${format}`);
      expect(answer.status).toBe(200);
      expect(parseCsv(answer.text)).toEqual([[...EXPORT_HEADERS[format]]]);
    }
    for (const query of [
      'format=sage',
      'format=xero&format=journal',
      'dateFormat=yyyy',
      'from=2026-02-30',
      'from=0000-01-01',
      'from=2026-05-01&to=2026-04-01',
      `from=${'9'.repeat(10_000)}`,
      'from=NaN',
      'to=2026-01-01%00',
    ]) {
      const answer = await get(`/api/accounting/export?${query}`);
      expect(answer.status, query).toBe(400);
      expect(parsed(answer, ApiError).error, query).toMatch(/^[^\n]+\.$/);
    }
    for (const who of [t.as.salesRep, t.as.user, t.as.superAdmin])
      expect((await t.call('GET', '/api/accounting/export', { token: who.token })).status).toBe(403);
  });
});
