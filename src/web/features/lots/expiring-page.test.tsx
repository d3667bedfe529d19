import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, expiringAnswer, expiringLot, renderLots } from './lots-test-data';

afterEach(() => vi.restoreAllMocks());

/** An expired lot, one expiring in 5 days, one in 40, and one without expiry (never listed). */
const lots = [
  expiringLot('l1', 'OLD-1', '2026-11-20', {
    product: { _id: 'p1', name: 'Aspirin 500' },
    quantity: 3,
    value: 4.5,
  }),
  expiringLot('l2', 'A12', '2026-12-03', {
    product: { _id: 'p2', name: 'Cough syrup' },
    quantity: 12,
    value: 60,
  }),
  expiringLot('l3', 'B7', '2027-01-07', {
    product: { _id: 'p1', name: 'Aspirin 500' },
    quantity: 20,
    value: 30,
  }),
  expiringLot('l4', 'FOREVER', null),
];

const table = () => screen.findByRole('table', { name: /^Lots expiring within/ });
const bodyRows = (element: HTMLElement) => within(element).getAllByRole('row').slice(1);
const asked = (calls: Parameters<typeof callsTo>[0]) =>
  callsTo(calls, 'GET', '/api/lots/expiring').map((call) => call.query);

describe('the expiring lots list', () => {
  it('a location picked asks ?location=, keeps it in the address and in the CSV', async () => {
    const { calls, router } = renderLots('/admin-dashboard/lots/expiring', {
      'GET /api/lots/expiring': expiringAnswer(lots),
    });
    await table();
    const picker = screen.getByLabelText('Location');
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(3));
    await userEvent.selectOptions(picker, 'loc-room');
    await waitFor(() => expect(asked(calls).at(-1)).toMatchObject({ location: 'loc-room' }));
    expect(router.state.location.search).toBe('?location=loc-room');
    await userEvent.selectOptions(picker, '');
    await waitFor(() => expect(asked(calls).at(-1)).not.toHaveProperty('location'));
  });

  it('says so when the locations cannot be loaded, and the list still shows', async () => {
    renderLots('/admin-dashboard/lots/expiring', {
      'GET /api/lots/expiring': expiringAnswer(lots),
      'GET /api/locations': () => ({ status: 500, body: { success: false, error: 'Boom' } }),
    });
    const list = await table();
    expect(await screen.findByText('Locations could not be loaded.')).toBeTruthy();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(2));
  });

  it('asks for 30 days and shows product, lot (its trace), expiry in words, units and value, and the totals', async () => {
    const { calls } = renderLots('/admin-dashboard/lots/expiring', {
      'GET /api/lots/expiring': expiringAnswer(lots),
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Expiring lots' })).toBeTruthy();
    const list = await table();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(2));
    expect(asked(calls)).toEqual([{ days: '30', page: '1', pageSize: '50' }]);
    expect(
      within(list)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Product', 'Lot', 'Expires', 'Units', 'Value at cost']);
    const [expired, soon] = bodyRows(list) as [HTMLElement, HTMLElement];
    expect(within(expired).getByRole('link', { name: 'Aspirin 500' }).getAttribute('href')).toBe(
      '/admin-dashboard/products/p1/stock',
    );
    expect(
      within(expired).getByRole('link', { name: 'Lot OLD-1 of Aspirin 500: its trace' }).getAttribute('href'),
    ).toBe('/admin-dashboard/lots/l1');
    expect(expired.textContent).toContain('Nov 20, 2026');
    // The state in words and by colour.
    const expiredState = within(expired).getByText('Expired');
    expect(expiredState.getAttribute('data-state')).toBe('expired');
    expect(expiredState.className).toContain('bg-red-100');
    expect(expired.textContent).toMatch(/3.*\$4\.50$/);
    const soonState = within(soon).getByText('Expires soon');
    expect(soonState.className).toContain('bg-amber-100');
    expect(soon.textContent).toMatch(/Dec 3, 2026.*12.*\$60\.00$/);

    const totals = screen.getByRole('region', { name: 'Totals' });
    expect(totals.textContent).toContain(
      'Expired or expiring on or before 2026-12-28 (today is 2026-11-28).',
    );
    expect(within(totals).getByText('Lots').nextElementSibling?.textContent).toBe('2');
    expect(within(totals).getByText('Units').nextElementSibling?.textContent).toBe('15');
    expect(within(totals).getByText('Value at cost').nextElementSibling?.textContent).toBe('$64.50');
  });

  it('changes the window with a press or a typed number, and keeps it in the address', async () => {
    const { calls, router } = renderLots('/admin-dashboard/lots/expiring', {
      'GET /api/lots/expiring': expiringAnswer(lots),
    });
    const list = await table();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(2));
    const thirty = screen.getByRole('button', { name: '30 days' });
    expect(thirty.getAttribute('aria-pressed')).toBe('true');

    await userEvent.click(screen.getByRole('button', { name: '60 days' }));
    await waitFor(() => expect(router.state.location.search).toBe('?days=60'));
    await waitFor(() => expect(bodyRows(list)).toHaveLength(3));
    expect(screen.getByRole('button', { name: '60 days' }).getAttribute('aria-pressed')).toBe('true');
    expect(thirty.getAttribute('aria-pressed')).toBe('false');
    expect((screen.getByLabelText('Or days ahead (1–365)') as HTMLInputElement).value).toBe('60');

    const box = screen.getByLabelText('Or days ahead (1–365)');
    await userEvent.clear(box);
    await userEvent.type(box, '3{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?days=3'));
    // The expired lot stays on every window.
    await waitFor(() => expect(bodyRows(list)).toHaveLength(1));
    expect(bodyRows(list)[0]?.textContent).toContain('OLD-1');
    for (const window of [7, 30, 60, 90])
      expect(screen.getByRole('button', { name: `${window} days` }).getAttribute('aria-pressed')).toBe(
        'false',
      );
    expect(asked(calls)).toEqual([
      { days: '30', page: '1', pageSize: '50' },
      { days: '60', page: '1', pageSize: '50' },
      { days: '3', page: '1', pageSize: '50' },
    ]);
  });

  it('refuses a typed window outside 1–365 or not a whole number, and asks nothing', async () => {
    const { calls, router } = renderLots('/admin-dashboard/lots/expiring', {
      'GET /api/lots/expiring': expiringAnswer(lots),
    });
    await table();
    await waitFor(() => expect(asked(calls)).toHaveLength(1));
    const box = screen.getByLabelText('Or days ahead (1–365)');
    for (const typed of ['0', '366', '2.5', '-4', '']) {
      await userEvent.clear(box);
      if (typed) await userEvent.type(box, typed);
      await userEvent.click(screen.getByRole('button', { name: 'Show' }));
      expect(screen.getByText('Enter a whole number of days from 1 to 365.')).toBeTruthy();
      expect(box.getAttribute('aria-invalid')).toBe('true');
    }
    expect(router.state.location.search).toBe('');
    expect(asked(calls)).toHaveLength(1);
    // A good number clears the message.
    await userEvent.clear(box);
    await userEvent.type(box, '365');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(router.state.location.search).toBe('?days=365'));
    expect(screen.queryByText('Enter a whole number of days from 1 to 365.')).toBeNull();
  });

  it('opens on the window and page the address names, pages as other lists, and a new window starts on page 1; an unreadable window is 30 days', async () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      expiringLot(`m${i}`, `M${i}`, '2026-12-01', { quantity: 1, value: 1 }),
    );
    const first = renderLots('/admin-dashboard/lots/expiring?days=90&page=2', {
      'GET /api/lots/expiring': expiringAnswer(many),
    });
    const list = await table();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(10));
    expect(asked(first.calls)).toEqual([{ days: '90', page: '2', pageSize: '50' }]);
    expect(screen.getByText('Showing 51–60 of 60')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(first.router.state.location.search).toBe('?days=90'));
    await waitFor(() => expect(screen.getByText('Showing 1–50 of 60')).toBeTruthy());
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(first.router.state.location.search).toBe('?days=90&page=2'));
    // Another window starts on its first page.
    await userEvent.click(screen.getByRole('button', { name: '7 days' }));
    await waitFor(() => expect(first.router.state.location.search).toBe('?days=7'));
    await waitFor(() => expect(screen.getByText('Showing 1–50 of 60')).toBeTruthy());
    first.router.dispose();

    for (const days of ['0', '366', 'x', '1e3', '']) {
      const opened = renderLots(`/admin-dashboard/lots/expiring?days=${days}`, {
        'GET /api/lots/expiring': expiringAnswer(lots),
      });
      await waitFor(() => expect(asked(opened.calls)).toHaveLength(1));
      expect(asked(opened.calls)[0]?.days).toBe('30');
      opened.router.dispose();
    }
  });

  it('says nothing expires in the window, with one day said as one', async () => {
    renderLots('/admin-dashboard/lots/expiring?days=1', { 'GET /api/lots/expiring': expiringAnswer([]) });
    const list = await table();
    expect(await within(list).findByText('Nothing expires in the next 1 day.')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Totals' })).toBeNull();
  });

  it('shows why the list could not be loaded, and Try again loads it', async () => {
    let failures = 1;
    renderLots('/admin-dashboard/lots/expiring', {
      'GET /api/lots/expiring': (call) =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'The database is resting.' } }
          : expiringAnswer(lots)(call),
    });
    const list = await table();
    expect((await within(list).findByRole('alert')).textContent).toBe(
      'The expiring lots could not be loaded: The database is resting.',
    );
    expect(within(list).queryByText(/Nothing expires/)).toBeNull();
    await userEvent.click(within(list).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(bodyRows(list)).toHaveLength(2));
  });

  it('downloads the window as CSV, without its page', async () => {
    const { calls } = renderLots('/admin-dashboard/lots/expiring?days=7&page=2', {
      'GET /api/lots/expiring': (call) =>
        call.query.format === 'csv' ? { body: 'Product,Lot\r\n' } : expiringAnswer(lots)(call),
    });
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }),
    );
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await table();
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toEqual(['expiring-lots-7-days.csv']));
    expect(asked(calls).filter((query) => query.format)).toEqual([{ days: '7', format: 'csv' }]);
  });

  it('is worked from the keyboard: Tab to a window, Enter or Space presses it; Enter in the box shows it', async () => {
    const { router } = renderLots('/admin-dashboard/lots/expiring', {
      'GET /api/lots/expiring': expiringAnswer(lots),
    });
    await table();
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Download CSV' }));
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '7 days' }));
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?days=7'));
    await userEvent.tab();
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '60 days' }));
    await userEvent.keyboard(' ');
    await waitFor(() => expect(router.state.location.search).toBe('?days=60'));
    await userEvent.tab();
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Or days ahead (1–365)'));
    await userEvent.keyboard('{Control>}a{/Control}45{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?days=45'));
  });
});
