import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { guardDecision, rootRedirect } from '../../app/navigation';
import { appRoutes } from '../../app/routes';
import { createQueryClient } from '../../lib/query-client';
import { getSession } from '../../lib/session';
import { mockFetch, signIn, userOf } from '../../test/helpers';

const reset = userOf('salesRep', {
  _id: 'u1',
  name: 'Sam Seller',
  email: 'sam@example.com',
  mustChangePassword: true,
});
const emptyCatalogue = () => ({
  body: { success: true, products: [], categories: [], suppliers: [], total: 0 },
});

function renderAt(path: string) {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false } });
  const router = createMemoryRouter(appRoutes(client), { initialEntries: [path] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('a user whose password was reset', () => {
  it('is sent to the new-password screen from every signed-in page and from /', async () => {
    signIn(reset, 'temp-token');
    expect(guardDecision({ token: 't', user: reset }, ['salesRep'])).toEqual({
      allow: false,
      redirectTo: '/change-password',
    });
    expect(rootRedirect({ token: 't', user: reset })).toBe('/change-password');
    const router = renderAt('/salesRep-dashboard/orders');
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/change-password');
  });

  it('chooses a new password, keeps the fresh token and goes on home', async () => {
    signIn(reset, 'temp-token');
    const { calls } = mockFetch({
      'PUT /api/users/u1': () => ({
        body: { success: true, user: { ...reset, mustChangePassword: false }, token: 'fresh-token' },
      }),
      'GET /api/products': emptyCatalogue,
      'GET /api/categories': () => ({ body: { success: true, categories: [] } }),
    });
    const router = renderAt('/change-password');
    await screen.findByRole('heading', { name: 'Choose a new password' });
    expect(document.activeElement).toBe(screen.getByLabelText('Temporary password'));
    await userEvent.type(screen.getByLabelText('Temporary password'), 'k7mq-3xtn-9bwe-p2fh');
    await userEvent.type(screen.getByLabelText('New password'), 'my own password');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'my own passwort');
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(screen.getByText('The two new passwords differ.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'my own password');
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/salesRep-dashboard'));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      name: 'Sam Seller',
      email: 'sam@example.com',
      address: '1 Main Street',
      password: 'my own password',
      currentPassword: 'k7mq-3xtn-9bwe-p2fh',
    });
    expect(getSession()).toEqual({ token: 'fresh-token', user: { ...reset, mustChangePassword: false } });
  });

  it("shows the server's refusal and stays", async () => {
    signIn(reset, 'temp-token');
    mockFetch({
      'PUT /api/users/u1': () => ({
        status: 403,
        body: { success: false, error: 'Your current password is wrong.', code: 'WRONG_PASSWORD' },
      }),
    });
    const router = renderAt('/change-password');
    await screen.findByRole('heading', { name: 'Choose a new password' });
    await userEvent.type(screen.getByLabelText('Temporary password'), 'wrong');
    await userEvent.type(screen.getByLabelText('New password'), 'my own password');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'my own password');
    await userEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your current password is wrong.');
    expect(document.activeElement).toBe(screen.getByLabelText('Temporary password'));
    expect(router.state.location.pathname).toBe('/change-password');
    expect(getSession()?.user.mustChangePassword).toBe(true);
  });

  it('sends anyone else on: a user without the flag home, a visitor to the login page', async () => {
    signIn(userOf('admin'), 'token');
    mockFetch({ 'GET /api/dashboard': () => ({ status: 500, body: { success: false, error: 'x' } }) });
    const router = renderAt('/change-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-dashboard'));
  });
});
