import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Refund, SessionSummary } from '../../../shared/till';
import type { User } from '../../../shared/users';
import { SignedInContext } from '../../lib/signed-in';
import { sale } from '../../test/fixtures';
import { mockFetch, renderWithClient, signIn, storeOf, userOf } from '../../test/helpers';
import { ReceiptPage } from '../sales/receipt-page';
import type { Handler } from '../sales/sales-test-data';
import { RefundPage } from './refund-page';
import { RefundReceiptPage } from './refund-receipt-page';

/** Test data and a router for the refund screens' tests (not part of the app). */

export { sale, saleLine } from '../../test/fixtures';

/** This device's register, as the till screens remember it. */
export const REGISTER_ID = 'reg1';

/** An open session of this device's register, as GET /api/register-sessions lists it. */
export function openSession(overrides: Partial<SessionSummary> = {}): SessionSummary {
  return {
    _id: 'ses1',
    number: 7,
    register: { _id: REGISTER_ID, name: 'Till 1' },
    location: { _id: 'main', name: 'Main store' },
    status: 'open',
    openedBy: { _id: 'salesRep-id', name: 'Test salesRep' },
    openedAt: '2025-05-02T08:00:00.000Z',
    openingFloat: 100,
    closedBy: null,
    closedAt: null,
    countedCash: null,
    note: '',
    expectedCash: null,
    difference: null,
    ...overrides,
  };
}

/** GET /api/register-sessions?…&status=open: the given sessions (none: the till is closed). */
export const sessionsAnswer =
  (sessions: SessionSummary[]): Handler =>
  () => ({ body: { success: true, sessions, total: sessions.length, page: 1, pageSize: 1 } });

export function refund(overrides: Partial<Refund> = {}): Refund {
  return {
    _id: 'ref1',
    number: 45,
    sale: { _id: 'sale1', number: 123 },
    session: null,
    lines: [
      { order: { _id: 'o1' }, product: { _id: 'p1', name: 'Crisps' }, quantity: 2, amount: 0.2, tax: 0 },
    ],
    total: 0.2,
    tax: 0,
    method: 'card',
    restock: true,
    reason: '',
    customer: { _id: 'cu1', name: 'Carla Customer' },
    user: { _id: 'salesRep-id', name: 'Test salesRep' },
    createdAt: '2025-05-02T09:15:00.000Z',
    ...overrides,
  };
}

/** GET /api/sales/by-number/:number answering `found` for its number, 404 for any other. */
export const byNumberAnswer =
  (found = sale()): Handler =>
  ({ path }) =>
    path === `/api/sales/by-number/${found.number}`
      ? { body: { success: true, sale: found } }
      : { status: 404, body: { success: false, error: 'Sale not found.' } };

/**
 * The refund screen, a refund's receipt and a sale's receipt at their addresses in the user's
 * area, on a fake server. `register`: this device has chosen a register (its sessions are then
 * asked for; give a `GET /api/register-sessions` handler).
 */
export function renderRefunds(
  path: string,
  handlers: Record<string, Handler>,
  { me = userOf('salesRep'), register = false }: { me?: User; register?: boolean } = {},
) {
  signIn(me);
  if (register) localStorage.setItem('ims.till.register', REGISTER_ID);
  const mock = mockFetch(handlers);
  const home = me.role === 'admin' ? '/admin-dashboard' : '/salesRep-dashboard';
  const router = createMemoryRouter(
    [
      { path: `${home}/refunds`, element: <RefundPage /> },
      { path: `${home}/refunds/:id`, element: <RefundReceiptPage /> },
      { path: `${home}/sales/:id`, element: <ReceiptPage /> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const view = renderWithClient(
    <SignedInContext value={me}>
      <RouterProvider router={router} />
    </SignedInContext>,
    { store: storeOf({ name: 'Corner Shop', address: '1 Main Street' }) },
  );
  return { ...mock, ...view, router };
}
