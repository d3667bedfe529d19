import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { Role } from '../../shared/roles';
import {
  account as accountOf,
  entry as journalEntry,
  line as journalLine,
} from '../features/accounting/accounting-test-data';
import { bill as billOf } from '../features/bills/bills-test-data';
import { purchaseOrder } from '../features/purchasing/purchasing-test-data';
import { refund } from '../features/refunds/refunds-test-data';
import { period, salesAnswer } from '../features/reports/reports-test-data';
import {
  figures,
  stocktake as shownStocktakeOf,
  line as stocktakeLine,
} from '../features/stocktakes/stocktakes-test-data';
import { openSession, report as tillReport } from '../features/till/till-test-data';
import { summary, transfer, line as transferLine } from '../features/transfers/transfers-test-data';
import { createQueryClient } from '../lib/query-client';
import { customer, item as itemOf, sale, saleLine, product as saleProduct } from '../test/fixtures';
import { renderWithClient, signIn, userOf } from '../test/helpers';
import { RequireRole } from './guard';
import { appRoutes } from './routes';

/**
 * Every screen of the route table, with the server failing every call, shows the failure (the
 * server's sentence and Try again) and never its empty text; Try again, once the server answers,
 * shows the data. The screens come from the route table, so a new screen is in this test at once.
 */

type Screen = { path: string; role: Role };

/** Each page of a signed-in area, as the address that opens it (":id" as "x1") and the area's role. */
function screensOf(table: RouteObject[]): Screen[] {
  const found: Screen[] = [];
  const walk = (list: RouteObject[], base: string, role: Role | null) => {
    for (const route of list) {
      const here = route.path ? `${base}/${route.path}` : base;
      const element = route.element as { type?: unknown; props?: { roles?: Role[] } } | undefined;
      const inRole = element?.type === RequireRole ? (element.props?.roles?.[0] ?? null) : role;
      if (route.children) walk(route.children, here, inRole);
      else if (inRole && route.lazy) found.push({ path: here.replace(/:id/g, 'x1'), role: inRole });
    }
  };
  walk(table, '', null);
  return found;
}

/** Screens that load nothing when opened (they ask the server only when the user acts). */
const LOADS_NOTHING: Record<string, string> = {
  '/superAdmin-dashboard': 'two signposts',
  '/admin-dashboard/stock-check': 'runs the check on request',
  '/admin-dashboard/accounting/export': 'a file is asked for when Download is pressed',
  '/admin-dashboard/refunds': 'a receipt is found when its number is scanned or typed',
  '/employee-dashboard/refunds': 'a receipt is found when its number is scanned or typed',
  '/salesRep-dashboard/refunds': 'a receipt is found when its number is scanned or typed',
  '/medicalRep-dashboard/refunds': 'a receipt is found when its number is scanned or typed',
};

/** What such a screen reads all the same (none reads anything now). */
const READS_ONLY = (_path: string): string[] => [];

/** Every screen's words for "nothing here": a failure must never show one of them. */
const EMPTY_TEXTS = [
  'No products found',
  'No orders found',
  'No categories found',
  'No suppliers found',
  'No User found',
  'No activity',
  'No movements yet.',
  'No purchase orders',
  'Nothing to reorder',
  'No customers',
  'No purchases yet.',
  'No store credit yet.',
  'No products out of stock.',
  'No low stock products.',
  'No sales in this range',
  'No sales yet.',
  'No sales match',
  'Nothing expires in the next',
  'This lot has no movements.',
  'No transfers',
  'No stocktakes',
  'No stocktake is being counted',
  'This stocktake has no lines.',
  'No lines match.',
  'No differences',
  'No items',
  // The books (DESIGN §19).
  'No accounts yet',
  'No lines on this account',
  'No entries',
  'No account has a balance',
  'Nothing was sold or spent',
  'The books hold nothing yet',
  'There is nothing to check',
  // Suppliers' bills and payments (DESIGN §20).
  'No bills',
  'No suppliers yet',
  'Nothing is owed',
  'No credit with',
  'Nothing paid on this bill',
  'Every unit received is billed',
  'No tax was charged',
  // The offline sales to review (DESIGN §21).
  'No offline sales to review',
  'No reviewed offline sales',
];

const SENTENCE = 'The database is resting.';
/** What every answer names, so a screen that shows its data shows this. */
const SHOWN = 'Back Again';

const at = '2025-05-01T10:00:00.000Z';
const page = (query: URLSearchParams, total: number) => ({
  total,
  page: Number(query.get('page') ?? 1),
  pageSize: Number(query.get('pageSize') ?? 50),
});
const item = saleProduct('x1', SHOWN);

/** The server once it works again: one answer per call the screens make when opened. */
const ANSWERS: { path: RegExp; answer: (query: URLSearchParams, role: Role) => object }[] = [
  // Every screen that writes money reads the store's currency; the product form and the store's own screens the rates.
  {
    path: /^\/api\/settings\/store$/,
    answer: () => ({
      store: {
        name: SHOWN,
        address: '',
        phone: '',
        taxNumber: '',
        currency: 'USD',
        receiptFooter: '',
        pricesIncludeTax: false,
        defaultTaxRate: null,
        maxDiscountPercent: 10,
        defaultLocation: { _id: 'l1', name: SHOWN },
        offlineHours: 72,
      },
    }),
  },
  { path: /^\/api\/tax-rates$/, answer: () => ({ taxRates: [{ _id: 't1', name: SHOWN, rate: 5 }] }) },
  { path: /^\/api\/dashboard$/, answer: () => dashboard() },
  {
    path: /^\/api\/products$/,
    answer: (query) => ({ products: [item], ...page(query, 1) }),
  },
  {
    path: /^\/api\/products\/choices$/,
    answer: () => ({
      categories: [{ _id: 'c1', name: SHOWN, description: '' }],
      suppliers: [{ _id: 's1', name: SHOWN }],
    }),
  },
  { path: /^\/api\/products\/x1$/, answer: () => ({ product: item }) },
  // Items and their variants (DESIGN §22): the list and one item's editor.
  { path: /^\/api\/items$/, answer: (query) => ({ items: [itemOf('x1', SHOWN)], ...page(query, 1) }) },
  { path: /^\/api\/items\/x1$/, answer: () => ({ item: itemOf('x1', SHOWN) }) },
  {
    path: /^\/api\/products\/x1\/movements$/,
    answer: (query) => ({ movements: [], ...page(query, 0) }),
  },
  // Its stock by location (DESIGN §17).
  {
    path: /^\/api\/products\/x1\/stock$/,
    answer: () => ({
      product: { _id: 'x1', name: SHOWN },
      inTransit: 0,
      locations: [
        { location: { _id: 'l1', name: SHOWN }, stock: 4, reorderPoint: null, reorderQuantity: null },
      ],
    }),
  },
  {
    path: /^\/api\/category$/,
    answer: () => ({ categories: [{ _id: 'c1', name: SHOWN, description: '' }] }),
  },
  {
    path: /^\/api\/supplier$/,
    answer: () => ({ suppliers: [{ _id: 's1', name: SHOWN, email: '', phone: '', address: '' }] }),
  },
  {
    path: /^\/api\/users$/,
    answer: (query) => ({ users: [userOf('user', { _id: 'u1', name: SHOWN })], ...page(query, 1) }),
  },
  { path: /^\/api\/users\/[^/]+$/, answer: (_query, role) => ({ user: userOf(role, { name: SHOWN }) }) },
  {
    path: /^\/api\/audit$/,
    answer: (query) => ({
      entries: [
        {
          _id: 'a1',
          at,
          actor: { _id: 'u1', name: SHOWN, role: 'admin' },
          action: 'created',
          entity: { type: 'product', _id: 'x1', name: 'Blue Pen' },
        },
      ],
      ...page(query, 1),
    }),
  },
  { path: /^\/api\/audit\/actors$/, answer: () => ({ actors: [] }) },
  {
    path: /^\/api\/purchase-orders$/,
    answer: (query) => {
      const { _id, number, supplier, location, status, total, createdAt } = purchaseOrder({
        supplier: { _id: 's1', name: SHOWN },
      });
      return {
        purchaseOrders: [{ _id, number, supplier, location, status, total, createdAt }],
        ...page(query, 1),
      };
    },
  },
  {
    path: /^\/api\/purchase-orders\/x1$/,
    answer: () => ({
      purchaseOrder: purchaseOrder({
        _id: 'x1',
        status: 'ordered',
        orderedAt: at,
        supplier: { _id: 's1', name: SHOWN },
      }),
    }),
  },
  {
    path: /^\/api\/reorder-suggestions$/,
    answer: () => ({
      suppliers: [
        {
          supplier: { _id: 's1', name: SHOWN },
          draft: null,
          lines: [
            {
              product: { _id: 'x1', name: 'Blue Pen' },
              stock: 1,
              onOrder: 0,
              reorderPoint: 5,
              suggested: 4,
              unitCost: 1,
            },
          ],
        },
      ],
    }),
  },
  {
    path: /^\/api\/reports\/sales$/,
    answer: (query) =>
      salesAnswer(Object.fromEntries(query), [period(query.get('from') ?? '2025-05-01', 1, 1)]),
  },
  {
    path: /^\/api\/order\/[^/]+$/,
    answer: (query) => ({
      orders: [
        {
          _id: 'o1',
          user: { _id: 'u1', name: 'Test user', address: '1 Main Street' },
          product: { _id: 'x1', name: SHOWN, category: { name: 'Pens' } },
          quantity: 1,
          unitPrice: 1,
          unitCost: null,
          totalPrice: 1,
          discount: 0,
          tax: 0,
          taxRate: null,
          netTotal: 1,
          returnedTotal: 0,
          orderDate: at,
          status: 'placed',
          returnedQuantity: 0,
          sale: null,
          customer: null,
          lots: [],
        },
      ],
      ...page(query, 1),
    }),
  },
  {
    path: /^\/api\/customers$/,
    answer: (query) => ({ customers: [customer('x1', SHOWN)], ...page(query, 1) }),
  },
  {
    path: /^\/api\/customers\/x1$/,
    answer: () => ({
      customer: customer('x1', SHOWN),
      summary: { sales: 0, totalSpent: 0, lastPurchaseAt: null, creditBalance: 0 },
    }),
  },
  {
    path: /^\/api\/customers\/x1\/credit$/,
    answer: (query) => ({
      balance: 5,
      entries: [
        {
          _id: 'e1',
          at,
          amount: 5,
          kind: 'adjustment',
          sale: null,
          refund: null,
          user: { _id: 'u1', name: 'Test admin' },
          note: SHOWN,
          balanceAfter: 5,
        },
      ],
      ...page(query, 1),
    }),
  },
  {
    path: /^\/api\/sales$/,
    answer: (query) => {
      const { lines: _lines, store: _store, ...summary } = sale({ customer: { _id: 'x1', name: SHOWN } });
      // A customer's purchases page shows its sales by number; the sales view by customer too.
      return {
        sales: [{ ...summary, lineCount: 2, returnedQuantity: 0, returnedTotal: 0 }],
        ...page(query, 1),
      };
    },
  },
  // The till (DESIGN §13): the counter first asks which register this device sells on.
  {
    path: /^\/api\/registers$/,
    answer: () => ({
      registers: [{ _id: 'x1', name: SHOWN, active: true, location: { _id: 'l1', name: SHOWN } }],
    }),
  },
  // The locations (DESIGN §17): the pickers, the Locations screen, a purchase order's delivery address.
  {
    path: /^\/api\/locations$/,
    answer: () => ({ locations: [{ _id: 'l1', name: SHOWN, kind: 'store', address: '', active: true }] }),
  },
  {
    path: /^\/api\/register-sessions$/,
    answer: (query) => ({
      sessions: [{ ...tillSession(), expectedCash: null, difference: null }],
      ...page(query, 1),
    }),
  },
  {
    path: /^\/api\/register-sessions\/x1$/,
    answer: () => ({ session: tillSession(), report: tillReport() }),
  },
  // The offline sales to review (DESIGN §21): sold by a seller called SHOWN.
  {
    path: /^\/api\/sales\/review$/,
    answer: (query) => ({
      sales: [
        {
          sale: { _id: 'x1', number: 1 },
          deviceNumber: 'T1-K7Q2-000001',
          soldAt: at,
          recordedAt: at,
          seller: { _id: 'u1', name: SHOWN },
          total: 1,
          review: ['stock'],
        },
      ],
      ...page(query, 1),
    }),
  },
  {
    path: /^\/api\/sales\/x1$/,
    answer: () => ({
      sale: sale({
        _id: 'x1',
        lines: [saleLine('x1', SHOWN, 1, 2.7, { order: { _id: 'o1' } })],
      }),
    }),
  },
  {
    path: /^\/api\/refunds\/x1$/,
    answer: () => ({
      refund: refund({
        _id: 'x1',
        lines: [
          { order: { _id: 'o1' }, product: { _id: 'x1', name: SHOWN }, quantity: 1, amount: 1, tax: 0 },
        ],
      }),
    }),
  },
  // Lots and expiry (DESIGN §15): the expiring list and a lot's recall trace.
  {
    path: /^\/api\/lots\/expiring$/,
    answer: (query) => ({
      lots: [
        {
          lot: { _id: 'x1', number: 'A12', expiresOn: '2025-05-20' },
          product: { _id: 'x1', name: SHOWN },
          quantity: 2,
          value: 3,
        },
      ],
      today: '2025-05-01',
      quantity: 2,
      value: 3,
      ...page(query, 1),
    }),
  },
  {
    path: /^\/api\/lots\/x1\/trace$/,
    answer: () => ({
      lot: {
        _id: 'x1',
        number: 'A12',
        expiresOn: '2025-05-20',
        quantity: 2,
        product: { _id: 'x1', name: SHOWN },
      },
      movements: [
        {
          _id: 'm1',
          at,
          kind: 'receipt',
          quantity: 2,
          reason: null,
          note: '',
          user: { _id: 'u1', name: 'Test admin' },
          location: { _id: 'l1', name: SHOWN },
        },
      ],
      today: '2025-05-01',
    }),
  },
  // The catalogue import (DESIGN §14), just uploaded: its mapping step names the file.
  {
    path: /^\/api\/imports\/x1$/,
    answer: () => ({
      import: {
        _id: 'x1',
        fileName: `${SHOWN}.csv`,
        fileType: 'csv',
        format: 'generic',
        status: 'uploaded',
        rows: 1,
        columns: ['Name'],
        mapping: { name: 'Name' },
        options: null,
        summary: null,
        processed: 0,
        total: 0,
        failure: null,
        preview: [['Blue Pen']],
        createdAt: at,
        createdBy: { _id: 'u1', name: 'Test admin' },
        checkedAt: null,
        appliedAt: null,
      },
    }),
  },
  // The upload step's recent imports.
  {
    path: /^\/api\/imports$/,
    answer: (query) => ({
      imports: [
        {
          _id: 'x1',
          fileName: `${SHOWN}.csv`,
          fileType: 'csv',
          format: 'generic',
          status: 'applied',
          rows: 1,
          columns: ['Name'],
          mapping: { name: 'Name' },
          options: null,
          summary: null,
          processed: 1,
          total: 1,
          failure: null,
          preview: [],
          createdAt: at,
          createdBy: { _id: 'u1', name: 'Test admin' },
          checkedAt: at,
          appliedAt: at,
        },
      ],
      ...page(query, 1),
      pageCount: 1,
    }),
  },
  // Transfers (DESIGN §17): the list, one draft (the locations are answered above).
  {
    path: /^\/api\/transfers$/,
    answer: (query) => ({ transfers: [summary(shownTransfer())], ...page(query, 1) }),
  },
  { path: /^\/api\/transfers\/x1$/, answer: () => ({ transfer: shownTransfer() }) },
  // Stocktakes (DESIGN §18): the list (the counters' open ones too), one with its summary, its lines.
  {
    path: /^\/api\/stocktakes$/,
    answer: (query) => ({ stocktakes: [shownStocktake()], ...page(query, 1) }),
  },
  { path: /^\/api\/stocktakes\/x1$/, answer: () => ({ stocktake: shownStocktake() }) },
  {
    path: /^\/api\/stocktakes\/x1\/lines$/,
    answer: (query) => ({
      lines: [stocktakeLine('x1', SHOWN, { counted: 2, expectedAtCount: 1, cost: 1 })],
      ...page(query, 1),
    }),
  },
  // The books (DESIGN §19): every screen names an account called SHOWN, or its entry's memo.
  { path: /^\/api\/accounting\/accounts$/, answer: () => ({ accounts: [shownAccount()] }) },
  {
    path: /^\/api\/accounting\/journal$/,
    answer: (query) => ({ entries: [shownEntry()], ...page(query, 1) }),
  },
  { path: /^\/api\/accounting\/journal\/x1$/, answer: () => ({ entry: shownEntry() }) },
  {
    path: /^\/api\/accounting\/ledger$/,
    answer: (query) => ({
      account: shownRef(),
      opening: 0,
      lines: [
        {
          entry: {
            _id: 'x1',
            number: 'JE-000001',
            date: '2025-05-01',
            memo: SHOWN,
            source: { kind: 'manual', _id: null },
          },
          debit: 1,
          credit: 0,
          balance: 1,
        },
      ],
      ...page(query, 1),
    }),
  },
  {
    path: /^\/api\/accounting\/trial-balance$/,
    answer: () => ({
      from: '2025-05-01',
      to: '2025-05-31',
      accounts: [{ account: shownRef(), opening: 0, debit: 1, credit: 1, closing: 0 }],
      totals: { debit: 1, credit: 1 },
    }),
  },
  {
    path: /^\/api\/accounting\/profit-and-loss$/,
    answer: () => ({
      from: '2025-05-01',
      to: '2025-05-31',
      income: [{ account: { ...shownRef(), type: 'income' }, amount: 1 }],
      netSales: 1,
      costOfSales: 0,
      grossProfit: 1,
      expenses: [],
      netProfit: 1,
      months: [{ month: '2025-05', netSales: 1, costOfSales: 0, netProfit: 1 }],
    }),
  },
  {
    path: /^\/api\/accounting\/balance-sheet$/,
    answer: () => ({
      at: '2025-05-31',
      assets: [{ account: shownRef(), balance: 1 }],
      liabilities: [],
      equity: [],
      earnings: 1,
      totals: { assets: 1, liabilities: 0, equity: 0 },
    }),
  },
  {
    path: /^\/api\/accounting\/check$/,
    answer: () => ({ ok: true, checks: [{ name: SHOWN, ok: true, expected: 0, actual: 0 }] }),
  },
  { path: /^\/api\/accounting\/settings$/, answer: () => ({ settings: { lockDate: '2025-04-30' } }) },
  // Suppliers' bills (DESIGN §20): every screen names a supplier or a product called SHOWN.
  { path: /^\/api\/bills$/, answer: (query) => ({ bills: [shownBill()], ...page(query, 1) }) },
  { path: /^\/api\/bills\/x1$/, answer: () => ({ bill: shownBill() }) },
  {
    path: /^\/api\/accounting\/payables$/,
    answer: () => {
      const aged = {
        notDue: 1,
        days1to30: 0,
        days31to60: 0,
        days61to90: 0,
        over90: 0,
        unallocated: 0,
        total: 1,
      };
      return {
        at: '2025-05-31',
        suppliers: [{ supplier: { _id: 's1', name: SHOWN }, ...aged }],
        totals: aged,
      };
    },
  },
  {
    path: /^\/api\/accounting\/received-not-billed$/,
    answer: () => ({
      lines: [
        {
          purchaseOrder: { _id: 'x1', number: 'PO-000001' },
          supplier: { _id: 's1', name: 'Acme' },
          line: 'l1',
          product: { _id: 'x1', name: SHOWN },
          unitCost: 1,
          received: 1,
          billed: 0,
          value: 1,
        },
      ],
      total: 1,
    }),
  },
  {
    path: /^\/api\/accounting\/tax-return$/,
    answer: () => ({
      from: '2025-05-01',
      to: '2025-05-31',
      output: [{ name: SHOWN, rate: 5, base: 20, tax: 1 }],
      input: [],
      outputTax: 1,
      inputTax: 0,
      net: 1,
    }),
  },
];

/** A draft, so that its editor opens too. */
function shownBill() {
  return billOf({ _id: 'x1', status: 'draft', postedAt: null, supplier: { _id: 's1', name: SHOWN } });
}

function shownAccount() {
  return accountOf('1000', SHOWN, { _id: 'x1' });
}

function shownRef() {
  const { _id, code, name, type } = shownAccount();
  return { _id, code, name, type };
}

function shownEntry() {
  return journalEntry({
    _id: 'x1',
    memo: SHOWN,
    lines: [journalLine(shownAccount(), 1, 0), journalLine(shownAccount(), 0, 1)],
  });
}

function shownStocktake() {
  return shownStocktakeOf({ _id: 'x1', location: { _id: 'l1', name: SHOWN }, summary: figures() });
}

function shownTransfer() {
  return transfer({ _id: 'x1', from: { _id: 'x1', name: SHOWN }, lines: [transferLine('x1', SHOWN)] });
}

function tillSession() {
  return openSession({ _id: 'x1', register: { _id: 'x1', name: SHOWN } });
}

function dashboard() {
  return {
    totalProducts: 1,
    totalStock: 0,
    ordersToday: 0,
    revenue: 0,
    today: { sales: 0, revenue: 0, averageBasket: 0 },
    outOfStock: [{ _id: 'x1', name: SHOWN, category: { name: 'Pens' } }],
    highestSaleProduct: { message: 'No sales yet' },
    toReorder: 0,
    expiringSoon: { count: 0, value: 0 },
    lowStock: [],
  };
}

/** The server at the boundary of the web app: failing every call, then (`recover`) answering. */
function server(role: Role) {
  let failing = true;
  const calls: string[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = (init.method ?? 'GET').toUpperCase();
      calls.push(`${method} ${url.pathname}`);
      if (failing) return json(500, { success: false, error: SENTENCE });
      const known = method === 'GET' ? ANSWERS.find((one) => one.path.test(url.pathname)) : undefined;
      if (!known)
        return json(500, { success: false, error: `This test has no answer for ${method} ${url.pathname}.` });
      return json(200, { success: true, ...known.answer(url.searchParams, role) });
    }),
  );
  return {
    calls,
    recover: () => {
      failing = false;
    },
  };
}

/** The screen's own failure messages (the notifications say the bare sentence; these say what failed). */
function failures(): HTMLElement[] {
  return screen
    .queryAllByRole('alert')
    .filter((alert) => /could not be loaded: /.test(alert.textContent ?? ''));
}

const all = screensOf(appRoutes(createQueryClient()));

describe('every screen of the route table', () => {
  it('is found: the areas and their pages, the ones that load nothing among them', () => {
    const paths = all.map((one) => one.path);
    expect(paths).toContain('/admin-dashboard/products');
    expect(paths).toContain('/salesRep-dashboard');
    expect(paths).toContain('/superAdmin-dashboard/users');
    expect(all.length).toBeGreaterThan(30);
    for (const path of Object.keys(LOADS_NOTHING)) expect(paths).toContain(path);
  });
});

describe.each(all.filter((one) => LOADS_NOTHING[one.path] === undefined))(
  'with the server failing, $path',
  ({ path, role }) => {
    it("shows the server's sentence with Try again, never its empty text; Try again shows the data", {
      timeout: 15_000,
    }, async () => {
      signIn(userOf(role));
      const { calls, recover } = server(role);
      // The store's settings and rates load with the screen, so their failure is seen too.
      renderWithClient(
        (client) => (
          <RouterProvider router={createMemoryRouter(appRoutes(client), { initialEntries: [path] })} />
        ),
        {
          store: null,
          taxRates: null,
        },
      );

      await waitFor(() => expect(failures().length).toBeGreaterThan(0), { timeout: 3_000 });
      for (const alert of failures()) {
        expect(alert.textContent).toMatch(/^[A-Z].* could not be loaded: The database is resting\.$/);
      }
      const page = document.body.textContent ?? '';
      for (const empty of EMPTY_TEXTS) expect(page).not.toContain(empty);

      recover();
      const asked = calls.length;
      const retries = screen.getAllByRole('button', { name: 'Try again' });
      expect(retries.length).toBe(failures().length);
      for (const retry of retries) await userEvent.click(retry);
      expect(calls.length).toBeGreaterThan(asked);
      await waitFor(() => expect(failures()).toEqual([]), { timeout: 3_000 });
      await waitFor(
        () => {
          const main = screen.getByRole('main');
          const shown =
            within(main).queryAllByText(new RegExp(SHOWN)).length > 0 ||
            within(main).queryAllByDisplayValue(SHOWN).length > 0 ||
            // The sales report names no product: its figures are the data.
            within(main).queryAllByRole('table', { name: /^Sales per / }).length > 0 ||
            // The lock date names nothing: its day is the data.
            within(main).queryAllByText('The books are locked up to Apr 30, 2025.').length > 0;
          expect(shown).toBe(true);
        },
        { timeout: 3_000 },
      );
      expect(
        screen.queryAllByRole('alert').filter((alert) => /no answer for/.test(alert.textContent ?? '')),
      ).toEqual([]);
    });
  },
);

describe.each(all.filter((one) => LOADS_NOTHING[one.path] !== undefined))('$path', ({ path, role }) => {
  it(`loads nothing when opened (${LOADS_NOTHING[path]}), so it has no failed state to show`, async () => {
    signIn(userOf(role));
    const { calls } = server(role);
    // The store's settings are loaded already, as after any earlier screen (renderWithClient).
    renderWithClient((client) => (
      <RouterProvider router={createMemoryRouter(appRoutes(client), { initialEntries: [path] })} />
    ));
    await screen.findByRole('heading', { level: 1 }, { timeout: 3_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls.filter((call) => !READS_ONLY(path).includes(call))).toEqual([]);
  });
});
