import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/common';
import { ItemResponse } from '../../shared/items';
import { OrderResponse } from '../../shared/orders';
import { PurchaseOrderResponse } from '../../shared/purchasing';
import { can, type Role } from '../../shared/roles';
import { SaleResponse } from '../../shared/sales';
import { StocktakeResponse } from '../../shared/stocktakes';
import { RefundResponse, SessionResponse } from '../../shared/till';
import { TransferResponse } from '../../shared/transfers';
import { nth, tag } from './fixtures';
import { type Account, PASSWORD, parsed, startApp, type TestApp, targets } from './harness';
import { parseCsv } from './parse-csv';

/**
 * Every call of DESIGN §3 against every kind of caller. The "who" column is copied from the
 * DESIGN table, not from the server's permission map, so the two are checked against each other.
 */
type Caller = 'no token' | 'forged token' | Role;
/** `token` replaces the caller's own token (a sign-out must not revoke the shared test accounts). */
type Request = {
  method: string;
  url: string;
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
};
type Row = {
  call: string;
  /** 'anyone' means no token is needed; otherwise the roles allowed. */
  who: 'anyone' | readonly Role[];
  request: (t: TestApp, me: Account | undefined) => Promise<Request>;
};

const ALL: readonly Role[] = ['superAdmin', 'admin', 'salesRep', 'medicalRep', 'user'];
const ADMIN: readonly Role[] = ['admin'];
const MANAGERS: readonly Role[] = ['superAdmin', 'admin'];
const ORDERING: readonly Role[] = ['user', 'salesRep', 'medicalRep'];
/** Who works with customers: admins and the roles that sell. */
const STAFF: readonly Role[] = ['admin', ...ORDERING];

async function newCategory(t: TestApp): Promise<string> {
  const [row] = await t.sql<{ id: string }>('insert into categories (name) values ($1) returning id', [
    `Perm category ${tag()}`,
  ]);
  return row?.id as string;
}

async function newSupplier(t: TestApp): Promise<string> {
  const [row] = await t.sql<{ id: string }>('insert into suppliers (name) values ($1) returning id', [
    `Perm supplier ${tag()}`,
  ]);
  return row?.id as string;
}

async function newTaxRate(t: TestApp): Promise<string> {
  const [row] = await t.sql<{ id: string }>(
    'insert into tax_rates (name, rate) values ($1, 5) returning id',
    [`Perm rate ${tag()}`],
  );
  return row?.id as string;
}

async function productBody(t: TestApp) {
  const { categoryId, supplierId } = await t.product();
  return {
    name: `Perm product ${tag()}`,
    description: '',
    price: 1.5,
    stock: 4,
    category: categoryId,
    supplier: supplierId,
  };
}

/** An item body of one option and one variant, in a new category and supplier. */
async function itemBody(t: TestApp) {
  const { categoryId, supplierId } = await t.product();
  return {
    name: `Perm item ${tag()}`,
    category: categoryId,
    supplier: supplierId,
    options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
    variants: [{ optionValues: { Size: 'S' }, price: 2, cost: 1, stock: 3 }],
  };
}

/** An item made by the test admin (its variant has a cost, so a leaked cost would show): its id and body. */
async function newItem(t: TestApp) {
  const body = await itemBody(t);
  const made = await t.call('POST', '/api/items', { token: t.as.admin.token, body });
  const { variants: _variants, ...edit } = body;
  return { id: parsed(made, ItemResponse).item._id, edit };
}

async function newCustomer(t: TestApp): Promise<string> {
  const [row] = await t.sql<{ id: string }>('insert into customers (name) values ($1) returning id', [
    `Perm customer ${tag()}`,
  ]);
  return row?.id as string;
}

/** An empty lot of a lot-tracked product (its units would come by the ledger). */
async function newLot(t: TestApp): Promise<string> {
  const { id } = await t.product({ stock: 0 });
  await t.sql(`update products set tracking = 'lot' where id = $1`, [id]);
  const [row] = await t.sql<{ id: string }>(
    `insert into lots (product_id, number, expires_on) values ($1, $2, null) returning id`,
    [id, `P${tag()}`],
  );
  return row?.id as string;
}

/** A stocktake counting one new product at the default location, made by the test admin: its id and product. */
/** A balanced manual entry's body (DESIGN §19): 1.00 from the safe to the bank, today. */
async function manualEntryBody(t: TestApp) {
  const ids = await t.sql<{ code: string; id: string }>(
    "select code, id from accounts where code in ('1050', '1100')",
  );
  const [today] = await t.sql<{ day: string }>('select store_today()::text as day');
  return {
    date: today?.day,
    memo: 'Permission test',
    lines: [
      { account: ids.find((row) => row.code === '1100')?.id, debit: 1 },
      { account: ids.find((row) => row.code === '1050')?.id, credit: 1 },
    ],
  };
}

/** A manual entry posted by the admin; its id. */
async function manualEntry(t: TestApp): Promise<string> {
  const answer = await t.call('POST', '/api/accounting/journal', {
    token: t.as.admin.token,
    body: await manualEntryBody(t),
  });
  return (answer.body as { entry: { _id: string } }).entry._id;
}

/** A draft bill of a new supplier: one freight line on 6900; its id and supplier. */
async function newBill(t: TestApp, posted = false): Promise<{ id: string; supplier: string }> {
  const supplier = await newSupplier(t);
  const [row] = await t.sql<{ id: string; day: string }>(
    "select id, store_today()::text as day from accounts where code = '6900'",
  );
  const made = await t.call('POST', '/api/bills', {
    token: t.as.admin.token,
    body: {
      supplier,
      reference: `Perm ${tag()}`,
      date: row?.day,
      lines: [{ description: 'Freight', quantity: 1, unitPrice: 5, account: row?.id }],
    },
  });
  const id = (made.body as { bill: { _id: string } }).bill._id;
  if (posted) await t.call('POST', `/api/bills/${id}/post`, { token: t.as.admin.token });
  return { id, supplier };
}

/** A bank payment of 1.00 to a new supplier, nothing allocated; its id. */
async function newPayment(t: TestApp): Promise<string> {
  const { supplier } = await newBill(t);
  const [today] = await t.sql<{ day: string }>('select store_today()::text as day');
  const made = await t.call('POST', '/api/supplier-payments', {
    token: t.as.admin.token,
    body: { supplier, date: today?.day, amount: 1, method: 'bank' },
  });
  return (made.body as { payment: { _id: string } }).payment._id;
}

async function newStocktake(t: TestApp): Promise<{ id: string; product: string }> {
  const { id: product } = await t.product({ stock: 3 });
  const made = await t.call('POST', '/api/stocktakes', {
    token: t.as.admin.token,
    body: { location: await defaultLocation(t), products: [product] },
  });
  return { id: parsed(made, StocktakeResponse).stocktake._id, product };
}

async function defaultLocation(t: TestApp): Promise<string> {
  const [row] = await t.sql<{ id: string }>('select default_location() as id');
  return row?.id as string;
}

/** A one-row import as a finished check leaves it (status checked, its row a create). */
async function newCheckedImport(t: TestApp): Promise<string> {
  const [admin] = await t.sql<{ id: string }>(`select id from users where role = 'admin' limit 1`);
  const [row] = await t.sql<{ id: string }>(
    `insert into imports (file_name, format, status, columns, rows, mapping, options, summary, created_by_id, created_by_name, checked_at)
     values ($1, 'csv', 'checked', '{Name}', 1, '{"name":"Name"}',
             '{"matchBy":"name","createMissing":{"categories":false,"suppliers":false},"stock":"set"}',
             '{"create":0,"update":0,"unchanged":0,"errors":1,"newCategories":[],"newSuppliers":[]}', $2, 'Perm admin', now())
     returning id`,
    [`perm-${tag()}.csv`, admin?.id],
  );
  await t.sql(
    `insert into import_rows (import_id, line, cells, result, errors) values ($1, 2, '{x}', 'error', '[]')`,
    [row?.id],
  );
  return row?.id as string;
}

/** A session opened by the caller when it may sell (so it is theirs to work), else by the test user. */
async function newSession(t: TestApp, me: Account | undefined): Promise<string> {
  const opener = me && STAFF.includes(me.role) ? me : t.as.user;
  const [register] = await t.sql<{ id: string }>('insert into registers (name) values ($1) returning id', [
    `Perm till ${tag()}`,
  ]);
  const opened = await t.call('POST', `/api/registers/${register?.id}/open`, {
    token: opener.token,
    body: { openingFloat: 10 },
  });
  return parsed(opened, SessionResponse).session._id;
}

/** A one-line sale paid by card, made by the test user: its receipt. */
async function newCardSale(t: TestApp) {
  const sale = await t.call('POST', '/api/sales', {
    token: t.as.user.token,
    body: {
      lines: [{ productId: (await t.product({ stock: 5 })).id, quantity: 1 }],
      payment: { method: 'card' },
    },
  });
  return parsed(sale, SaleResponse).sale;
}

/** A purchase order made by the test admin, ordered when `ordered`; its id and first line. */
async function newPurchaseOrder(t: TestApp, ordered = false) {
  const product = await t.product({ stock: 1 });
  const created = await t.call('POST', '/api/purchase-orders', {
    token: t.as.admin.token,
    body: { supplier: product.supplierId, lines: [{ product: product.id, quantity: 5, unitCost: 1 }] },
  });
  const id = parsed(created, PurchaseOrderResponse).purchaseOrder._id;
  if (ordered) await t.call('POST', `/api/purchase-orders/${id}/order`, { token: t.as.admin.token });
  return { id, line: nth(parsed(created, PurchaseOrderResponse).purchaseOrder.lines)._id, product };
}

/** A draft transfer of one unit from the default location to a new stockroom, sent when `sent`. */
async function newTransfer(t: TestApp, sent = false) {
  const product = await t.product({ stock: 2 });
  const [main] = await t.sql<{ id: string }>('select default_location() as id');
  const [room] = await t.sql<{ id: string }>(
    `insert into locations (name, kind) values ($1, 'stockroom') returning id`,
    [`Perm room ${tag()}`],
  );
  const body = { from: main?.id, to: room?.id, lines: [{ product: product.id, quantity: 1 }] };
  const created = await t.call('POST', '/api/transfers', { token: t.as.admin.token, body });
  const transfer = parsed(created, TransferResponse).transfer;
  if (sent) await t.call('POST', `/api/transfers/${transfer._id}/send`, { token: t.as.admin.token });
  return { id: transfer._id, line: nth(transfer.lines)._id, body };
}

/** A product with a cost, by its (unique) name. */
async function costedProduct(t: TestApp): Promise<string> {
  const { id } = await t.product({ name: `Costed ${tag()}`, stock: 50 });
  await t.setCost(id, 1.25);
  return (await t.sql<{ name: string }>('select name from products where id = $1', [id]))[0]?.name as string;
}

/** An order by `me` of a product with a cost (the order keeps it as unitCost). */
async function placeCostedOrder(t: TestApp, me: Account): Promise<void> {
  const [row] = await t.sql<{ id: string }>('select id from products where name = $1', [
    await costedProduct(t),
  ]);
  const placed = await t.call('POST', '/api/order/add', {
    token: me.token,
    body: { productId: row?.id, quantity: 1 },
  });
  if (placed.status !== 201) throw new Error(placed.text);
}

/** The keys an answer names a cost or a margin by (DESIGN §9, §10). */
const COST_KEYS = new Set(['cost', 'unitCost', 'margin']);
/** The CSV columns that hold a cost or a margin. */
const COST_COLUMNS = new Set(['cost', 'unit cost', 'margin']);

/** Every cost key anywhere in a JSON answer, at any depth, by its path. */
function costKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => costKeys(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(COST_KEYS.has(key) ? [`${path}.${key}`] : []),
    ...costKeys(inner, `${path}.${key}`),
  ]);
}

const ROWS: Row[] = [
  {
    call: 'POST /api/auth/login',
    who: 'anyone',
    request: async (t) => ({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: t.as.user.email, password: PASSWORD },
    }),
  },
  {
    call: 'POST /api/auth/logout',
    who: ALL,
    request: async (t, me) => ({
      method: 'POST',
      url: '/api/auth/logout',
      body: {},
      ...(me ? { token: (await t.account(me.role)).token } : {}),
    }),
  },
  { call: 'GET /api/health', who: 'anyone', request: async () => ({ method: 'GET', url: '/api/health' }) },
  // Not in the design table: the liveness probe beside health, public like it.
  { call: 'GET /api/live', who: 'anyone', request: async () => ({ method: 'GET', url: '/api/live' }) },
  {
    call: 'GET /api/docs/json',
    who: 'anyone',
    request: async () => ({ method: 'GET', url: '/api/docs/json' }),
  },
  { call: 'GET /api/docs', who: 'anyone', request: async () => ({ method: 'GET', url: '/api/docs/' }) },
  { call: 'GET /api/dashboard', who: ADMIN, request: async () => ({ method: 'GET', url: '/api/dashboard' }) },
  {
    call: 'GET /api/products',
    who: ALL,
    request: async (t) => {
      await costedProduct(t);
      return { method: 'GET', url: '/api/products' };
    },
  },
  {
    call: 'GET /api/products (paged)',
    who: ALL,
    request: async (t) => ({ method: 'GET', url: `/api/products?page=1&search=${await costedProduct(t)}` }),
  },
  {
    call: 'GET /api/products (format=csv)',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/products?format=csv' }),
  },
  {
    call: 'GET /api/products/choices',
    who: ALL,
    request: async () => ({ method: 'GET', url: '/api/products/choices' }),
  },
  {
    call: 'GET /api/products/code/:code',
    who: ALL,
    request: async (t) => {
      const code = `P${tag()}`;
      await t.sql('update products set barcode = $2 where name = $1', [await costedProduct(t), code]);
      return { method: 'GET', url: `/api/products/code/${code}` };
    },
  },
  {
    call: 'POST /api/products/add',
    who: ADMIN,
    request: async (t) => ({ method: 'POST', url: '/api/products/add', body: await productBody(t) }),
  },
  {
    call: 'PUT /api/products/:id',
    who: ADMIN,
    request: async (t) => ({
      method: 'PUT',
      url: `/api/products/${(await t.product()).id}`,
      body: await productBody(t),
    }),
  },
  {
    call: 'DELETE /api/products/:id',
    who: ADMIN,
    request: async (t) => ({ method: 'DELETE', url: `/api/products/${(await t.product()).id}` }),
  },
  // DESIGN §19: the books, the admins' alone.
  {
    call: 'GET /api/accounting/accounts',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/accounting/accounts' }),
  },
  {
    call: 'POST /api/accounting/accounts',
    who: ADMIN,
    request: async () => ({
      method: 'POST',
      url: '/api/accounting/accounts',
      body: { code: `8${Math.floor(Math.random() * 1e6)}`, name: 'Permission test', type: 'expense' },
    }),
  },
  {
    call: 'PUT /api/accounting/accounts/:id',
    who: ADMIN,
    request: async (t) => ({
      method: 'PUT',
      url: `/api/accounting/accounts/${(await t.sql<{ id: string }>("select id from accounts where code = '6900'"))[0]?.id}`,
      body: { name: 'General expenses' },
    }),
  },
  {
    call: 'GET /api/accounting/journal',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/accounting/journal' }),
  },
  {
    call: 'GET /api/accounting/journal/:id',
    who: ADMIN,
    request: async (t) => ({ method: 'GET', url: `/api/accounting/journal/${await manualEntry(t)}` }),
  },
  {
    call: 'POST /api/accounting/journal',
    who: ADMIN,
    request: async (t) => ({
      method: 'POST',
      url: '/api/accounting/journal',
      body: await manualEntryBody(t),
    }),
  },
  {
    call: 'POST /api/accounting/journal/:id/reverse',
    who: ADMIN,
    request: async (t) => ({
      method: 'POST',
      url: `/api/accounting/journal/${await manualEntry(t)}/reverse`,
      body: {},
    }),
  },
  {
    call: 'GET /api/accounting/settings',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/accounting/settings' }),
  },
  {
    call: 'PUT /api/accounting/settings',
    who: ADMIN,
    request: async (t) => ({
      method: 'PUT',
      url: '/api/accounting/settings',
      body: {
        lockDate:
          (await t.sql<{ lock_date: string | null }>('select lock_date::text from accounting_settings'))[0]
            ?.lock_date ?? null,
      },
    }),
  },
  {
    call: 'GET /api/accounting/export',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/accounting/export?format=xero' }),
  },
  {
    call: 'GET /api/accounting/trial-balance',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/accounting/trial-balance' }),
  },
  {
    call: 'GET /api/accounting/profit-and-loss',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/accounting/profit-and-loss' }),
  },
  {
    call: 'GET /api/accounting/balance-sheet',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/accounting/balance-sheet' }),
  },
  {
    call: 'GET /api/accounting/ledger',
    who: ADMIN,
    request: async (t) => ({
      method: 'GET',
      url: `/api/accounting/ledger?account=${(await t.sql<{ id: string }>("select id from accounts where code = '1300'"))[0]?.id}`,
    }),
  },
  {
    call: 'GET /api/accounting/check',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/accounting/check' }),
  },
  // DESIGN §20: bills, payments to suppliers, what is owed and the tax return, for admins.
  {
    call: 'GET /api/bills',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/bills?page=1' }),
  },
  {
    call: 'GET /api/bills/:id',
    who: ADMIN,
    request: async (t) => ({ method: 'GET', url: `/api/bills/${(await newBill(t)).id}` }),
  },
  {
    call: 'POST /api/bills',
    who: ADMIN,
    request: async (t) => {
      const [row] = await t.sql<{ id: string; day: string }>(
        "select id, store_today()::text as day from accounts where code = '6900'",
      );
      return {
        method: 'POST',
        url: '/api/bills',
        body: {
          supplier: await newSupplier(t),
          reference: `Perm ${tag()}`,
          date: row?.day,
          lines: [{ description: 'Freight', quantity: 1, unitPrice: 5, account: row?.id }],
        },
      };
    },
  },
  {
    call: 'PUT /api/bills/:id',
    who: ADMIN,
    request: async (t) => {
      const { id, supplier } = await newBill(t);
      const [row] = await t.sql<{ id: string; day: string }>(
        "select id, store_today()::text as day from accounts where code = '6900'",
      );
      return {
        method: 'PUT',
        url: `/api/bills/${id}`,
        body: {
          supplier,
          reference: `Perm ${tag()}`,
          date: row?.day,
          lines: [{ description: 'Service', quantity: 2, unitPrice: 5, account: row?.id }],
        },
      };
    },
  },
  {
    call: 'DELETE /api/bills/:id',
    who: ADMIN,
    request: async (t) => ({ method: 'DELETE', url: `/api/bills/${(await newBill(t)).id}` }),
  },
  {
    call: 'POST /api/bills/:id/post',
    who: ADMIN,
    request: async (t) => ({ method: 'POST', url: `/api/bills/${(await newBill(t)).id}/post` }),
  },
  {
    call: 'POST /api/bills/:id/void',
    who: ADMIN,
    request: async (t) => ({ method: 'POST', url: `/api/bills/${(await newBill(t, true)).id}/void` }),
  },
  {
    call: 'GET /api/supplier-payments',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/supplier-payments?page=1' }),
  },
  {
    call: 'GET /api/supplier-payments/:id',
    who: ADMIN,
    request: async (t) => ({ method: 'GET', url: `/api/supplier-payments/${await newPayment(t)}` }),
  },
  {
    call: 'POST /api/supplier-payments',
    who: ADMIN,
    request: async (t) => {
      const [today] = await t.sql<{ day: string }>('select store_today()::text as day');
      return {
        method: 'POST',
        url: '/api/supplier-payments',
        body: { supplier: await newSupplier(t), date: today?.day, amount: 2, method: 'bank' },
      };
    },
  },
  {
    call: 'POST /api/supplier-payments/:id/allocate',
    who: ADMIN,
    request: async (t) => {
      const { id: bill, supplier } = await newBill(t, true);
      const [today] = await t.sql<{ day: string }>('select store_today()::text as day');
      const made = await t.call('POST', '/api/supplier-payments', {
        token: t.as.admin.token,
        body: { supplier, date: today?.day, amount: 1, method: 'bank' },
      });
      const payment = (made.body as { payment: { _id: string } }).payment._id;
      return {
        method: 'POST',
        url: `/api/supplier-payments/${payment}/allocate`,
        body: { allocations: [{ bill, amount: 1 }] },
      };
    },
  },
  {
    call: 'GET /api/accounting/payables',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/accounting/payables' }),
  },
  {
    call: 'GET /api/accounting/received-not-billed',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/accounting/received-not-billed' }),
  },
  {
    call: 'GET /api/accounting/tax-return',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/accounting/tax-return' }),
  },
  // DESIGN §21: the offline sales to review, for admins.
  {
    call: 'GET /api/sales/review',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/sales/review' }),
  },
  {
    call: 'POST /api/sales/:id/review',
    who: ADMIN,
    request: async (t) => {
      const { id: productId } = await t.product({ stock: 0, price: 1 });
      const made = await t.call('POST', '/api/sales', {
        token: t.as.salesRep.token,
        body: {
          lines: [{ productId, quantity: 1, unitPrice: 1 }],
          payment: { method: 'card' },
          total: 1,
          offline: {
            id: crypto.randomUUID(),
            soldAt: new Date().toISOString(),
            deviceNumber: `P-${tag()}-1`,
          },
        },
      });
      return {
        method: 'POST',
        url: `/api/sales/${(made.body as { sale: { _id: string } }).sale._id}/review`,
        body: { note: 'Checked.' },
      };
    },
  },
  // DESIGN §22: items and their variants, read by every role that works in the store, made by admins.
  {
    call: 'GET /api/items',
    who: STAFF,
    request: async (t) => {
      await newItem(t);
      return { method: 'GET', url: '/api/items?pageSize=100' };
    },
  },
  {
    call: 'GET /api/items/:id',
    who: STAFF,
    request: async (t) => ({ method: 'GET', url: `/api/items/${(await newItem(t)).id}` }),
  },
  {
    call: 'POST /api/items',
    who: ADMIN,
    request: async (t) => ({ method: 'POST', url: '/api/items', body: await itemBody(t) }),
  },
  {
    call: 'PUT /api/items/:id',
    who: ADMIN,
    request: async (t) => {
      const { id, edit } = await newItem(t);
      return { method: 'PUT', url: `/api/items/${id}`, body: { ...edit, name: `Perm renamed ${tag()}` } };
    },
  },
  {
    call: 'POST /api/items/:id/variants',
    who: ADMIN,
    request: async (t) => ({
      method: 'POST',
      url: `/api/items/${(await newItem(t)).id}/variants`,
      body: { optionValues: { Size: 'M' }, price: 2 },
    }),
  },
  { call: 'GET /api/category', who: ALL, request: async () => ({ method: 'GET', url: '/api/category' }) },
  {
    call: 'POST /api/category/add',
    who: ADMIN,
    request: async () => ({
      method: 'POST',
      url: '/api/category/add',
      body: { formCategory: `Perm new ${tag()}`, formDescription: '' },
    }),
  },
  {
    call: 'PUT /api/category/:id',
    who: ADMIN,
    request: async (t) => ({
      method: 'PUT',
      url: `/api/category/${await newCategory(t)}`,
      body: { formCategory: `Perm renamed ${tag()}`, formDescription: 'd' },
    }),
  },
  {
    call: 'DELETE /api/category/:id',
    who: ADMIN,
    request: async (t) => ({ method: 'DELETE', url: `/api/category/${await newCategory(t)}` }),
  },
  // DESIGN §12: the store's settings and tax rates; the superAdmin manages accounts, not the store.
  {
    call: 'GET /api/settings/store',
    who: ALL,
    request: async () => ({ method: 'GET', url: '/api/settings/store' }),
  },
  {
    call: 'PUT /api/settings/store',
    who: ADMIN,
    request: async () => ({ method: 'PUT', url: '/api/settings/store', body: { phone: `555 ${tag()}` } }),
  },
  // DESIGN §17: locations, read by every role that works in the store, managed by admins.
  { call: 'GET /api/locations', who: STAFF, request: async () => ({ method: 'GET', url: '/api/locations' }) },
  {
    call: 'POST /api/locations',
    who: ADMIN,
    request: async () => ({
      method: 'POST',
      url: '/api/locations',
      body: { name: `Perm place ${tag()}`, kind: 'stockroom' },
    }),
  },
  {
    call: 'PUT /api/locations/:id',
    who: ADMIN,
    request: async (t) => {
      const [row] = await t.sql<{ id: string }>('insert into locations (name) values ($1) returning id', [
        `Perm place ${tag()}`,
      ]);
      return { method: 'PUT', url: `/api/locations/${row?.id}`, body: { address: `${tag()} Quay` } };
    },
  },
  { call: 'GET /api/tax-rates', who: ALL, request: async () => ({ method: 'GET', url: '/api/tax-rates' }) },
  {
    call: 'POST /api/tax-rates',
    who: ADMIN,
    request: async () => ({
      method: 'POST',
      url: '/api/tax-rates',
      body: { name: `Perm ${tag()}`, rate: 5 },
    }),
  },
  {
    call: 'PUT /api/tax-rates/:id',
    who: ADMIN,
    request: async (t) => ({
      method: 'PUT',
      url: `/api/tax-rates/${await newTaxRate(t)}`,
      body: { name: `Perm renamed ${tag()}`, rate: 7.5 },
    }),
  },
  {
    call: 'DELETE /api/tax-rates/:id',
    who: ADMIN,
    request: async (t) => ({ method: 'DELETE', url: `/api/tax-rates/${await newTaxRate(t)}` }),
  },
  { call: 'GET /api/supplier', who: ADMIN, request: async () => ({ method: 'GET', url: '/api/supplier' }) },
  {
    call: 'POST /api/supplier/add',
    who: ADMIN,
    request: async () => ({ method: 'POST', url: '/api/supplier/add', body: { name: `Perm ${tag()}` } }),
  },
  {
    call: 'PUT /api/supplier/:id',
    who: ADMIN,
    request: async (t) => ({
      method: 'PUT',
      url: `/api/supplier/${await newSupplier(t)}`,
      body: { name: `Perm ${tag()}`, email: 'a@b.test', phone: '1', address: 'x' },
    }),
  },
  {
    call: 'DELETE /api/supplier/:id',
    who: ADMIN,
    request: async (t) => ({ method: 'DELETE', url: `/api/supplier/${await newSupplier(t)}` }),
  },
  { call: 'GET /api/users', who: MANAGERS, request: async () => ({ method: 'GET', url: '/api/users' }) },
  {
    call: 'POST /api/users/add (a role the caller may create)',
    who: MANAGERS,
    request: async (_t, me) => ({
      method: 'POST',
      url: '/api/users/add',
      body: {
        name: 'Perm person',
        email: `perm.${tag()}@example.com`,
        password: 'long enough password',
        address: '',
        role: me?.role === 'superAdmin' ? 'admin' : 'user',
      },
    }),
  },
  {
    call: 'DELETE /api/users/:id (a user account)',
    who: MANAGERS,
    request: async (t) => ({ method: 'DELETE', url: `/api/users/${(await t.account('user')).id}` }),
  },
  {
    call: 'PATCH /api/users/:id (a role the caller may create)',
    who: MANAGERS,
    request: async (t, me) => ({
      method: 'PATCH',
      url: `/api/users/${(await t.account(me?.role === 'superAdmin' ? 'admin' : 'user')).id}`,
      body: { name: `Perm ${tag()}` },
    }),
  },
  {
    call: 'POST /api/users/:id/reset-password (a role the caller may create)',
    who: MANAGERS,
    request: async (t, me) => ({
      method: 'POST',
      url: `/api/users/${(await t.account(me?.role === 'superAdmin' ? 'admin' : 'user')).id}/reset-password`,
    }),
  },
  {
    call: 'GET /api/users/:id (own id)',
    who: ALL,
    request: async (t, me) => ({ method: 'GET', url: `/api/users/${(me ?? t.as.user).id}` }),
  },
  {
    call: 'GET /api/users/:id (another user account)',
    who: MANAGERS,
    request: async (t) => ({ method: 'GET', url: `/api/users/${(await t.account('user')).id}` }),
  },
  {
    call: 'PUT /api/users/:id (own id)',
    who: ALL,
    request: async (t, me) => {
      const self = me ?? t.as.user;
      return {
        method: 'PUT',
        url: `/api/users/${self.id}`,
        body: { name: self.name, email: self.email, address: '' },
      };
    },
  },
  {
    call: 'PUT /api/users/me/pin',
    who: ADMIN,
    request: async (t, me) => ({
      method: 'PUT',
      url: '/api/users/me/pin',
      body: { pin: '2468', currentPassword: PASSWORD },
      // A fresh account of the caller's role, so setting a PIN never touches the shared ones.
      ...(me ? { token: (await t.account(me.role)).token } : {}),
    }),
  },
  {
    call: 'PUT /api/users/:id (someone else)',
    who: [],
    request: async (t) => {
      const other = await t.account('user');
      return {
        method: 'PUT',
        url: `/api/users/${other.id}`,
        body: { name: 'X', email: other.email, address: '' },
      };
    },
  },
  {
    call: 'POST /api/order/add',
    who: ORDERING,
    request: async (t) => ({
      method: 'POST',
      url: '/api/order/add',
      body: { productId: (await t.product({ stock: 10 })).id, quantity: 1 },
    }),
  },
  {
    call: 'GET /api/order/:userId (own id)',
    who: ALL,
    // A caller that places orders has one with a known cost, so a leaked unitCost would show.
    request: async (t, me) => {
      if (me && ORDERING.includes(me.role)) await placeCostedOrder(t, me);
      return { method: 'GET', url: `/api/order/${(me ?? t.as.user).id}` };
    },
  },
  {
    call: 'GET /api/order/:userId (own id, paged)',
    who: ALL,
    request: async (t, me) => {
      if (me && ORDERING.includes(me.role)) await placeCostedOrder(t, me);
      return { method: 'GET', url: `/api/order/${(me ?? t.as.user).id}?page=1&pageSize=5` };
    },
  },
  // DESIGN §10 and the "exports are admin work": every list's CSV is the admin's.
  {
    call: 'GET /api/order/:userId (own id, format=csv)',
    who: ADMIN,
    request: async (t, me) => ({ method: 'GET', url: `/api/order/${(me ?? t.as.user).id}?format=csv` }),
  },
  {
    call: "GET /api/order/:userId (another user's id)",
    who: ADMIN,
    request: async (t) => ({ method: 'GET', url: `/api/order/${(await t.account('user')).id}` }),
  },
  // DESIGN §7: the audit log, for superAdmin and admin.
  {
    call: 'GET /api/audit',
    who: MANAGERS,
    request: async () => ({ method: 'GET', url: '/api/audit?entity=product&page=1&pageSize=5' }),
  },
  // DESIGN §8: the stock ledger.
  {
    call: 'GET /api/products/:id',
    who: ALL,
    request: async (t) => {
      const [row] = await t.sql<{ id: string }>('select id from products where name = $1', [
        await costedProduct(t),
      ]);
      return { method: 'GET', url: `/api/products/${row?.id}` };
    },
  },
  {
    call: 'POST /api/products/:id/adjust',
    who: ADMIN,
    request: async (t) => ({
      method: 'POST',
      url: `/api/products/${(await t.product({ stock: 5 })).id}/adjust`,
      body: { quantity: 1, reason: 'found' },
    }),
  },
  {
    call: 'POST /api/products/:id/count',
    who: ADMIN,
    request: async (t) => ({
      method: 'POST',
      url: `/api/products/${(await t.product({ stock: 5 })).id}/count`,
      body: { counted: 4 },
    }),
  },
  {
    call: 'GET /api/products/:id/movements',
    who: ADMIN,
    request: async (t) => ({ method: 'GET', url: `/api/products/${(await t.product()).id}/movements` }),
  },
  // DESIGN §17: a product's stock by location, read by every role but the superAdmin; its
  // reorder point at a location set by admins.
  {
    call: 'GET /api/products/:id/stock',
    who: STAFF,
    request: async (t) => ({ method: 'GET', url: `/api/products/${(await t.product()).id}/stock` }),
  },
  {
    call: 'PUT /api/products/:id/locations/:locationId',
    who: ADMIN,
    request: async (t) => {
      const [main] = await t.sql<{ id: string }>('select default_location() as id');
      return {
        method: 'PUT',
        url: `/api/products/${(await t.product()).id}/locations/${main?.id}`,
        body: { reorderPoint: 4, reorderQuantity: null },
      };
    },
  },
  // DESIGN §15: a product's lots, read by every role that reads the product.
  {
    call: 'GET /api/products/:id/lots',
    who: ALL,
    request: async (t) => ({ method: 'GET', url: `/api/products/${(await t.product()).id}/lots` }),
  },
  {
    call: 'GET /api/stock/check',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/stock/check' }),
  },
  {
    call: 'POST /api/order/:id/return',
    who: ADMIN,
    request: async (t) => {
      const { id } = await t.product({ stock: 5 });
      const placed = await t.call('POST', '/api/order/add', {
        token: t.as.user.token,
        body: { productId: id, quantity: 2 },
      });
      return {
        method: 'POST',
        url: `/api/order/${parsed(placed, OrderResponse).order._id}/return`,
        body: { quantity: 1 },
      };
    },
  },
  {
    call: 'POST /api/purchase-orders',
    who: ADMIN,
    request: async (t) => {
      const product = await t.product();
      return {
        method: 'POST',
        url: '/api/purchase-orders',
        body: { supplier: product.supplierId, lines: [{ product: product.id, quantity: 2, unitCost: 1 }] },
      };
    },
  },
  {
    call: 'GET /api/purchase-orders',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/purchase-orders?page=1' }),
  },
  {
    call: 'GET /api/purchase-orders/:id',
    who: ADMIN,
    request: async (t) => ({ method: 'GET', url: `/api/purchase-orders/${(await newPurchaseOrder(t)).id}` }),
  },
  {
    call: 'PUT /api/purchase-orders/:id',
    who: ADMIN,
    request: async (t) => {
      const order = await newPurchaseOrder(t);
      return {
        method: 'PUT',
        url: `/api/purchase-orders/${order.id}`,
        body: {
          supplier: order.product.supplierId,
          lines: [{ product: order.product.id, quantity: 3, unitCost: 2 }],
        },
      };
    },
  },
  {
    call: 'POST /api/purchase-orders/:id/order',
    who: ADMIN,
    request: async (t) => ({
      method: 'POST',
      url: `/api/purchase-orders/${(await newPurchaseOrder(t)).id}/order`,
    }),
  },
  {
    call: 'POST /api/purchase-orders/:id/receive',
    who: ADMIN,
    request: async (t) => {
      const order = await newPurchaseOrder(t, true);
      return {
        method: 'POST',
        url: `/api/purchase-orders/${order.id}/receive`,
        body: { lines: [{ line: order.line, quantity: 1 }] },
      };
    },
  },
  {
    call: 'POST /api/purchase-orders/:id/cancel',
    who: ADMIN,
    request: async (t) => ({
      method: 'POST',
      url: `/api/purchase-orders/${(await newPurchaseOrder(t)).id}/cancel`,
    }),
  },
  {
    call: 'POST /api/transfers',
    who: ADMIN,
    request: async (t) => ({ method: 'POST', url: '/api/transfers', body: (await newTransfer(t)).body }),
  },
  {
    call: 'GET /api/transfers',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/transfers?page=1' }),
  },
  {
    call: 'GET /api/transfers/:id',
    who: ADMIN,
    request: async (t) => ({ method: 'GET', url: `/api/transfers/${(await newTransfer(t)).id}` }),
  },
  {
    call: 'PUT /api/transfers/:id',
    who: ADMIN,
    request: async (t) => {
      const transfer = await newTransfer(t);
      return { method: 'PUT', url: `/api/transfers/${transfer.id}`, body: transfer.body };
    },
  },
  {
    call: 'POST /api/transfers/:id/send',
    who: ADMIN,
    request: async (t) => ({ method: 'POST', url: `/api/transfers/${(await newTransfer(t)).id}/send` }),
  },
  {
    call: 'POST /api/transfers/:id/receive',
    who: ADMIN,
    request: async (t) => {
      const transfer = await newTransfer(t, true);
      return {
        method: 'POST',
        url: `/api/transfers/${transfer.id}/receive`,
        body: { lines: [{ line: transfer.line, received: 1 }] },
      };
    },
  },
  {
    call: 'POST /api/transfers/:id/cancel',
    who: ADMIN,
    request: async (t) => ({ method: 'POST', url: `/api/transfers/${(await newTransfer(t)).id}/cancel` }),
  },
  // DESIGN §18: stocktakes, counted by the selling roles and admins, made and posted by admins.
  {
    call: 'POST /api/stocktakes',
    who: ADMIN,
    request: async (t) => ({
      method: 'POST',
      url: '/api/stocktakes',
      body: { location: await defaultLocation(t), products: [(await t.product({ stock: 2 })).id] },
    }),
  },
  {
    call: 'GET /api/stocktakes',
    who: STAFF,
    request: async () => ({ method: 'GET', url: '/api/stocktakes?page=1' }),
  },
  {
    call: 'GET /api/stocktakes/:id',
    who: STAFF,
    request: async (t) => ({ method: 'GET', url: `/api/stocktakes/${(await newStocktake(t)).id}` }),
  },
  {
    call: 'GET /api/stocktakes/:id/lines',
    who: STAFF,
    request: async (t) => ({ method: 'GET', url: `/api/stocktakes/${(await newStocktake(t)).id}/lines` }),
  },
  {
    call: 'POST /api/stocktakes/:id/counts',
    who: STAFF,
    request: async (t) => {
      const take = await newStocktake(t);
      return {
        method: 'POST',
        url: `/api/stocktakes/${take.id}/counts`,
        body: { counts: [{ product: take.product, quantity: 1, mode: 'add' }] },
      };
    },
  },
  {
    call: 'POST /api/stocktakes/:id/post',
    who: ADMIN,
    request: async (t) => ({
      method: 'POST',
      url: `/api/stocktakes/${(await newStocktake(t)).id}/post`,
      body: { uncounted: 'keep' },
    }),
  },
  {
    call: 'POST /api/stocktakes/:id/cancel',
    who: ADMIN,
    request: async (t) => ({ method: 'POST', url: `/api/stocktakes/${(await newStocktake(t)).id}/cancel` }),
  },
  {
    call: 'GET /api/reorder-suggestions',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/reorder-suggestions' }),
  },
  {
    call: 'POST /api/reorder-suggestions/draft',
    who: ADMIN,
    // A supplier with nothing to reorder: allowed means 201 with no drafts.
    request: async (t) => ({
      method: 'POST',
      url: '/api/reorder-suggestions/draft',
      body: { supplier: await newSupplier(t) },
    }),
  },
  // DESIGN §15: lots.
  {
    call: 'GET /api/lots/expiring',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/lots/expiring?days=30' }),
  },
  {
    call: 'GET /api/lots/expiring (format=csv)',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/lots/expiring?format=csv' }),
  },
  {
    call: 'GET /api/lots/:id/trace',
    who: ADMIN,
    request: async (t) => ({ method: 'GET', url: `/api/lots/${await newLot(t)}/trace` }),
  },
  // DESIGN §10: reports.
  ...[
    '/api/reports/sales',
    '/api/reports/products',
    '/api/reports/items',
    '/api/reports/products/never-sold',
    '/api/reports/categories',
    '/api/reports/staff',
    '/api/reports/customers',
    '/api/reports/stock',
    '/api/reports/stock/locations',
    '/api/reports/tax',
  ].map((url): Row => ({ call: `GET ${url}`, who: ADMIN, request: async () => ({ method: 'GET', url }) })),
  {
    call: 'GET /api/reports/sales (format=csv)',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/reports/sales?format=csv' }),
  },
  {
    call: 'GET /api/customers',
    who: STAFF,
    request: async () => ({ method: 'GET', url: '/api/customers?search=a' }),
  },
  {
    call: 'POST /api/customers',
    who: STAFF,
    request: async () => ({
      method: 'POST',
      url: '/api/customers',
      body: { name: `Perm customer ${tag()}` },
    }),
  },
  {
    call: 'GET /api/customers/:id',
    who: STAFF,
    request: async (t) => ({ method: 'GET', url: `/api/customers/${await newCustomer(t)}` }),
  },
  {
    call: 'PUT /api/customers/:id',
    who: ADMIN,
    request: async (t) => ({
      method: 'PUT',
      url: `/api/customers/${await newCustomer(t)}`,
      body: { name: `Perm customer ${tag()}`, phone: '555' },
    }),
  },
  {
    call: 'DELETE /api/customers/:id',
    who: ADMIN,
    request: async (t) => ({ method: 'DELETE', url: `/api/customers/${await newCustomer(t)}` }),
  },
  {
    call: 'GET /api/customers/:id/credit',
    who: STAFF,
    request: async (t) => ({ method: 'GET', url: `/api/customers/${await newCustomer(t)}/credit` }),
  },
  {
    call: 'POST /api/customers/:id/credit',
    who: ADMIN,
    request: async (t) => ({
      method: 'POST',
      url: `/api/customers/${await newCustomer(t)}/credit`,
      body: { amount: 5, note: 'Perm credit' },
    }),
  },
  {
    call: 'POST /api/sales',
    who: STAFF,
    request: async (t) => ({
      method: 'POST',
      url: '/api/sales',
      body: {
        lines: [{ productId: (await t.product({ stock: 5 })).id, quantity: 1 }],
        payment: { method: 'card' },
      },
    }),
  },
  { call: 'GET /api/sales', who: STAFF, request: async () => ({ method: 'GET', url: '/api/sales' }) },
  {
    call: 'GET /api/sales/:id',
    who: STAFF,
    // Each caller asks for a sale it may see: its own (a seller's), or any (an admin's).
    request: async (t, me) => {
      const seller = me && ORDERING.includes(me.role) ? me : t.as.user;
      const sale = await t.call('POST', '/api/sales', {
        token: seller.token,
        body: {
          lines: [{ productId: (await t.product({ stock: 5 })).id, quantity: 1 }],
          payment: { method: 'card' },
        },
      });
      return { method: 'GET', url: `/api/sales/${parsed(sale, SaleResponse).sale._id}` };
    },
  },
  // The till (DESIGN §13).
  { call: 'GET /api/registers', who: STAFF, request: async () => ({ method: 'GET', url: '/api/registers' }) },
  {
    call: 'POST /api/registers',
    who: ADMIN,
    request: async () => ({ method: 'POST', url: '/api/registers', body: { name: `Perm till ${tag()}` } }),
  },
  {
    call: 'PUT /api/registers/:id',
    who: ADMIN,
    request: async (t) => {
      const [register] = await t.sql<{ id: string }>(
        'insert into registers (name) values ($1) returning id',
        [`Perm till ${tag()}`],
      );
      return { method: 'PUT', url: `/api/registers/${register?.id}`, body: { name: `Perm till ${tag()}` } };
    },
  },
  {
    call: 'POST /api/registers/:id/open',
    who: STAFF,
    request: async (t) => {
      const [register] = await t.sql<{ id: string }>(
        'insert into registers (name) values ($1) returning id',
        [`Perm till ${tag()}`],
      );
      return { method: 'POST', url: `/api/registers/${register?.id}/open`, body: { openingFloat: 25 } };
    },
  },
  {
    call: 'POST /api/register-sessions/:id/cash',
    who: STAFF,
    request: async (t, me) => ({
      method: 'POST',
      url: `/api/register-sessions/${await newSession(t, me)}/cash`,
      body: { amount: 5, reason: 'Change' },
    }),
  },
  {
    call: 'POST /api/register-sessions/:id/close',
    who: STAFF,
    request: async (t, me) => ({
      method: 'POST',
      url: `/api/register-sessions/${await newSession(t, me)}/close`,
      body: { countedCash: 10 },
    }),
  },
  {
    call: 'GET /api/register-sessions/:id',
    who: STAFF,
    request: async (t, me) => ({ method: 'GET', url: `/api/register-sessions/${await newSession(t, me)}` }),
  },
  {
    call: 'GET /api/register-sessions',
    who: STAFF,
    request: async () => ({ method: 'GET', url: '/api/register-sessions' }),
  },
  // DESIGN §13: refunds at the counter. Any staff member finds and refunds any sale.
  {
    call: 'GET /api/sales/by-number/:number',
    who: STAFF,
    request: async (t) => {
      const sale = await newCardSale(t);
      return { method: 'GET', url: `/api/sales/by-number/${sale.number}` };
    },
  },
  {
    call: 'POST /api/sales/:id/refunds',
    who: STAFF,
    request: async (t) => {
      const sale = await newCardSale(t);
      return {
        method: 'POST',
        url: `/api/sales/${sale._id}/refunds`,
        body: { lines: [{ order: nth(sale.lines).order._id, quantity: 1 }], method: 'card' },
      };
    },
  },
  {
    call: 'GET /api/refunds/:id',
    who: STAFF,
    request: async (t) => {
      const sale = await newCardSale(t);
      const refund = await t.call('POST', `/api/sales/${sale._id}/refunds`, {
        token: t.as.admin.token,
        body: { lines: [{ order: nth(sale.lines).order._id, quantity: 1 }], method: 'card' },
      });
      return { method: 'GET', url: `/api/refunds/${parsed(refund, RefundResponse).refund._id}` };
    },
  },
  // Not in the design: the people the log's "who" filter offers, read like the log.
  {
    call: 'GET /api/audit/actors',
    who: MANAGERS,
    request: async () => ({ method: 'GET', url: '/api/audit/actors' }),
  },
  // DESIGN §14: the catalogue import is the admin's, every step of it.
  {
    call: 'POST /api/imports/products',
    who: ADMIN,
    request: async () => ({
      method: 'POST',
      url: `/api/imports/products?fileName=perm-${tag()}.csv`,
      body: 'Name,Price\nPerm tea,2.50\n',
      headers: { 'content-type': 'text/csv' },
    }),
  },
  {
    call: 'GET /api/imports',
    who: ADMIN,
    request: async () => ({ method: 'GET', url: '/api/imports?page=1&pageSize=5' }),
  },
  {
    call: 'GET /api/imports/:id',
    who: ADMIN,
    request: async (t) => ({ method: 'GET', url: `/api/imports/${await newCheckedImport(t)}` }),
  },
  {
    call: 'GET /api/imports/:id/mapping',
    who: ADMIN,
    request: async (t) => ({
      method: 'GET',
      url: `/api/imports/${await newCheckedImport(t)}/mapping?format=generic`,
    }),
  },
  {
    call: 'POST /api/imports/:id/check',
    who: ADMIN,
    request: async (t) => ({
      method: 'POST',
      url: `/api/imports/${await newCheckedImport(t)}/check`,
      body: { mapping: { name: 'Name' }, matchBy: 'name' },
    }),
  },
  {
    call: 'GET /api/imports/:id/rows',
    who: ADMIN,
    request: async (t) => ({ method: 'GET', url: `/api/imports/${await newCheckedImport(t)}/rows` }),
  },
  {
    call: 'GET /api/imports/:id/errors',
    who: ADMIN,
    request: async (t) => ({
      method: 'GET',
      url: `/api/imports/${await newCheckedImport(t)}/errors?format=csv`,
    }),
  },
  {
    call: 'POST /api/imports/:id/apply',
    who: ADMIN,
    request: async (t) => ({ method: 'POST', url: `/api/imports/${await newCheckedImport(t)}/apply` }),
  },
];

const CALLERS: Caller[] = ['no token', 'forged token', ...ALL];

type Expected = 'allowed' | 401 | 403;
function expected(row: Row, caller: Caller): Expected {
  if (row.who === 'anyone') return 'allowed';
  if (caller === 'no token' || caller === 'forged token') return 401;
  return row.who.includes(caller) ? 'allowed' : 403;
}

const CASES = ROWS.flatMap((row) =>
  CALLERS.map((caller) => ({
    row,
    caller,
    expect: expected(row, caller),
    label: `${row.call} by ${caller}`,
  })),
);

describe.each(targets)('permissions on $name', (target) => {
  let t: TestApp;
  let forged: string;
  beforeAll(async () => {
    t = await startApp(target);
    // A well-formed token for a real admin, signed with a secret the server does not know.
    forged = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(t.as.admin.id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not the server secret, but long enough to look real'));
  });
  afterAll(() => t?.close());

  it('the table covers every call the server documents, and only those', async () => {
    const doc = (await t.call('GET', '/api/docs/json')).body as { paths: Record<string, object> };
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const covered = ROWS.map((row) => row.call.replace(/ \(.*\)$/, '')).filter(
      (call) => !call.includes('/docs'),
    );
    expect(documented.length).toBeGreaterThan(20);
    expect([...new Set(documented)].sort()).toEqual([...new Set(covered)].sort());
  });

  it.each(CASES)('$label → $expect', async ({ row, caller, expect: want }) => {
    const me = caller === 'no token' || caller === 'forged token' ? undefined : t.as[caller];
    const token = caller === 'no token' ? undefined : caller === 'forged token' ? forged : me?.token;
    const { method, url, body, token: own, headers } = await row.request(t, me);
    const res = await t.call(method, url, { token: own ?? token, body, headers });
    if (want === 'allowed') {
      expect(res.status, res.text).toBeGreaterThanOrEqual(200);
      expect(res.status, res.text).toBeLessThan(300);
      // Costs and margins reach only the roles that read costs, in JSON and in CSV (the public
      // calls hold no data; the API description names the fields of every schema).
      if (
        row.who !== 'anyone' &&
        caller !== 'no token' &&
        caller !== 'forged token' &&
        !can(caller, 'costs:read')
      ) {
        expect(costKeys(res.body), 'cost fields in the answer').toEqual([]);
        if (String(res.headers['content-type']).startsWith('text/csv')) {
          const header = parseCsv(res.text)[0] ?? [];
          expect(
            header.filter((column) => COST_COLUMNS.has(column)),
            'cost columns in the CSV',
          ).toEqual([]);
        }
      }
    } else {
      expect(res.status, res.text).toBe(want);
      expect(res.body).toEqual({
        success: false,
        error: expect.any(String),
        code: expect.toBeOneOf([...ERROR_CODES]),
      });
    }
  });
});
