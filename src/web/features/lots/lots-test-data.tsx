import { createMemoryRouter, RouterProvider } from 'react-router';
import type { ExpiringLot, TraceMovement, TraceResponse } from '../../../shared/lots';
import { type FetchCall, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { ExpiringPage } from './expiring-page';
import { LotTracePage } from './lot-trace-page';

/** Test data and a router for the lots' screens' tests (not part of the app). */

type Reply = { status?: number; body: unknown };
export type Handler = (call: FetchCall) => Reply | Promise<Reply>;

/** The day the fake server judges expiry on. */
export const TODAY = '2026-11-28';

export function expiringLot(
  id: string,
  number: string,
  expiresOn: string | null,
  overrides: Partial<ExpiringLot> = {},
): ExpiringLot {
  return {
    lot: { _id: id, number, expiresOn },
    product: { _id: `p-${id}`, name: `Aspirin ${id}` },
    quantity: 4,
    value: 10,
    ...overrides,
  };
}

/**
 * GET /api/lots/expiring as the server answers it, from `all` (soonest first): the lots expiring on
 * or before today + days, a page of them, and the totals over every page.
 */
export const expiringAnswer =
  (all: readonly ExpiringLot[]): Handler =>
  ({ query }) => {
    const days = Number(query.days ?? 30);
    const end = new Date(`${TODAY}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + days);
    const last = end.toISOString().slice(0, 10);
    const matches = all.filter((row) => row.lot.expiresOn !== null && row.lot.expiresOn <= last);
    const page = Number(query.page ?? 1);
    const pageSize = Number(query.pageSize ?? 20);
    return {
      body: {
        success: true,
        lots: matches.slice((page - 1) * pageSize, page * pageSize),
        today: TODAY,
        quantity: matches.reduce((sum, row) => sum + row.quantity, 0),
        value: Math.round(matches.reduce((sum, row) => sum + row.value * 100, 0)) / 100,
        total: matches.length,
        page,
        pageSize,
      },
    };
  };

export function movement(id: string, overrides: Partial<TraceMovement> = {}): TraceMovement {
  return {
    _id: id,
    at: '2026-10-01T09:00:00.000Z',
    kind: 'sale',
    quantity: -1,
    reason: null,
    note: '',
    user: { _id: 'u1', name: 'Sam Seller' },
    location: { _id: 'loc-main', name: 'Main store' },
    ...overrides,
  };
}

export function trace(overrides: Partial<TraceResponse> = {}): TraceResponse {
  return {
    success: true,
    lot: {
      _id: 'lot1',
      number: 'A12',
      expiresOn: '2026-12-20',
      quantity: 7,
      product: { _id: 'p1', name: 'Aspirin 500' },
    },
    movements: [],
    today: TODAY,
    ...overrides,
  };
}

/** The lots' screens at their addresses in the admin's area, on a fake server. */
export function renderLots(path: string, handlers: Record<string, Handler>) {
  signIn(userOf('admin'));
  const mock = mockFetch(handlers);
  const router = createMemoryRouter(
    [
      { path: '/admin-dashboard/lots/expiring', element: <ExpiringPage /> },
      { path: '/admin-dashboard/lots/:id', element: <LotTracePage /> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  renderWithClient(<RouterProvider router={router} />);
  return { ...mock, router };
}

export const callsTo = (calls: readonly FetchCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);
