import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { signIn, userOf } from '../test/helpers';
import { CrashPage } from './error-pages';

function Broken(): never {
  throw new Error('secret internal detail at line 42');
}

function renderCrash() {
  const router = createMemoryRouter([{ path: '/', Component: Broken, errorElement: <CrashPage /> }]);
  render(<RouterProvider router={router} />);
}

describe('CrashPage', () => {
  it('shows a friendly message without the error text, and a way back home', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderCrash();
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(document.body.textContent).not.toContain('secret internal detail');
    expect(screen.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe('/home');
    quiet.mockRestore();
  });

  it('offers a signed-in user their dashboard instead', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    signIn(userOf('admin'));
    renderCrash();
    const link = await screen.findByRole('link', { name: 'Back to your dashboard' });
    expect(link.getAttribute('href')).toBe('/admin-dashboard');
    quiet.mockRestore();
  });
});
