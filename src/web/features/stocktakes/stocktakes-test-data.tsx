import { createMemoryRouter, RouterProvider } from 'react-router';
import { LocationListResponse } from '../../../shared/locations';
import type { Role } from '../../../shared/roles';
import {
  CountsResponse,
  PostStocktakeResponse,
  type Stocktake,
  type StocktakeLine,
  StocktakeLinesResponse,
  StocktakeListResponse,
  StocktakeResponse,
  type StocktakeSummary,
} from '../../../shared/stocktakes';
import { SignedInContext } from '../../lib/signed-in';
import { type FetchCall, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { CountPage } from './count-page';
import { CountSheetPage } from './count-sheet-page';
import { NewStocktakePage } from './new-stocktake-page';
import { OpenStocktakesPage } from './open-stocktakes-page';
import { StocktakePage } from './stocktake-page';
import { StocktakesPage } from './stocktakes-page';

/** Test data and a router for the stocktakes screens' tests (not part of the app). */

export const MAIN = { _id: 'l1', name: 'Main store' };
export const BACK = { _id: 'l2', name: 'Stockroom' };
export const LOCATIONS = [
  { ...MAIN, kind: 'store', address: '', active: true },
  { ...BACK, kind: 'stockroom', address: '', active: true },
  { _id: 'l3', name: 'Old shop', kind: 'store', address: '', active: false },
];

export const at = '2025-05-01T10:00:00.000Z';

export function figures(overrides: Partial<StocktakeSummary> = {}): StocktakeSummary {
  return {
    lines: 3,
    counted: 2,
    uncounted: 1,
    unitsOver: 2,
    unitsShort: 1,
    valueOver: 3,
    valueShort: 1.25,
    net: 1.75,
    categories: [],
    ...overrides,
  };
}

export function stocktake(overrides: Partial<Stocktake> = {}): Stocktake {
  return {
    _id: 's1',
    number: 'ST-000001',
    location: MAIN,
    status: 'counting',
    blind: false,
    scope: { categories: [], products: [] },
    note: '',
    lines: 3,
    createdBy: { _id: 'admin-id', name: 'Test admin' },
    createdAt: at,
    postedAt: null,
    postedBy: null,
    cancelledAt: null,
    uncounted: null,
    ...overrides,
  };
}

export function line(id: string, name: string, overrides: Partial<StocktakeLine> = {}): StocktakeLine {
  return {
    _id: `line-${id}`,
    product: { _id: id, name, sku: `SKU-${id}`, barcode: `400${id}` },
    category: { _id: 'c1', name: 'Medicines' },
    counted: null,
    countedBy: null,
    countedAt: null,
    expected: 5,
    expectedAtCount: null,
    ...overrides,
  };
}

type Reply = { status?: number; body: unknown };
export type Handler = (call: FetchCall) => Reply | Promise<Reply>;

/** Answers held to the shared schemas, so a test never feeds the screens what the server cannot say. */
export const answerStocktake = (one: Stocktake, status = 200): Reply => ({
  status,
  body: StocktakeResponse.parse({ success: true, stocktake: one }),
});
export const answerPosted = (one: Stocktake, clamped: unknown[] = []): Reply => ({
  body: PostStocktakeResponse.parse({ success: true, stocktake: one, clamped }),
});
export const answerCounted = (one: Stocktake, counted: StocktakeLine[]): Reply => ({
  body: CountsResponse.parse({ success: true, stocktake: one, counted }),
});
export const answerList = (rows: Stocktake[], query: Record<string, string>): Reply => {
  const page = Number(query.page ?? 1);
  const pageSize = Number(query.pageSize ?? 20);
  return {
    body: StocktakeListResponse.parse({
      success: true,
      stocktakes: rows.slice((page - 1) * pageSize, page * pageSize),
      total: rows.length,
      page,
      pageSize,
    }),
  };
};
/** GET lines as the server answers it: searched by name, SKU, barcode or lot, counted or not, paged. */
export const answerLines = (rows: StocktakeLine[], query: Record<string, string>): Reply => {
  const page = Number(query.page ?? 1);
  const pageSize = Number(query.pageSize ?? 50);
  const search = (query.search ?? '').toLowerCase();
  const found = rows.filter(
    (one) =>
      (!search ||
        [one.product.name, one.product.sku, one.product.barcode, one.lot?.number ?? ''].some((text) =>
          text.toLowerCase().includes(search),
        )) &&
      (query.counted === undefined || (one.counted !== null) === (query.counted === 'true')) &&
      (query.differences !== 'true' ||
        (one.counted !== null && one.counted !== (one.expectedAtCount ?? one.counted))),
  );
  return {
    body: StocktakeLinesResponse.parse({
      success: true,
      lines: found.slice((page - 1) * pageSize, page * pageSize),
      total: found.length,
      page,
      pageSize,
    }),
  };
};
export const refusal = (status: number, code: string, error: string, extra: object = {}): Reply => ({
  status,
  body: { success: false, code, error, ...extra },
});

/** Every stocktakes screen at its address for `role`, on a fake server made of `handlers`. */
export function renderStocktakes(path: string, handlers: Record<string, Handler>, role: Role = 'admin') {
  const user = userOf(role);
  signIn(user);
  const mock = mockFetch({
    'GET /api/locations': () => ({
      body: LocationListResponse.parse({ success: true, locations: LOCATIONS }),
    }),
    ...handlers,
  });
  const area =
    role === 'admin' ? '/admin-dashboard' : role === 'user' ? '/employee-dashboard' : `/${role}-dashboard`;
  const router = createMemoryRouter(
    [
      { path: `${area}/stocktakes`, element: role === 'admin' ? <StocktakesPage /> : <OpenStocktakesPage /> },
      { path: `${area}/stocktakes/new`, element: <NewStocktakePage /> },
      { path: `${area}/stocktakes/:id`, element: <StocktakePage /> },
      { path: `${area}/stocktakes/:id/count`, element: <CountPage /> },
      { path: `${area}/stocktakes/:id/sheet`, element: <CountSheetPage /> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const rendered = renderWithClient(
    <SignedInContext.Provider value={user}>
      <RouterProvider router={router} />
    </SignedInContext.Provider>,
  );
  return { ...mock, router, ...rendered };
}

export const callsTo = (calls: readonly FetchCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);
