import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../../shared/roles';
import type { CreditEntry } from '../../../shared/till';
import { formatDateTime } from '../../lib/format';
import { homePathFor } from '../../lib/role-home';
import { SignedInContext } from '../../lib/signed-in';
import { customer } from '../../test/fixtures';
import { type FetchCall, listCalls, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { CustomerPage } from './customer-page';

const ADA = customer('ada', 'Ada Lovelace', { createdAt: '2025-01-10T09:00:00.000Z' });

/** 12 entries, newest first: a refund gave 10, sales spent 1 each, an admin took or gave the rest. */
function entry(at: number, overrides: Partial<CreditEntry>): CreditEntry {
  return {
    _id: `e${at}`,
    at: `2025-06-${String(20 - at).padStart(2, '0')}T12:00:00.000Z`,
    amount: -1,
    kind: 'sale',
    sale: null,
    refund: null,
    user: { _id: 'salesRep-id', name: 'Test salesRep' },
    note: '',
    balanceAfter: 0,
    ...overrides,
  };
}
const ENTRIES: CreditEntry[] = [
  entry(0, {
    amount: -2.5,
    kind: 'adjustment',
    user: { _id: 'a', name: 'Test admin' },
    note: 'Correction',
    balanceAfter: 12.5,
  }),
  entry(1, { amount: -1, kind: 'sale', sale: { _id: 'sale-7', number: 7 }, balanceAfter: 15 }),
  entry(2, { amount: 10, kind: 'refund', refund: { _id: 'r-3', number: 3 }, note: '', balanceAfter: 16 }),
  ...Array.from({ length: 9 }, (_, at) =>
    entry(at + 3, { amount: 0.5, kind: 'adjustment', note: `Goodwill ${at}`, balanceAfter: 6 - at * 0.5 }),
  ),
];

type Reply = { status?: number; body: unknown };

function creditPage(balance: number, entries: readonly CreditEntry[]) {
  return ({ query }: FetchCall): Reply => {
    const page = Number(query.page ?? 1);
    const pageSize = Number(query.pageSize ?? 10);
    return {
      body: {
        success: true,
        balance,
        entries: entries.slice((page - 1) * pageSize, page * pageSize),
        total: entries.length,
        page,
        pageSize,
      },
    };
  };
}

function renderAt(role: Role, credit: (call: FetchCall) => Reply | Promise<Reply>, extra = {}) {
  const me = userOf(role);
  signIn(me);
  const area = homePathFor(role);
  const mock = mockFetch({
    'GET /api/customers/ada': () => ({
      body: {
        success: true,
        customer: ADA,
        summary: { sales: 0, totalSpent: 0, lastPurchaseAt: null, creditBalance: 0 },
      },
    }),
    'GET /api/sales': () => ({ body: { success: true, sales: [], total: 0, page: 1, pageSize: 20 } }),
    'GET /api/customers/ada/credit': credit,
    ...extra,
  });
  const router = createMemoryRouter(
    [
      {
        path: `${area}/customers/:id`,
        element: (
          <SignedInContext value={me}>
            <CustomerPage />
          </SignedInContext>
        ),
      },
    ],
    { initialEntries: [`${area}/customers/ada`] },
  );
  renderWithClient(<RouterProvider router={router} />);
  return { ...mock, user: userEvent.setup() };
}

const section = () => screen.getByRole('region', { name: 'Store credit' });
const history = () => within(section()).getByRole('table', { name: 'Store credit history, newest first' });
const rows = () =>
  within(history())
    .getAllByRole('row')
    .slice(1)
    .map((row) => Array.from((row as HTMLTableRowElement).cells, (cell) => cell.textContent));
const balance = () => within(section()).queryByRole('status', { name: 'Balance' })?.textContent;

describe('store credit on a customer’s page', () => {
  it('shows the balance and the history, newest first, paged: kind, sale or refund, who, note and balance after', async () => {
    const { calls, user } = renderAt('admin', creditPage(12.5, ENTRIES));
    await waitFor(() => expect(balance()).toBe('$12.50'));
    expect(rows().slice(0, 3)).toEqual([
      [
        formatDateTime(ENTRIES[0]?.at ?? ''),
        'Adjustment',
        '—',
        'By Test admin',
        'Correction',
        '−$2.50',
        'Balance $12.50',
      ],
      [
        formatDateTime(ENTRIES[1]?.at ?? ''),
        'Sale',
        'S-000007',
        'By Test salesRep',
        '',
        '−$1.00',
        'Balance $15.00',
      ],
      [
        formatDateTime(ENTRIES[2]?.at ?? ''),
        'Refund',
        'R-000003',
        'By Test salesRep',
        '',
        '+$10.00',
        'Balance $16.00',
      ],
    ]);
    // An admin opens any receipt.
    expect(within(history()).getByRole('link', { name: 'S-000007' }).getAttribute('href')).toBe(
      '/admin-dashboard/sales/sale-7',
    );
    expect(rows()).toHaveLength(10);
    expect(listCalls(calls, '/api/customers/ada/credit')[0]?.query).toEqual({ page: '1', pageSize: '10' });
    await user.click(within(section()).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()[1]?.[4]).toBe('Goodwill 8');
    expect(listCalls(calls, '/api/customers/ada/credit').at(-1)?.query).toEqual({
      page: '2',
      pageSize: '10',
    });
  });

  it('says when there is none yet, while it loads, and when it failed (never as empty), with Try again', async () => {
    let attempt = 0;
    let release: () => void = () => {};
    const { user } = renderAt('salesRep', async () => {
      attempt += 1;
      if (attempt === 1) {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return { status: 500, body: { success: false, error: 'The database is resting.' } };
      }
      return creditPage(0, [])({ query: {} } as FetchCall);
    });
    expect(await screen.findByText('Loading store credit...')).toBeTruthy();
    release();
    const alert = await within(section()).findByRole('alert');
    expect(alert.textContent).toBe('The store credit could not be loaded: The database is resting.');
    expect(within(section()).queryByText('No store credit yet.')).toBeNull();
    await user.click(within(section()).getByRole('button', { name: 'Try again' }));
    expect(await within(section()).findByText('No store credit yet.')).toBeTruthy();
    expect(balance()).toBe('$0.00');
  });

  it('a sales rep sees the credit but no Adjust credit, and the receipts are not links', async () => {
    renderAt('salesRep', creditPage(12.5, ENTRIES));
    await waitFor(() => expect(balance()).toBe('$12.50'));
    expect(within(section()).queryByRole('button', { name: 'Adjust credit' })).toBeNull();
    expect(within(history()).queryByRole('link')).toBeNull();
    expect(within(history()).getByText('S-000007')).toBeTruthy();
  });

  it('an admin adjusts the credit: checks the input, shows the 409 sentence in the dialog, then refreshes the balance and the history', async () => {
    let current = 12.5;
    let entries = ENTRIES.slice(0, 3);
    const { calls, user } = renderAt('admin', (call) => creditPage(current, entries)(call), {
      'POST /api/customers/ada/credit': ({ body }: FetchCall) => {
        const { amount, note } = body as { amount: number; note: string };
        if (current + amount < 0)
          return {
            status: 409,
            body: { success: false, error: 'Store credit cannot go below 0: Ada Lovelace has $12.50.' },
          };
        current += amount;
        const added = entry(-1, { amount, kind: 'adjustment', note, balanceAfter: current });
        entries = [added, ...entries];
        return { body: { success: true, balance: current, entry: added } };
      },
    });
    await waitFor(() => expect(balance()).toBe('$12.50'));
    await user.click(within(section()).getByRole('button', { name: 'Adjust credit' }));
    const dialog = screen.getByRole('dialog', { name: 'Adjust store credit' });
    expect(within(dialog).getByText("Ada Lovelace's balance is $12.50.")).toBeTruthy();
    // The first field has the focus; the amount and note are checked before sending.
    expect(document.activeElement).toBe(within(dialog).getByRole('radio', { name: 'Give credit (+)' }));
    await user.type(within(dialog).getByLabelText('Amount'), '1.234');
    await user.click(within(dialog).getByRole('button', { name: 'Adjust credit' }));
    expect(within(dialog).getByText('The amount has at most 2 decimals.')).toBeTruthy();
    expect(within(dialog).getByText('A note is required.')).toBeTruthy();
    await user.clear(within(dialog).getByLabelText('Amount'));
    await user.type(within(dialog).getByLabelText('Amount'), 'abc');
    await user.click(within(dialog).getByRole('button', { name: 'Adjust credit' }));
    expect(within(dialog).getByText('Enter the amount like 5 or 5.50.')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    await user.click(within(dialog).getByRole('radio', { name: 'Take credit (−)' }));
    await user.clear(within(dialog).getByLabelText('Amount'));
    await user.type(within(dialog).getByLabelText('Amount'), '20');
    await user.type(within(dialog).getByLabelText('Note'), 'Closing the account');
    await user.click(within(dialog).getByRole('button', { name: 'Adjust credit' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Store credit cannot go below 0: Ada Lovelace has $12.50.',
    );
    await user.clear(within(dialog).getByLabelText('Amount'));
    await user.type(within(dialog).getByLabelText('Amount'), '2.5{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => call.body)).toEqual([
      { amount: -20, note: 'Closing the account' },
      { amount: -2.5, note: 'Closing the account' },
    ]);
    // Each adjustment is its own: a new Idempotency-Key after the refusal.
    expect(posts[0]?.headers['Idempotency-Key']).toBeTruthy();
    expect(posts[1]?.headers['Idempotency-Key']).not.toBe(posts[0]?.headers['Idempotency-Key']);
    await waitFor(() => expect(balance()).toBe('$10.00'));
    await waitFor(() =>
      expect(rows()[0]?.slice(1)).toEqual([
        'Adjustment',
        '—',
        'By Test salesRep',
        'Closing the account',
        '−$2.50',
        'Balance $10.00',
      ]),
    );
    expect(screen.getByText('Store credit adjusted: Ada Lovelace now has $10.00.')).toBeTruthy();
  });
});
