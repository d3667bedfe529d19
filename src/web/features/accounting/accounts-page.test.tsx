import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Account } from '../../../shared/accounting';
import { atViewport } from '../../test/viewport';
import {
  account,
  answerAccounts,
  CHART,
  callsTo,
  OLD,
  RENT,
  refusal,
  renderAccounting,
  TILL,
} from './accounting-test-data';

const PATH = '/admin-dashboard/accounting';
const table = () => screen.findByRole('table', { name: 'Chart of accounts, by code' });
const bodyRows = (element: HTMLElement) => within(element).getAllByRole('row').slice(1);
const rowOf = (element: HTMLElement, code: string) =>
  bodyRows(element).find((row) => row.textContent?.startsWith(code)) as HTMLElement;

describe('the chart of accounts', () => {
  it('says it is loading, then lists code, name (its ledger), type, balance and status by code', async () => {
    renderAccounting(PATH, { 'GET /api/accounting/accounts': () => answerAccounts() });
    const list = await table();
    expect(within(list).getByText('Loading the chart of accounts...')).toBeTruthy();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(CHART.length));
    expect(
      within(list)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Code', 'Name', 'Type', 'Balance', 'Status', 'Actions']);
    const till = rowOf(list, '1000');
    expect(till.textContent).toBe('10001000 Till cashAsset$120.50ActiveSystemRenameStays active');
    expect(within(till).getByRole('link', { name: '1000 Till cash' }).getAttribute('href')).toBe(
      '/admin-dashboard/accounting/accounts/acc-1000',
    );
    // A system account cannot be deactivated: no button, and the reason instead.
    expect(within(till).queryByRole('button', { name: /Deactivate/ })).toBeNull();
    expect(rowOf(list, '1050').textContent).toContain('-$150.00');
    const rent = rowOf(list, '6200');
    expect(rent.textContent).toBe('62006200 RentExpense$0.00ActiveRenameDeactivate');
    expect(
      within(rowOf(list, '6300')).getByRole('button', { name: 'Reactivate 6300 Old fees' }),
    ).toBeTruthy();
    expect(rowOf(list, '6300').textContent).toContain('Inactive');
  });

  it('adds an account with its code, name and type, once per submit, and shows the refusal of a code taken', async () => {
    let chart: Account[] = [...CHART];
    let taken = true;
    const { calls } = renderAccounting(PATH, {
      'GET /api/accounting/accounts': () => answerAccounts(chart),
      'POST /api/accounting/accounts': (call) => {
        if (taken) {
          taken = false;
          return refusal(409, 'ACCOUNT_CODE_TAKEN', 'Account 6200 already exists.');
        }
        const made = account('6400', 'Cleaning', { type: 'expense' });
        chart = [...chart, made];
        expect(call.body).toEqual({ code: '6400', name: 'Cleaning', type: 'expense' });
        return { status: 201, body: { success: true, account: made } };
      },
    });
    await waitFor(async () => expect(bodyRows(await table())).toHaveLength(CHART.length));
    await userEvent.click(screen.getByRole('button', { name: 'Add account' }));
    const dialog = screen.getByRole('dialog', { name: 'Add account' });
    // Nothing typed: the form says what is missing and sends nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add account' }));
    expect(
      await within(dialog).findByText(
        'code must be 1–20 letters, digits, dots or dashes, starting with a letter or digit.',
      ),
    ).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/accounting/accounts')).toEqual([]);

    await userEvent.type(within(dialog).getByLabelText('Code'), '6200');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Cleaning');
    await userEvent.selectOptions(within(dialog).getByLabelText('Type'), 'Expense');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add account' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Account 6200 already exists.');

    await userEvent.clear(within(dialog).getByLabelText('Code'));
    await userEvent.type(within(dialog).getByLabelText('Code'), '6400');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add account' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('6400 Cleaning added.')).toBeTruthy();
    await waitFor(async () => expect(bodyRows(await table())).toHaveLength(CHART.length + 1));
    const posts = callsTo(calls, 'POST', '/api/accounting/accounts');
    expect(posts).toHaveLength(2);
    // Each submit of something else is a new request: a new key.
    expect(posts[0]?.headers['Idempotency-Key']).toBeTruthy();
    expect(posts[1]?.headers['Idempotency-Key']).not.toBe(posts[0]?.headers['Idempotency-Key']);
  });

  it('deactivates and reactivates an account the postings do not use, and shows a refusal’s sentence', async () => {
    let chart: Account[] = [...CHART];
    let refuse = true;
    const { calls } = renderAccounting(PATH, {
      'GET /api/accounting/accounts': () => answerAccounts(chart),
      'PUT /api/accounting/accounts/*': (call) => {
        if (refuse) {
          refuse = false;
          return refusal(409, 'ACCOUNT_SYSTEM', '6200 Rent is used by the postings and stays active.');
        }
        const id = call.path.split('/').at(-1);
        chart = chart.map((one) => (one._id === id ? { ...one, ...(call.body as object) } : one));
        return { body: { success: true, account: chart.find((one) => one._id === id) } };
      },
    });
    const list = await table();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(CHART.length));
    await userEvent.click(within(list).getByRole('button', { name: 'Deactivate 6200 Rent' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      '6200 Rent is used by the postings and stays active.',
    );
    await userEvent.click(within(list).getByRole('button', { name: 'Deactivate 6200 Rent' }));
    expect(await screen.findByText('6200 Rent deactivated.')).toBeTruthy();
    expect(await within(list).findByRole('button', { name: 'Reactivate 6200 Rent' })).toBeTruthy();
    expect(screen.queryByText('6200 Rent is used by the postings and stays active.')).toBeNull();
    await userEvent.click(within(list).getByRole('button', { name: `Reactivate ${OLD.code} ${OLD.name}` }));
    await waitFor(() =>
      expect(callsTo(calls, 'PUT', `/api/accounting/accounts/${OLD._id}`).map((call) => call.body)).toEqual([
        { active: true },
      ]),
    );
    expect(callsTo(calls, 'PUT', `/api/accounting/accounts/${RENT._id}`).map((call) => call.body)).toEqual([
      { active: false },
      { active: false },
    ]);
  });

  it('renames an account, a system one too', async () => {
    let chart: Account[] = [...CHART];
    const { calls } = renderAccounting(PATH, {
      'GET /api/accounting/accounts': () => answerAccounts(chart),
      'PUT /api/accounting/accounts/*': (call) => {
        chart = chart.map((one) => (one._id === TILL._id ? { ...one, ...(call.body as object) } : one));
        return { body: { success: true, account: chart[0] } };
      },
    });
    const list = await table();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(CHART.length));
    await userEvent.click(within(list).getByRole('button', { name: 'Rename 1000 Till cash' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename 1000 Till cash' });
    const name = within(dialog).getByLabelText('Name');
    expect((name as HTMLInputElement).value).toBe('Till cash');
    await userEvent.clear(name);
    await userEvent.type(name, 'Drawer cash');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('1000 is now Drawer cash.')).toBeTruthy();
    expect(callsTo(calls, 'PUT', `/api/accounting/accounts/${TILL._id}`).map((call) => call.body)).toEqual([
      { name: 'Drawer cash' },
    ]);
    expect(await within(list).findByRole('link', { name: '1000 Drawer cash' })).toBeTruthy();
  });

  it('shows why the chart could not be loaded (never as an empty one), and tries again on request', async () => {
    let failures = 1;
    renderAccounting(PATH, {
      'GET /api/accounting/accounts': () =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'An internal error occurred.' } }
          : answerAccounts([TILL]),
    });
    const list = await table();
    expect((await within(list).findByRole('alert')).textContent).toBe(
      'The chart of accounts could not be loaded: An internal error occurred.',
    );
    expect(within(list).queryByText('No accounts yet.')).toBeNull();
    await userEvent.click(within(list).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(bodyRows(list)).toHaveLength(1));
  });

  it('stacks each account as a card on a phone, the headers kept for screen readers', async () => {
    atViewport(375);
    renderAccounting(PATH, { 'GET /api/accounting/accounts': () => answerAccounts([TILL]) });
    const list = await table();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(1));
    expect(list.querySelector('thead')?.className).toContain('max-sm:sr-only');
    expect(bodyRows(list)[0]?.className).toContain('max-sm:grid');
  });
});
