// The browser's own database, which happy-dom lacks: the counter keeps its offline sales in it.
import 'fake-indexeddb/auto';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render } from '@testing-library/react';
import { IDBFactory } from 'fake-indexeddb';
import type { ReactNode } from 'react';
import { afterEach, vi } from 'vitest';
import type { StoreSettings, TaxRate } from '../../shared/store';
import type { User } from '../../shared/users';
import { Notifications } from '../components/notifications';
import { closeOfflineDatabase } from '../features/offline/database';
import { resetReach } from '../lib/connection';
import { notify } from '../lib/notify';
import { createQueryClient } from '../lib/query-client';
import { queryKeys } from '../lib/query-keys';
import { clearSession, setSession } from '../lib/session';

// A search waits for typing to pause before it is sent; on a busy machine the answer can take
// longer than the default second to show.
configure({ asyncUtilTimeout: 3_000 });

export type FetchCall = {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string>;
};
type Reply = { status?: number; body: unknown };
type Handler = (call: FetchCall) => Reply | Promise<Reply>;

/** The store's settings as a fresh server answers them (USD, no tax rate); tests override fields. */
export function storeOf(overrides: Partial<StoreSettings> = {}): StoreSettings {
  return {
    name: 'Inventory MS',
    address: '',
    phone: '',
    taxNumber: '',
    currency: 'USD',
    receiptFooter: '',
    pricesIncludeTax: false,
    defaultTaxRate: null,
    maxDiscountPercent: 10,
    defaultLocation: { _id: 'main', name: 'Main store' },
    offlineHours: 72,
    ...overrides,
  };
}

/**
 * What every screen that writes money or offers tax rates may ask: the store's settings and the
 * tax rates, answered as a fresh server does unless the test gives its own handler.
 */
const STORE_HANDLERS: Record<string, Handler> = {
  'GET /api/settings/store': () => ({ body: { success: true, store: storeOf() } }),
  'GET /api/tax-rates': () => ({ body: { success: true, taxRates: [] } }),
  // DESIGN §17: the store's locations, for every screen with a location picker.
  'GET /api/locations': () => ({ body: { success: true, locations: TEST_LOCATIONS } }),
};

/** The locations the fake server answers unless a test says otherwise: the main store and a stockroom. */
export const TEST_LOCATIONS = [
  { _id: 'loc-main', name: 'Main store', kind: 'store', address: '', active: true },
  { _id: 'loc-room', name: 'Stockroom', kind: 'stockroom', address: '', active: true },
] as const;

/**
 * Replaces fetch with a table of `METHOD /api/path` handlers (a last segment `*` stands for any)
 * and records every call. The store's settings and tax rates have default answers (STORE_HANDLERS).
 * An unexpected call fails loudly with a 500 so the test sees it.
 */
export function mockFetch(ownHandlers: Record<string, Handler>) {
  const handlers = { ...STORE_HANDLERS, ...ownHandlers };
  const calls: FetchCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const call: FetchCall = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    // `METHOD /api/things/*` answers any last path segment that has no handler of its own.
    const handler =
      handlers[`${method} ${url.pathname}`] ??
      handlers[`${method} ${url.pathname.replace(/\/[^/]*$/, '/*')}`];
    const reply = handler
      ? await handler(call)
      : { status: 500, body: { success: false, error: `No mock for ${method} ${url.pathname}` } };
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/**
 * What a list call answers for `query`, as the server does: the items whose name (or whatever
 * `text` picks) contains every word of `search`, one page of them when page or pageSize is sent,
 * and the total of all matches.
 */
export function pageAnswer<T>(
  items: readonly T[],
  query: Record<string, string>,
  text: (item: T) => string = (item) => (item as { name: string }).name,
) {
  const words = (query.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const matches = items.filter((item) => words.every((word) => text(item).toLowerCase().includes(word)));
  if (query.page === undefined && query.pageSize === undefined)
    return { rows: matches, total: matches.length };
  const page = Number(query.page ?? 1);
  const pageSize = Number(query.pageSize ?? 20);
  const rows = matches.slice((page - 1) * pageSize, page * pageSize);
  return { rows, total: matches.length, page, pageSize };
}

/** The list calls made to `path`, oldest first. */
export function listCalls(calls: readonly FetchCall[], path: string): FetchCall[] {
  return calls.filter((call) => call.method === 'GET' && call.path === path);
}

export function userOf(role: User['role'], overrides: Partial<User> = {}): User {
  return {
    _id: `${role}-id`,
    name: `Test ${role}`,
    email: `${role.toLowerCase()}@example.com`,
    address: '1 Main Street',
    role,
    active: true,
    mustChangePassword: false,
    location: null,
    ...overrides,
  };
}

export function signIn(user: User, token = 'test-token') {
  setSession({ token, user });
}

/**
 * Renders inside a fresh query client, with the notification area. The store's settings and tax
 * rates are already loaded, as in the app after its first screen (a fresh store: USD, no rates),
 * so a screen's own calls are the only ones made; give others, or null to let the screen load them.
 * `ui` may be a function of the client, for a router whose routes load into it (appRoutes).
 */
export function renderWithClient(
  ui: ReactNode | ((client: QueryClient) => ReactNode),
  {
    store = storeOf(),
    taxRates = [],
    prepare,
  }: {
    store?: StoreSettings | null;
    taxRates?: TaxRate[] | null;
    /** Answers already in the cache before the first render (a screen's state on arrival). */
    prepare?: (client: QueryClient) => void;
  } = {},
) {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false, staleTime: 0 }, mutations: { retry: false } });
  if (store) client.setQueryData(queryKeys.storeSettings, { success: true, store });
  if (taxRates) client.setQueryData(queryKeys.taxRates, { success: true, taxRates });
  prepare?.(client);
  return {
    client,
    ...render(
      <QueryClientProvider client={client}>
        {typeof ui === 'function' ? ui(client) : ui}
        <Notifications />
      </QueryClientProvider>,
    ),
  };
}

afterEach(async () => {
  cleanup();
  notify.clear();
  clearSession();
  localStorage.clear();
  vi.unstubAllGlobals();
  // The server reached again, and an empty browser database: one test's offline state is not the next's.
  resetReach();
  await closeOfflineDatabase();
  Object.assign(globalThis, { indexedDB: new IDBFactory() });
});
