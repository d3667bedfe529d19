import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../shared/audit';
import { listCalls, mockFetch, renderWithClient } from '../../test/helpers';
import { ActivityPage, describeChange } from './activity-page';

const ADA = { _id: 'ada-id', name: 'Ada Admin', role: 'admin' as const };
const SAM = { _id: 'sam-id', name: 'Sam Super', role: 'superAdmin' as const };

function entry(index: number, change: Partial<AuditEntry> = {}): AuditEntry {
  return {
    _id: `e${index}`,
    at: new Date(Date.UTC(2025, 4, 1, 12, 0) - index * 60_000).toISOString(),
    actor: ADA,
    action: 'updated',
    entity: { type: 'product', _id: `p${index}`, name: `Product ${String(index).padStart(3, '0')}` },
    changes: [{ field: 'stock', old: index, new: index + 1 }],
    ...change,
  };
}

const SAMPLE: AuditEntry[] = [
  entry(1, {
    entity: { type: 'product', _id: 'lamp', name: 'Desk Lamp' },
    changes: [
      { field: 'price', old: '9.99', new: '12.50' },
      { field: 'description', old: '', new: 'Warm light' },
    ],
  }),
  entry(2, {
    actor: SAM,
    action: 'updated',
    entity: { type: 'user', _id: SAM._id, name: SAM.name },
    changes: [{ field: 'password' }],
  }),
  entry(3, {
    actor: null,
    action: 'signInFailed',
    entity: { type: 'user', _id: null, name: 'stranger@example.com' },
    changes: undefined,
    address: '203.0.113.7',
  }),
  entry(4, {
    action: 'created',
    entity: { type: 'supplier', _id: 's1', name: 'Paper Mill' },
    changes: [
      { field: 'name', new: 'Paper Mill' },
      { field: 'email', new: 'orders@mill.test' },
    ],
  }),
];

/** The server's filtering and paging, over `entries`. */
function answer(entries: AuditEntry[], query: Record<string, string>) {
  const matches = entries.filter(
    (e) =>
      (!query.actor || e.actor?._id === query.actor) &&
      (!query.action || e.action === query.action) &&
      (!query.entity || e.entity.type === query.entity),
  );
  const page = Number(query.page ?? 1);
  const pageSize = Number(query.pageSize ?? 20);
  return {
    success: true,
    entries: matches.slice((page - 1) * pageSize, page * pageSize),
    total: matches.length,
    page,
    pageSize,
  };
}

function renderActivity(entries: AuditEntry[], { at = '/admin-dashboard/activity', failFirst = false } = {}) {
  let failures = failFirst ? 1 : 0;
  const mock = mockFetch({
    'GET /api/audit': ({ query }) => {
      if (failures > 0) {
        failures -= 1;
        return { status: 500, body: { success: false, error: 'Something went wrong on our side.' } };
      }
      return { body: answer(entries, query) };
    },
    'GET /api/audit/actors': () => ({ body: { success: true, actors: [ADA, SAM] } }),
  });
  const router = createMemoryRouter([{ path: '/admin-dashboard/activity', element: <ActivityPage /> }], {
    initialEntries: [at],
  });
  renderWithClient(<RouterProvider router={router} />);
  return { ...mock, router };
}

const table = () => screen.getByRole('table', { name: 'Activity' });
const bodyRows = () => within(table()).getAllByRole('row').slice(1) as HTMLTableRowElement[];
const auditCalls = (calls: Parameters<typeof listCalls>[0]) => listCalls(calls, '/api/audit');

describe('Activity', () => {
  it('shows who did what to which record, with each change as field: old → new', async () => {
    renderActivity(SAMPLE);
    expect(screen.getByRole('heading', { name: 'Activity', level: 1 })).toBeTruthy();
    await screen.findByText('Desk Lamp');
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Time', 'Who', 'Action', 'Entity', 'Changes']);
    const [lamp, password, failed, supplier] = bodyRows();
    expect(lamp?.cells[1]?.textContent).toBe('Ada AdminAdmin');
    expect(lamp?.cells[2]?.textContent).toBe('Changed');
    expect(lamp?.cells[3]?.textContent).toBe('ProductDesk Lamp');
    expect(within(lamp as HTMLElement).getByText('price: 9.99 → 12.50')).toBeTruthy();
    expect(within(lamp as HTMLElement).getByText('description: (empty) → Warm light')).toBeTruthy();
    expect(lamp?.querySelector('time')?.getAttribute('dateTime')).toBe(SAMPLE[0]?.at);
    expect(password?.cells[1]?.textContent).toBe('Sam SuperSuper Admin');
    expect(within(password as HTMLElement).getByText('password: changed')).toBeTruthy();
    expect(failed?.cells[1]?.textContent).toBe('Unknown');
    expect(failed?.cells[2]?.textContent).toBe('Sign-in failed');
    expect(failed?.cells[3]?.textContent).toBe('Userstranger@example.com');
    expect(within(failed as HTMLElement).getByText('from 203.0.113.7')).toBeTruthy();
    expect(supplier?.cells[2]?.textContent).toBe('Created');
    expect(within(supplier as HTMLElement).getByText('email: orders@mill.test')).toBeTruthy();
  });

  it('sends each filter to the server, starts again on page 1, and keeps the filters in the address', async () => {
    const { calls, router } = renderActivity(
      Array.from({ length: 60 }, (_, i) => entry(i + 1)).concat(SAMPLE),
      { at: '/admin-dashboard/activity?page=2' },
    );
    await screen.findByText('Product 051');
    expect(auditCalls(calls)[0]?.query).toEqual({ page: '2', pageSize: '50' });

    await userEvent.selectOptions(screen.getByLabelText('Entity'), 'Suppliers');
    await screen.findByText('Paper Mill');
    expect(bodyRows()).toHaveLength(1);
    expect(auditCalls(calls).at(-1)?.query).toEqual({ entity: 'supplier', page: '1', pageSize: '50' });
    expect(router.state.location.search).toBe('?entity=supplier');

    await waitFor(() => expect(within(screen.getByLabelText('Who')).getAllByRole('option')).toHaveLength(3));
    expect(
      within(screen.getByLabelText('Who'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Everyone', 'Ada Admin (Admin)', 'Sam Super (Super Admin)']);
    await userEvent.selectOptions(screen.getByLabelText('Who'), 'Sam Super (Super Admin)');
    await screen.findByText('No activity matches these filters.');
    expect(auditCalls(calls).at(-1)?.query).toMatchObject({ actor: SAM._id, entity: 'supplier' });

    await userEvent.selectOptions(screen.getByLabelText('Entity'), 'Everything');
    await userEvent.selectOptions(screen.getByLabelText('Action'), 'Changed');
    await screen.findByText('password: changed');
    expect(auditCalls(calls).at(-1)?.query).toEqual({
      actor: SAM._id,
      action: 'updated',
      page: '1',
      pageSize: '50',
    });

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await screen.findByText('Product 001');
    expect(router.state.location.search).toBe('');
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
  });

  it('reads the filters from the address and sends the dates as days', async () => {
    const { calls } = renderActivity(SAMPLE, {
      at: '/admin-dashboard/activity?entity=user&action=signInFailed&from=2025-04-01&to=2025-05-01&actor=',
    });
    await screen.findByText('stranger@example.com');
    expect(auditCalls(calls)[0]?.query).toEqual({
      action: 'signInFailed',
      entity: 'user',
      from: '2025-04-01',
      to: '2025-05-01',
      page: '1',
      pageSize: '50',
    });
    expect((screen.getByLabelText('Entity') as HTMLSelectElement).value).toBe('user');
    expect((screen.getByLabelText('Action') as HTMLSelectElement).value).toBe('signInFailed');
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2025-04-01');
    expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe('2025-05-01');
  });

  it('ignores values in the address that are not filters', async () => {
    const { calls } = renderActivity(SAMPLE, {
      at: '/admin-dashboard/activity?entity=orders&action=hacked&from=yesterday&page=-3',
    });
    await screen.findByText('Desk Lamp');
    expect(auditCalls(calls)[0]?.query).toEqual({ page: '1', pageSize: '50' });
  });

  it('a From date after the To date is pointed out and not sent', async () => {
    const { calls } = renderActivity(SAMPLE, {
      at: '/admin-dashboard/activity?from=2025-05-02&to=2025-05-01',
    });
    expect(await screen.findByText('Choose a From date on or before the To date.')).toBeTruthy();
    const to = screen.getByLabelText('To');
    expect(to.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Must be on or after the From date.').id).toBe(
      to.getAttribute('aria-describedby'),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(auditCalls(calls)).toHaveLength(0);
  });

  it('pages through a long log with Previous and Next', async () => {
    const { calls, router } = renderActivity(Array.from({ length: 120 }, (_, i) => entry(i + 1)));
    await screen.findByText('Product 001');
    expect(screen.getByText('Showing 1–50 of 120')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Product 051');
    expect(screen.getByText('Showing 51–100 of 120')).toBeTruthy();
    expect(router.state.location.search).toBe('?page=2');
    expect(auditCalls(calls).at(-1)?.query).toEqual({ page: '2', pageSize: '50' });
  });

  it('says so when there is no activity yet', async () => {
    renderActivity([]);
    expect(await screen.findByText('No activity yet.')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Activity pages' })).toBeNull();
  });

  it('shows the reason when the log cannot be loaded, and Try again asks once more', async () => {
    renderActivity(SAMPLE, { failFirst: true });
    expect(
      await screen.findByText('The activity could not be loaded: Something went wrong on our side.'),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Desk Lamp')).toBeTruthy();
  });
});

describe('describeChange', () => {
  it('writes an update as old → new, a creation or deletion as one value, and a secret as changed', () => {
    expect(describeChange({ field: 'price', old: '9.99', new: '12.50' })).toBe('price: 9.99 → 12.50');
    expect(describeChange({ field: 'stock', new: 4 })).toBe('stock: 4');
    expect(describeChange({ field: 'name', old: 'Gone' })).toBe('name: Gone');
    expect(describeChange({ field: 'password' })).toBe('password: changed');
    expect(describeChange({ field: 'role', old: 'salesRep', new: 'user' })).toBe(
      'role: Sales Rep. → Employee',
    );
    expect(describeChange({ field: 'note', old: null, new: 'x'.repeat(200) })).toBe(
      `note: (none) → ${'x'.repeat(79)}…`,
    );
  });
});
