import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Product } from '../../../shared/products';
import type { Register, RegisterSession } from '../../../shared/till';
import type { User } from '../../../shared/users';
import { queryKeys } from '../../lib/query-keys';
import { SignedInContext } from '../../lib/signed-in';
import { type FetchCall, mockFetch, renderWithClient, signIn, storeOf, userOf } from '../../test/helpers';
import { CounterPage } from './counter-page';
import { ReceiptPage } from './receipt-page';
import type { CounterStore } from './sales-api';

/** Test data and a router for the counter's and the receipt's tests (not part of the app). */

type Reply = { status?: number; body: unknown };
export type Handler = (call: FetchCall) => Reply | Promise<Reply>;

/** GET /api/products as the server answers it: every word in the name, or the SKU or barcode exactly. */
/** What GET /api/products/code/:code answers: the product with that barcode or SKU, or 404. */
export function codeAnswer(catalogue: readonly Product[]): Handler {
  return ({ path }) => {
    const code = decodeURIComponent(path.split('/').at(-1) ?? '').toLowerCase();
    const found =
      catalogue.find((one) => one.barcode?.toLowerCase() === code) ??
      catalogue.find((one) => one.sku?.toLowerCase() === code);
    return found
      ? { body: { success: true, product: found } }
      : { status: 404, body: { success: false, error: 'Product not found.' } };
  };
}

export function productsAnswer(catalogue: readonly Product[]): Handler {
  return ({ query }) => {
    const search = (query.search ?? '').trim().toLowerCase();
    const words = search.split(/\s+/).filter(Boolean);
    const matches = catalogue.filter(
      (one) =>
        words.every((word) => one.name.toLowerCase().includes(word)) ||
        one.sku?.toLowerCase() === search ||
        one.barcode?.toLowerCase() === search,
    );
    const pageSize = Number(query.pageSize ?? 20);
    return {
      body: { success: true, products: matches.slice(0, pageSize), total: matches.length, page: 1, pageSize },
    };
  };
}

/** The store's settings as GET /api/settings/store answers them (DESIGN §12). */
export function storeSettings(overrides: Partial<CounterStore> = {}): CounterStore {
  return storeOf({ name: 'Corner Shop', ...overrides });
}

export const settingsAnswer =
  (overrides: Partial<CounterStore> = {}) =>
  () => ({
    body: { success: true, store: storeSettings(overrides) },
  });

/** The till the counter's tests sell on: Till 1, chosen on this device. */
export const TILL: Register = {
  _id: 'register1',
  name: 'Till 1',
  active: true,
  location: { _id: 'main', name: 'Main store' },
};

/** An open till session on Till 1 (DESIGN §13), as the server answers it. */
export function openSession(overrides: Partial<RegisterSession> = {}): RegisterSession {
  return {
    _id: 'session1',
    number: 12,
    register: { _id: TILL._id, name: TILL.name },
    location: TILL.location,
    status: 'open',
    openedBy: { _id: 'salesRep-id', name: 'Test salesRep' },
    openedAt: '2025-05-01T09:02:00.000Z',
    openingFloat: 100,
    closedBy: null,
    closedAt: null,
    countedCash: null,
    note: '',
    ...overrides,
  };
}

/** GET /api/register-sessions?status=open for the counter: its one open session. */
export const openSessionList = (session: RegisterSession = openSession()) => ({
  success: true as const,
  sessions: [{ ...session, expectedCash: null, difference: null }],
  total: 1,
  page: 1,
  pageSize: 1,
});

/**
 * The counter and the receipt at their addresses in a sales rep's area, on a fake server; the
 * store's settings are the defaults unless a handler says otherwise. This device sells on Till 1,
 * whose session #12 is open (already known, as after the counter's first visit), so the counter
 * opens at once; a test of the till itself gives its own handlers.
 */
export function renderSales(path: string, handlers: Record<string, Handler>, me: User = userOf('salesRep')) {
  signIn(me);
  localStorage.setItem('ims.till.register', TILL._id);
  const mock = mockFetch({
    'GET /api/settings/store': settingsAnswer(),
    'GET /api/registers': () => ({ body: { success: true, registers: [TILL] } }),
    'GET /api/register-sessions': () => ({ body: openSessionList() }),
    ...handlers,
  });
  const home = me.role === 'admin' ? '/admin-dashboard' : '/salesRep-dashboard';
  const router = createMemoryRouter(
    [
      { path: `${home}/sales/new`, element: <CounterPage /> },
      { path: `${home}/sales/:id`, element: <ReceiptPage /> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  // The store's settings are read from the fake server (its handler), as the counter reads them.
  const view = renderWithClient(
    <SignedInContext value={me}>
      <RouterProvider router={router} />
    </SignedInContext>,
    {
      store: null,
      prepare: (client) => client.setQueryData(queryKeys.openSession(TILL._id), openSessionList()),
    },
  );
  return { ...mock, ...view, router };
}

export const callsOf = (calls: readonly FetchCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);
