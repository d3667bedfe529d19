import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Product } from '../../../shared/products';
import type { PurchaseOrder, PurchaseOrderLine } from '../../../shared/purchasing';
import { product as productOf } from '../../test/fixtures';
import { type FetchCall, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { PurchaseOrderPage } from './purchase-order-page';
import { PurchaseOrderPrintPage } from './purchase-order-print-page';
import { PurchaseOrdersPage } from './purchase-orders-page';
import { ReorderPage } from './reorder-page';

/** Test data and a router for the purchasing screens' tests (not part of the app). */

export const ACME = { _id: 's1', name: 'Acme' };
export const GLOBEX = { _id: 's2', name: 'Globex' };
export const MAIN = { _id: 'l1', name: 'Main store' };
export const ROOM = { _id: 'l2', name: 'Back room' };
/** GET /api/locations: the two places, and one closed (shown only where it is chosen already). */
export const LOCATIONS = [
  { ...MAIN, kind: 'store' as const, address: '1 High Street', active: true },
  { ...ROOM, kind: 'stockroom' as const, address: '', active: true },
  { _id: 'l3', name: 'Old shop', kind: 'store' as const, address: '', active: false },
];

/** A product as the purchasing screens show it: $2.00, 3 in stock, its own reorder point of 5, from Acme. */
export function product(id: string, name: string, overrides: Partial<Product> = {}): Product {
  return productOf(id, name, {
    price: 2,
    stock: 3,
    reorderPoint: 5,
    category: { _id: 'c1', name: 'Stationery' },
    supplier: ACME,
    ...overrides,
  });
}

export function line(
  id: string,
  name: string,
  overrides: Partial<PurchaseOrderLine> = {},
): PurchaseOrderLine {
  return {
    _id: `line-${id}`,
    product: { _id: id, name },
    quantity: 1,
    received: 0,
    billed: 0,
    unitCost: 1,
    ...overrides,
  };
}

export function purchaseOrder(overrides: Partial<PurchaseOrder> = {}): PurchaseOrder {
  return {
    _id: 'po1',
    number: 'PO-000001',
    supplier: ACME,
    location: MAIN,
    status: 'draft',
    note: '',
    lines: [line('p1', 'Blue Pen', { quantity: 3, unitCost: 0.1 })],
    total: 0.3,
    createdAt: '2025-05-01T10:00:00.000Z',
    orderedAt: null,
    receivedAt: null,
    ...overrides,
  };
}

type Reply = { status?: number; body: unknown };
export type Handler = (call: FetchCall) => Reply | Promise<Reply>;

const ok = (body: object): Reply => ({ body: { success: true, ...body } });
export const answerOrder = (order: PurchaseOrder, status = 200): Reply => ({
  status,
  body: { success: true, purchaseOrder: order },
});

/** Every purchasing screen at its address, on a fake server made of `handlers`. */
export function renderPurchasing(path: string, handlers: Record<string, Handler>) {
  signIn(userOf('admin'));
  const mock = mockFetch({
    'GET /api/products/choices': () => ok({ categories: [], suppliers: [ACME, GLOBEX] }),
    'GET /api/locations': () => ok({ locations: LOCATIONS }),
    ...handlers,
  });
  const router = createMemoryRouter(
    [
      { path: '/admin-dashboard/purchase-orders', element: <PurchaseOrdersPage /> },
      { path: '/admin-dashboard/purchase-orders/new', element: <PurchaseOrderPage /> },
      { path: '/admin-dashboard/purchase-orders/:id', element: <PurchaseOrderPage /> },
      { path: '/admin-dashboard/purchase-orders/:id/print', element: <PurchaseOrderPrintPage /> },
      { path: '/admin-dashboard/reorder', element: <ReorderPage /> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  renderWithClient(<RouterProvider router={router} />);
  return { ...mock, router };
}

export const callsTo = (calls: readonly FetchCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);
