import { createMemoryRouter, RouterProvider } from 'react-router';
import { type Account, AccountsResponse } from '../../../shared/accounting';
import {
  type Bill,
  type BillLine,
  BillListResponse,
  BillResponse,
  type SupplierPayment,
  SupplierPaymentListResponse,
  SupplierPaymentResponse,
} from '../../../shared/bills';
import {
  type PurchaseOrder,
  type PurchaseOrderLine,
  PurchaseOrderResponse,
} from '../../../shared/purchasing';
import type { StoreSettings, TaxRate } from '../../../shared/store';
import { SupplierListResponse } from '../../../shared/suppliers';
import { SessionListResponse, type SessionSummary } from '../../../shared/till';
import { SignedInContext } from '../../lib/signed-in';
import { type FetchCall, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { EditBillPage, NewBillPage } from './bill-form-page';
import { BillPage } from './bill-page';
import { BillsPage } from './bills-page';
import { PayBillsPage } from './pay-bills-page';

/** Test data and a router for the bills screens' tests (not part of the app). */

export const ACME = { _id: 's1', name: 'Acme' };
export const GLOBEX = { _id: 's2', name: 'Globex' };
export const SUPPLIERS = [ACME, GLOBEX].map((one) => ({ ...one, email: '', phone: '', address: '' }));

export function account(code: string, name: string, overrides: Partial<Account> = {}): Account {
  return {
    _id: `acc-${code}`,
    code,
    name,
    type: 'expense',
    system: null,
    active: true,
    balance: 0,
    ...overrides,
  };
}
export const FREIGHT = account('6400', 'Freight in');
export const GENERAL = account('6900', 'General expenses', { system: 'expenses' });
export const EQUIPMENT = account('1500', 'Equipment', { type: 'asset' });
export const SALES = account('4000', 'Sales', { type: 'income', system: 'sales' });
export const OLD = account('6300', 'Old fees', { active: false });
export const GRNI = account('2100', 'Goods received not billed', { type: 'liability' });
export const CHART = [EQUIPMENT, GRNI, SALES, OLD, FREIGHT, GENERAL];

export const VAT: TaxRate = { _id: 't20', name: 'VAT', rate: 20 };
export const REDUCED: TaxRate = { _id: 't5', name: 'Reduced', rate: 5 };

const ref = (one: Account) => ({ _id: one._id, code: one.code, name: one.name });

export function billLine(overrides: Partial<BillLine> = {}): BillLine {
  return {
    _id: 'bl1',
    description: 'Freight',
    quantity: 1,
    unitPrice: 12.5,
    taxRate: null,
    account: ref(FREIGHT),
    net: 12.5,
    tax: 0,
    ...overrides,
  };
}

export function bill(overrides: Partial<Bill> = {}): Bill {
  return {
    _id: 'b1',
    number: 'BL-000001',
    supplier: ACME,
    reference: 'INV-77',
    date: '2025-05-01',
    dueDate: '2025-05-31',
    status: 'posted',
    note: '',
    lines: [billLine()],
    net: 12.5,
    tax: 0,
    total: 12.5,
    paid: 0,
    open: 12.5,
    overdueDays: 0,
    createdAt: '2025-05-01T10:00:00.000Z',
    postedAt: '2025-05-01T10:05:00.000Z',
    voidedAt: null,
    ...overrides,
  };
}

export function payment(overrides: Partial<SupplierPayment> = {}): SupplierPayment {
  return {
    _id: 'py1',
    number: 'PY-000001',
    supplier: ACME,
    date: '2025-05-02',
    amount: 50,
    method: 'bank',
    allocations: [],
    unallocated: 50,
    createdAt: '2025-05-02T10:00:00.000Z',
    ...overrides,
  };
}

export function orderLine(
  id: string,
  name: string,
  overrides: Partial<PurchaseOrderLine> = {},
): PurchaseOrderLine {
  return {
    _id: `pol-${id}`,
    product: { _id: id, name },
    quantity: 10,
    received: 0,
    billed: 0,
    unitCost: 1,
    ...overrides,
  };
}

export function purchaseOrder(overrides: Partial<PurchaseOrder> = {}): PurchaseOrder {
  return {
    _id: 'po1',
    number: 'PO-000007',
    supplier: ACME,
    location: { _id: 'l1', name: 'Main store' },
    status: 'partially_received',
    note: '',
    lines: [
      orderLine('p1', 'Blue Pen', { quantity: 10, received: 8, billed: 3, unitCost: 0.4 }),
      orderLine('p2', 'Stapler', { quantity: 2, received: 2, billed: 2, unitCost: 4.5 }),
      orderLine('p3', 'Red Pen', { quantity: 5, received: 0, billed: 0, unitCost: 0.3 }),
    ],
    total: 14.5,
    createdAt: '2025-04-20T10:00:00.000Z',
    orderedAt: '2025-04-21T10:00:00.000Z',
    receivedAt: null,
    ...overrides,
  };
}

export function openSession(overrides: Partial<SessionSummary> = {}): SessionSummary {
  return {
    _id: 'ses1',
    number: 4,
    register: { _id: 'r1', name: 'Till 1' },
    location: { _id: 'l1', name: 'Main store' },
    status: 'open',
    openedBy: { _id: 'u1', name: 'Ann' },
    openedAt: '2025-05-02T08:00:00.000Z',
    openingFloat: 100,
    closedBy: null,
    closedAt: null,
    countedCash: null,
    note: '',
    expectedCash: null,
    difference: null,
    ...overrides,
  } as SessionSummary;
}

type Reply = { status?: number; body: unknown };
export type Handler = (call: FetchCall) => Reply | Promise<Reply>;

/** Answers held to the shared schemas, so a test never feeds the screens what the server cannot say. */
export const answerBill = (one: Bill, status = 200): Reply => ({
  status,
  body: BillResponse.parse({ success: true, bill: one }),
});
export const answerBills = (rows: Bill[], query: Record<string, string> = {}): Reply => {
  const page = Number(query.page ?? 1);
  const pageSize = Number(query.pageSize ?? 20);
  return {
    body: BillListResponse.parse({
      success: true,
      bills: rows.slice((page - 1) * pageSize, page * pageSize),
      total: rows.length,
      page,
      pageSize,
    }),
  };
};
export const answerPayment = (one: SupplierPayment, status = 200): Reply => ({
  status,
  body: SupplierPaymentResponse.parse({ success: true, payment: one }),
});
export const answerPayments = (rows: SupplierPayment[]): Reply => ({
  body: SupplierPaymentListResponse.parse({
    success: true,
    payments: rows,
    total: rows.length,
    page: 1,
    pageSize: 100,
  }),
});
export const answerSuppliers = (): Reply => ({
  body: SupplierListResponse.parse({ success: true, suppliers: SUPPLIERS }),
});
export const answerAccounts = (accounts: Account[] = CHART): Reply => ({
  body: AccountsResponse.parse({ success: true, accounts }),
});
export const answerOrder = (order: PurchaseOrder): Reply => ({
  body: PurchaseOrderResponse.parse({ success: true, purchaseOrder: order }),
});
export const answerSessions = (sessions: SessionSummary[]): Reply => ({
  body: SessionListResponse.parse({
    success: true,
    sessions,
    total: sessions.length,
    page: 1,
    pageSize: 100,
  }),
});
export const refusal = (status: number, code: string, error: string): Reply => ({
  status,
  body: { success: false, code, error },
});

/** Every bills screen at its address, on a fake server made of `handlers`. */
export function renderBills(
  path: string | { pathname: string; state?: unknown },
  handlers: Record<string, Handler>,
  { taxRates = [VAT, REDUCED], store }: { taxRates?: TaxRate[]; store?: StoreSettings } = {},
) {
  const user = userOf('admin');
  signIn(user);
  const mock = mockFetch({ 'GET /api/supplier': () => answerSuppliers(), ...handlers });
  const base = '/admin-dashboard/bills';
  const router = createMemoryRouter(
    [
      { path: base, element: <BillsPage /> },
      { path: `${base}/new`, element: <NewBillPage /> },
      { path: `${base}/:id/edit`, element: <EditBillPage /> },
      { path: `${base}/pay`, element: <PayBillsPage /> },
      { path: `${base}/:id`, element: <BillPage /> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const rendered = renderWithClient(
    <SignedInContext.Provider value={user}>
      <RouterProvider router={router} />
    </SignedInContext.Provider>,
    { taxRates, store },
  );
  return { ...mock, router, ...rendered };
}

export const callsTo = (calls: readonly FetchCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);

export const writes = (calls: readonly FetchCall[]) => calls.filter((call) => call.method !== 'GET');
