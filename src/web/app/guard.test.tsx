import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ROLES } from '../../shared/roles';
import { onUnauthorized } from '../lib/api';
import { createQueryClient } from '../lib/query-client';
import { clearSession, getSession } from '../lib/session';
import { mockFetch, signIn, userOf } from '../test/helpers';
import { guardDecision, HOME_PATH, MENUS, rootRedirect } from './navigation';
import { appRoutes } from './routes';

function renderAt(entries: string[]) {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false } });
  const router = createMemoryRouter(appRoutes(client), {
    initialEntries: entries,
    initialIndex: entries.length - 1,
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const emptyCatalogue = () => ({
  body: { success: true, products: [], categories: [], suppliers: [], total: 0 },
});

describe('guardDecision', () => {
  it('sends a visitor to /home', () => {
    expect(guardDecision(null, ['admin'])).toEqual({ allow: false, redirectTo: '/home' });
  });

  it('sends a signed-in user without an allowed role to /unauthorized', () => {
    const session = { token: 't', user: userOf('salesRep') };
    expect(guardDecision(session, ['admin'])).toEqual({ allow: false, redirectTo: '/unauthorized' });
    expect(guardDecision(session, ['user', 'medicalRep'])).toEqual({
      allow: false,
      redirectTo: '/unauthorized',
    });
  });

  it('lets an allowed role through', () => {
    expect(guardDecision({ token: 't', user: userOf('admin') }, ['admin'])).toEqual({ allow: true });
  });
});

describe('rootRedirect', () => {
  it.each([
    ['superAdmin', '/superAdmin-dashboard'],
    ['admin', '/admin-dashboard'],
    ['salesRep', '/salesRep-dashboard'],
    ['medicalRep', '/medicalRep-dashboard'],
    ['user', '/employee-dashboard'],
  ] as const)('sends %s to %s', (role, path) => {
    expect(rootRedirect({ token: 't', user: userOf(role) })).toBe(path);
  });

  it('sends a visitor to /home', () => {
    expect(rootRedirect(null)).toBe('/home');
  });
});

describe('menus', () => {
  it('gives the medical rep an Orders link inside their own area', () => {
    const orders = MENUS.medicalRep.find((item) => item.label === 'Orders');
    expect(orders?.to).toBe('/medicalRep-dashboard/orders');
  });

  it('points every menu link of a role inside that role area, except Logout', () => {
    for (const role of ROLES) {
      for (const item of MENUS[role]) {
        if (item.label === 'Logout') expect(item.to).toBe('/logout');
        else expect(item.to.startsWith(HOME_PATH[role])).toBe(true);
      }
    }
  });
});

describe('routing', () => {
  it('replaces the history entry when a visitor is sent from an admin page to /home', async () => {
    const router = renderAt(['/somewhere', '/admin-dashboard/products']);
    expect(await screen.findByRole('heading', { name: 'Simplify your Retail Operations.' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/home');
    expect(router.state.historyAction).toBe('REPLACE');
    await router.navigate(-1);
    expect(router.state.location.pathname).toBe('/somewhere');
  });

  it('sends a sales rep who opens the admin area to /unauthorized, replacing the entry', async () => {
    signIn(userOf('salesRep'));
    const router = renderAt(['/admin-dashboard']);
    expect(await screen.findByRole('heading', { name: 'Unauthorized...' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/unauthorized');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('sends a medical rep from / to their own catalogue', async () => {
    signIn(userOf('medicalRep'));
    mockFetch({ 'GET /api/products': emptyCatalogue });
    const router = renderAt(['/']);
    expect(await screen.findByRole('heading', { name: 'Products' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/medicalRep-dashboard');
    expect(await screen.findByText('No products found')).toBeTruthy();
  });

  it('marks the current page in the sidebar', async () => {
    signIn(userOf('user'));
    mockFetch({ 'GET /api/order/user-id': () => ({ body: { success: true, orders: [], total: 0 } }) });
    renderAt(['/employee-dashboard/orders']);
    expect(await screen.findByRole('heading', { name: 'My Orders' })).toBeTruthy();
    const current = screen.getByRole('link', { current: 'page' });
    expect(current.textContent).toContain('Orders');
    expect(current.getAttribute('href')).toBe('/employee-dashboard/orders');
    expect(screen.getByRole('link', { name: 'Products' }).getAttribute('aria-current')).toBeNull();
  });

  it('clears the session on a 401 answer and shows the login page', async () => {
    onUnauthorized(() => clearSession('expired'));
    signIn(userOf('salesRep'));
    mockFetch({
      'GET /api/order/salesRep-id': () => ({
        status: 401,
        body: { success: false, error: 'Your session has expired.' },
      }),
    });
    const router = renderAt(['/salesRep-dashboard/orders']);
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(getSession()).toBeNull();
    expect(localStorage.getItem('ims_token')).toBeNull();
    onUnauthorized(null);
  });

  it('shows a friendly page for an unknown address', async () => {
    renderAt(['/no-such-page']);
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe('/home');
  });
});
