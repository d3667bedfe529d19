import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Location } from '../../../shared/locations';
import { LocationListResponse } from '../../../shared/locations';
import { ProductListResponse, ProductResponse } from '../../../shared/products';
import {
  type Transfer,
  type TransferLine,
  TransferListResponse,
  TransferResponse,
  type TransferSummary,
} from '../../../shared/transfers';
import { product } from '../../test/fixtures';
import { type FetchCall, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { PackingListPage } from './packing-list-page';
import { TransferFormPage } from './transfer-form-page';
import { TransferPage } from './transfer-page';
import { TransfersPage } from './transfers-page';

/** Test data and a router for the transfers screens' tests (not part of the app). */

export const MAIN = { _id: 'l1', name: 'Main store' };
export const BACK = { _id: 'l2', name: 'Stockroom' };
export const LOCATIONS: Location[] = [
  { ...MAIN, kind: 'store', address: '', active: true },
  { ...BACK, kind: 'stockroom', address: '', active: true },
  { _id: 'l3', name: 'Old shop', kind: 'store', address: '', active: false },
];

export function line(id: string, name: string, overrides: Partial<TransferLine> = {}): TransferLine {
  return {
    _id: `line-${id}`,
    product: { _id: id, name },
    quantity: 4,
    sent: 0,
    received: 0,
    lost: 0,
    returned: 0,
    ...overrides,
  };
}

export function transfer(overrides: Partial<Transfer> = {}): Transfer {
  return {
    _id: 't1',
    number: 'TR-000001',
    from: MAIN,
    to: BACK,
    status: 'draft',
    lines: [line('p1', 'Blue Pen')],
    note: '',
    createdBy: { _id: 'admin-id', name: 'Test admin' },
    createdAt: '2025-05-01T10:00:00.000Z',
    sentAt: null,
    receivedAt: null,
    closedAt: null,
    ...overrides,
  };
}

/** A transfer as the list shows it: its totals in place of its lines. */
export function summary(of: Transfer): TransferSummary {
  const { lines, ...rest } = of;
  return {
    ...rest,
    lineCount: lines.length,
    units: lines.reduce((sum, one) => sum + one.quantity, 0),
    inTransit: lines.reduce((sum, one) => sum + one.sent - one.received - one.lost - one.returned, 0),
  };
}

type Reply = { status?: number; body: unknown };
export type Handler = (call: FetchCall) => Reply | Promise<Reply>;

/** Answers held to the shared schemas, so a test never feeds the screens what the server cannot say. */
export const answerTransfer = (one: Transfer, status = 200): Reply => ({
  status,
  body: TransferResponse.parse({ success: true, transfer: one }),
});
export const answerList = (rows: TransferSummary[], query: Record<string, string>): Reply => {
  const page = Number(query.page ?? 1);
  const pageSize = Number(query.pageSize ?? 20);
  return {
    body: TransferListResponse.parse({
      success: true,
      transfers: rows.slice((page - 1) * pageSize, page * pageSize),
      total: rows.length,
      page,
      pageSize,
    }),
  };
};
export const PEN = product('p1', 'Blue Pen');
export const SERUM = product('p2', 'Serum', { tracking: 'lot' });
export const answerProduct = (one: typeof PEN): Reply => ({
  body: ProductResponse.parse({ success: true, product: one }),
});
export const answerProducts = (rows: (typeof PEN)[]): Reply => ({
  body: ProductListResponse.parse({
    success: true,
    products: rows,
    total: rows.length,
    page: 1,
    pageSize: 10,
  }),
});
export const refusal = (status: number, code: string, error: string, extra: object = {}): Reply => ({
  status,
  body: { success: false, code, error, ...extra },
});

/** Every transfers screen at its address, on a fake server made of `handlers`. */
export function renderTransfers(path: string, handlers: Record<string, Handler>) {
  signIn(userOf('admin'));
  const mock = mockFetch({
    'GET /api/locations': () => ({
      body: LocationListResponse.parse({ success: true, locations: LOCATIONS }),
    }),
    ...handlers,
  });
  const router = createMemoryRouter(
    [
      { path: '/admin-dashboard/transfers', element: <TransfersPage /> },
      { path: '/admin-dashboard/transfers/new', element: <TransferFormPage /> },
      { path: '/admin-dashboard/transfers/:id', element: <TransferPage /> },
      { path: '/admin-dashboard/transfers/:id/edit', element: <TransferFormPage /> },
      { path: '/admin-dashboard/transfers/:id/packing-list', element: <PackingListPage /> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const rendered = renderWithClient(<RouterProvider router={router} />);
  return { ...mock, router, ...rendered };
}

export const callsTo = (calls: readonly FetchCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);
