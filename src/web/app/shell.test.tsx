import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SignedInContext } from '../lib/signed-in';
import { userOf } from '../test/helpers';
import { atViewport } from '../test/viewport';
import { MENUS } from './navigation';
import { AppShell } from './shell';

function renderShell() {
  const admin = userOf('admin', { name: 'Alex Admin' });
  const page = (title: string) => <h1>{title}</h1>;
  const router = createMemoryRouter(
    [
      {
        element: <AppShell />,
        children: [
          { path: '/admin-dashboard', element: page('Dashboard page') },
          { path: '/admin-dashboard/products', element: page('Products page') },
          { path: '/admin-dashboard/orders', element: page('Orders page') },
        ],
      },
    ],
    { initialEntries: ['/admin-dashboard'] },
  );
  render(
    <SignedInContext value={admin}>
      <RouterProvider router={router} />
    </SignedInContext>,
  );
  return router;
}

describe('the menu on a phone', () => {
  it('opens from the Menu button as a dialog listing every item of the role by name', async () => {
    atViewport(375);
    renderShell();
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Menu' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const links = within(within(dialog).getByRole('navigation', { name: 'Main' })).getAllByRole('link');
    // Built from the role's menu, each link's visible text its name.
    expect(links.map((link) => link.textContent)).toEqual(MENUS.admin.map((item) => item.label));
    expect(within(dialog).getByText('Alex Admin')).toBeTruthy();
    // Focus moves into the menu.
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('closes on navigation, showing the page chosen with focus on it', async () => {
    atViewport(375);
    const router = renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Menu' })).getByRole('link', { name: 'Orders' }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/admin-dashboard/orders');
    expect(screen.getByRole('heading', { name: 'Orders page' })).toBeTruthy();
    expect(document.activeElement?.id).toBe('main');
  });

  it('stays open while the page writes its list into its own address, and closes on Back to another page', async () => {
    atViewport(375);
    const router = renderShell();
    // Inside act, so the page has rendered its new address before the menu opens.
    await act(() => router.navigate('/admin-dashboard/products'));
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    // A search typed just before: the list replaces its address with ?q=… a moment later.
    await act(() => router.navigate('/admin-dashboard/products?q=pens', { replace: true }));
    expect(screen.getByRole('dialog', { name: 'Menu' })).toBeTruthy();
    await act(() => router.navigate(-1));
    expect(router.state.location.pathname).toBe('/admin-dashboard');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes on Escape and on Close, giving focus back to the Menu button', async () => {
    atViewport(375);
    renderShell();
    const button = screen.getByRole('button', { name: 'Menu' });
    await userEvent.click(button);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
    await userEvent.click(button);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('closes on a tap beside the panel, not on one inside it', async () => {
    atViewport(375);
    renderShell();
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    const dialog = screen.getByRole('dialog', { name: 'Menu' });
    await userEvent.click(within(dialog).getByText('Alex Admin'));
    expect(screen.getByRole('dialog', { name: 'Menu' })).toBeTruthy();
    await userEvent.click(dialog.parentElement as HTMLElement);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('the sidebar', () => {
  it('writes every item’s name beside its icon, not only in a tooltip', () => {
    atViewport(1280);
    renderShell();
    const links = within(screen.getByRole('navigation', { name: 'Main' })).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(MENUS.admin.map((item) => item.label));
    for (const link of links) {
      expect(link.querySelector('.sr-only')).toBeNull();
      expect(link.getAttribute('title')).toBeNull();
    }
  });
});
