import { createMemoryRouter, RouterProvider } from 'react-router';
import type { SessionReport, SessionSummary } from '../../../shared/till';
import type { User } from '../../../shared/users';
import { SignedInContext } from '../../lib/signed-in';
import { type FetchCall, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { CounterPage } from '../sales/counter-page';
import { type Handler, openSession, TILL } from '../sales/sales-test-data';
import { SessionReportPage } from './session-report-page';
import { SessionsPage } from './sessions-page';

/** Test data and a router for the till's screens (not part of the app). */

export { openSession, TILL };

/** A session's report as the server answers it: nothing sold yet, the float in the drawer. */
export function report(overrides: Partial<SessionReport> = {}): SessionReport {
  return {
    sales: { count: 0, total: 0 },
    refunds: { count: 0, total: 0 },
    payments: [
      { method: 'cash', in: 0, out: 0 },
      { method: 'card', in: 0, out: 0 },
      { method: 'other', in: 0, out: 0 },
      { method: 'storeCredit', in: 0, out: 0 },
    ],
    cashIn: 0,
    cashOut: 0,
    expectedCash: 100,
    countedCash: null,
    difference: null,
    discount: 0,
    taxes: [],
    ...overrides,
  };
}

export function summary(overrides: Partial<SessionSummary> = {}): SessionSummary {
  return { ...openSession(), expectedCash: null, difference: null, ...overrides };
}

/**
 * The counter, the till's report and the sessions list at their addresses in the signed-in
 * user's area, on a fake server with the given handlers only (and the store's settings).
 */
export function renderTill(path: string, handlers: Record<string, Handler>, me: User = userOf('salesRep')) {
  signIn(me);
  const mock = mockFetch(handlers);
  const home = me.role === 'admin' ? '/admin-dashboard' : '/salesRep-dashboard';
  const router = createMemoryRouter(
    [
      { path: `${home}/sales/new`, element: <CounterPage /> },
      { path: `${home}/till/sessions`, element: <SessionsPage /> },
      { path: `${home}/till/sessions/:id`, element: <SessionReportPage /> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const view = renderWithClient(
    <SignedInContext value={me}>
      <RouterProvider router={router} />
    </SignedInContext>,
  );
  return { ...mock, ...view, router };
}

export const callsOf = (calls: readonly FetchCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);
