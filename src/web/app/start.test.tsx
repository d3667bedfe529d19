import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, userOf } from '../test/helpers';

let root: Root | undefined;

/** Opens the page at `path` as the browser would: a fresh copy of the app, started by main.tsx. */
async function openAt(path: string) {
  window.history.replaceState(null, '', path);
  vi.resetModules();
  const { start } = await import('./start');
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() => start(root as Root));
}

beforeEach(() => {
  mockFetch({});
});

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});

describe('the page opened at /login', () => {
  it("shows the form on its own, then hands the page to the app at the role's dashboard once signed in", async () => {
    const user = userOf('salesRep');
    const { calls } = mockFetch({
      'POST /api/auth/login': () => ({
        body: { success: true, token: 'tok', mustChangePassword: false, user },
      }),
      'GET /api/products': () => ({
        body: { success: true, products: [], categories: [], suppliers: [], total: 0 },
      }),
    });
    await openAt('/login');
    await userEvent.type(await screen.findByLabelText('Email'), ' Sam@Example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'password123');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('heading', { name: 'Products' }, { timeout: 5_000 })).toBeTruthy();
    expect(window.location.pathname).toBe('/salesRep-dashboard');
    expect(calls[0]?.body).toEqual({ email: 'sam@example.com', password: 'password123' });
    expect(localStorage.getItem('ims_token')).toBe('tok');
    expect(JSON.parse(localStorage.getItem('ims_user') ?? '{}')).toEqual(user);
  });

  it('follows "Back to the home page" into the app, on the landing page', async () => {
    await openAt('/login');
    await userEvent.click(await screen.findByRole('link', { name: 'Back to the home page' }));
    expect(
      await screen.findByRole('heading', { name: 'Simplify your Retail Operations.' }, { timeout: 5_000 }),
    ).toBeTruthy();
    expect(window.location.pathname).toBe('/home');
  });

  it("sends a user who is already signed in to their dashboard through the app's login route", async () => {
    const user = userOf('admin');
    localStorage.setItem('ims_token', 'tok');
    localStorage.setItem('ims_user', JSON.stringify(user));
    mockFetch({ 'GET /api/dashboard': () => new Promise(() => {}) });
    await openAt('/login');
    await vi.waitFor(() => expect(window.location.pathname).toBe('/admin-dashboard'), { timeout: 5_000 });
  });
});
