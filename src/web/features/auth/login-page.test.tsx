import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../../app/routes';
import { createQueryClient } from '../../lib/query-client';
import { getSession } from '../../lib/session';
import { mockFetch, userOf } from '../../test/helpers';
import { LoginForm } from './login-form';

function renderLogin() {
  const client = createQueryClient();
  const router = createMemoryRouter(appRoutes(client), { initialEntries: ['/login'] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

async function fillAndSubmit(email: string, password: string) {
  await userEvent.type(await screen.findByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
}

describe('Login', () => {
  it('is headed and titled with the product’s one name, Inventory MS, as is the public home page', async () => {
    renderLogin();
    expect(await screen.findByRole('heading', { level: 1, name: 'Inventory MS' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Login · Inventory MS'));
    cleanup();
    const client = createQueryClient();
    const router = createMemoryRouter(appRoutes(client), { initialEntries: ['/home'] });
    render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('link', { name: 'Inventory MS' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Inventory MS'));
    expect(document.body.textContent).not.toMatch(/RetailSalesXpert|Retail Sales Management System/);
  });

  it("reads 'Logging in...' while waiting, then stores the session and opens the role's dashboard", async () => {
    let answer: (value: { body: unknown }) => void = () => {};
    const user = userOf('salesRep');
    const { calls } = mockFetch({
      'POST /api/auth/login': () => new Promise((resolve) => (answer = resolve)),
      'GET /api/products': () => ({
        body: { success: true, products: [], categories: [], suppliers: [], total: 0 },
      }),
    });
    const router = renderLogin();
    await fillAndSubmit('Sam@Example.com', 'password123');
    const button = await screen.findByRole('button', { name: 'Logging in...' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    answer({ body: { success: true, token: 'tok', mustChangePassword: false, user } });
    expect(await screen.findByRole('heading', { name: 'Products' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/salesRep-dashboard');
    expect(calls[0]?.body).toEqual({ email: 'sam@example.com', password: 'password123' });
    expect(getSession()).toEqual({ token: 'tok', user });
    expect(localStorage.getItem('ims_token')).toBe('tok');
  });

  it('sends a user whose password was reset to Choose a new password, not their dashboard', async () => {
    const user = userOf('salesRep', { mustChangePassword: true });
    mockFetch({
      'POST /api/auth/login': () => ({
        body: { success: true, token: 'tok', mustChangePassword: true, user },
      }),
    });
    const router = renderLogin();
    await fillAndSubmit('sam@example.com', 'k7mq-3xtn-9bwe-p2fh');
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/change-password');
  });

  it("shows the server's sentence in red on wrong credentials", async () => {
    mockFetch({
      'POST /api/auth/login': () => ({
        status: 401,
        body: { success: false, error: 'Invalid email or password' },
      }),
    });
    const router = renderLogin();
    await fillAndSubmit('sam@example.com', 'wrong-password');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password');
    expect(router.state.location.pathname).toBe('/login');
    expect(getSession()).toBeNull();
  });

  it("says 'error occurred. Please try again.' when the server cannot be reached", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    renderLogin();
    await fillAndSubmit('sam@example.com', 'password123');
    expect((await screen.findByRole('alert')).textContent).toBe('error occurred. Please try again.');
  });

  it('asks for both fields before calling the server', async () => {
    const { calls } = mockFetch({});
    renderLogin();
    await userEvent.click(await screen.findByRole('button', { name: 'Login' }));
    expect(screen.getByText('Email is required.')).toBeTruthy();
    expect(screen.getByText('Password is required.')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('opens with the cursor in Email, and starts fetching the rest only once the visitor types', async () => {
    mockFetch({});
    const onStart = vi.fn();
    render(<LoginForm onSignedIn={() => {}} onHome={() => {}} onStart={onStart} />);
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    // The focus given on load is not the visitor starting: the page stays light (decision 0014).
    expect(onStart).not.toHaveBeenCalled();
    await userEvent.keyboard('s');
    await userEvent.type(screen.getByLabelText('Password'), 'pw');
    expect(onStart).toHaveBeenCalledTimes(1);
  });
});
