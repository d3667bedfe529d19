import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../test/helpers';

const SENTENCE = 'A new version of Inventory MS is ready.';

const takeOver = vi.fn(async () => {});
const reload = vi.fn();

/** The page as it opens (a fresh copy of the module, no offer left by another test), registered. */
async function openPage() {
  vi.resetModules();
  const { newVersionHandlers, UpdateNotice } = await import('./update-notice');
  render(<UpdateNotice />);
  return newVersionHandlers(takeOver);
}

beforeEach(() => {
  takeOver.mockClear();
  reload.mockClear();
  vi.stubGlobal('location', { ...window.location, reload });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the new version notice', () => {
  it('shows once a new version waits, and asks politely, without taking the focus', async () => {
    const registration = await openPage();
    expect(screen.queryByText(SENTENCE)).toBeNull();
    act(() => registration.onNeedRefresh());
    expect(screen.getByRole('status').textContent).toBe(SENTENCE);
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Later' })).toBeTruthy();
    expect(document.activeElement).toBe(document.body);
    expect(takeOver).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });

  it('Reload, from the keyboard too, lets the new version take over, and the page reloads once it has', async () => {
    const registration = await openPage();
    act(() => registration.onNeedRefresh());
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Reload' }));
    await userEvent.keyboard('{Enter}');
    expect(takeOver).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
    act(() => registration.onNeedReload());
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('Later hides it and leaves the page as it is', async () => {
    const registration = await openPage();
    act(() => registration.onNeedRefresh());
    await userEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByText(SENTENCE)).toBeNull();
    expect(takeOver).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });

  it("keeps this tab's page when another tab's Reload let the new version take over: it asks again", async () => {
    const registration = await openPage();
    act(() => registration.onNeedRefresh());
    await userEvent.click(screen.getByRole('button', { name: 'Later' }));
    act(() => registration.onNeedReload());
    expect(reload).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe(SENTENCE);
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
