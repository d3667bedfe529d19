import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../../app/routes';
import { Notifications } from '../../components/notifications';
import { onUnauthorized, SIGN_OUT_WAIT_MS } from '../../lib/api';
import { createQueryClient } from '../../lib/query-client';
import { getSession, type SignedOutState } from '../../lib/session';
import { mockFetch, signIn, userOf } from '../../test/helpers';
import { offlineBody } from '../offline/offline-test-data';
import { keepSale, waiting } from '../offline/queue';

const me = userOf('salesRep', { _id: 'u1' });

function renderLogout(state?: SignedOutState) {
  const client = createQueryClient();
  const router = createMemoryRouter(appRoutes(client), { initialEntries: [{ pathname: '/logout', state }] });
  client.setQueryData(['users', 'u1'], { success: true, user: me });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
      <Notifications />
    </QueryClientProvider>,
  );
  return { router, client };
}

async function expectSignedOut(router: ReturnType<typeof renderLogout>['router']) {
  await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  expect(getSession()).toBeNull();
  expect(localStorage.getItem('ims_token')).toBeNull();
  expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy();
}

afterEach(() => {
  vi.useRealTimers();
  onUnauthorized(null);
});

describe('Logout', () => {
  it('revokes the token on the server first, then clears the session and the cached data and opens the login page', async () => {
    signIn(me, 'my-token');
    const signedInDuringCall: boolean[] = [];
    const { calls } = mockFetch({
      'POST /api/auth/logout': () => {
        signedInDuringCall.push(getSession() !== null);
        return { body: { success: true, message: 'Signed out.' } };
      },
    });
    const { router, client } = renderLogout();
    await expectSignedOut(router);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers.Authorization).toBe('Bearer my-token');
    expect(calls[0]?.body).toEqual({});
    expect(signedInDuringCall).toEqual([true]);
    expect(client.getQueryData(['users', 'u1'])).toBeUndefined();
  });

  it.each([
    ['the server fails', () => mockFetch({ 'POST /api/auth/logout': () => ({ status: 500, body: {} }) })],
    [
      'the token had already ended (401)',
      () =>
        mockFetch({
          'POST /api/auth/logout': () => ({
            status: 401,
            body: { success: false, error: 'Please sign in again.' },
          }),
        }),
    ],
    [
      'the server cannot be reached',
      () =>
        vi.stubGlobal(
          'fetch',
          vi.fn(async () => {
            throw new TypeError('Failed to fetch');
          }),
        ),
    ],
  ])('still signs out here, quietly, when %s', async (_case, fake) => {
    signIn(me);
    const expired = vi.fn();
    onUnauthorized(expired);
    fake();
    const { router } = renderLogout();
    await expectSignedOut(router);
    expect(expired).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it(`waits for a server that does not answer ${SIGN_OUT_WAIT_MS / 1000} seconds at most`, async () => {
    signIn(me);
    const fetchMock = vi.fn(() => new Promise<Response>(() => {}));
    vi.stubGlobal('fetch', fetchMock);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { router } = renderLogout();
    // The device's database is asked first whether offline sales wait (its own scheduling, not the timers').
    for (let turn = 0; turn < 100 && fetchMock.mock.calls.length === 0; turn++)
      await act(() => new Promise((done) => setImmediate(done)));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toBe('Logging out...');

    await vi.advanceTimersByTimeAsync(SIGN_OUT_WAIT_MS - 100);
    expect(getSession()).not.toBeNull();
    await vi.advanceTimersByTimeAsync(100);
    expect(getSession()).toBeNull();
    vi.useRealTimers();
    await expectSignedOut(router);
  });

  it('after a sign-out the server has already done (everywhere), only ends the session here and says so', async () => {
    signIn(me);
    const { calls } = mockFetch({});
    const { router } = renderLogout({ signedOut: 'Signed out on every device.' });
    await expectSignedOut(router);
    expect(screen.getByRole('status').textContent).toBe('Signed out on every device.');
    expect(calls).toHaveLength(0);
  });
});

describe('Logout with sales made offline still on this device (DESIGN §21)', () => {
  it('asks first; Stay signed in keeps the session, Sign out ends it and the sales stay for the next sign-in', async () => {
    signIn(me, 'my-token');
    const body = offlineBody();
    await keepSale({ id: body.offline.id, sellerId: me._id, body });
    const { calls } = mockFetch({
      'POST /api/auth/logout': () => ({ body: { success: true, message: 'Signed out.' } }),
    });
    const first = renderLogout();
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign out with unsent sales?' });
    expect(dialog.textContent).toContain(
      '1 sale made offline is still on this device, not yet sent to the server. It stays here and is sent when you sign in again on this device.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/salesRep-dashboard'));
    expect(getSession()?.user._id).toBe('u1');
    const signOuts = () => calls.filter((call) => call.path === '/api/auth/logout');
    expect(signOuts()).toHaveLength(0);
    cleanup();

    const second = renderLogout();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    await expectSignedOut(second.router);
    expect(signOuts()).toHaveLength(1);
    expect((await waiting(me._id)).map((sale) => sale.id)).toEqual([body.offline.id]);
  });

  it('does not ask when nothing waits on this device for this seller', async () => {
    signIn(me, 'my-token');
    const body = offlineBody();
    await keepSale({ id: body.offline.id, sellerId: 'someone-else', body });
    mockFetch({ 'POST /api/auth/logout': () => ({ body: { success: true, message: 'Signed out.' } }) });
    const { router } = renderLogout();
    await expectSignedOut(router);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
