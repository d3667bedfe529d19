import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answerCheck, callsTo, refusal, renderAccounting } from './accounting-test-data';
import { isMoneyCheck } from './books-check-page';

const BASE = '/admin-dashboard/accounting';

const CHECKS = [
  { name: 'Every entry balances', ok: true, expected: 0, actual: 0 },
  { name: 'The trial balance is zero', ok: true, expected: 0, actual: 0 },
  { name: '1300 Inventory = the stock’s value', ok: false, expected: 1250, actual: 1240.5 },
  { name: 'Sales without their one entry', ok: false, expected: 0, actual: 2 },
];

describe('the books check', () => {
  it('shows each check green or red with its figures, money as money, and a line saying how many fail', async () => {
    renderAccounting(`${BASE}/check`, { 'GET /api/accounting/check': () => answerCheck(CHECKS) });
    expect(screen.getByText('Checking the books...')).toBeTruthy();
    const status = await screen.findByText(/checks fail/);
    expect(status.textContent).toBe('2 of 4 checks fail: the books disagree with the shop.');
    expect(status.className).toContain('bg-red-100');
    const items = within(screen.getByRole('region', { name: 'Checks' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      '✓Passes: Every entry balances0',
      '✓Passes: The trial balance is zero$0.00',
      '✗Fails: 1300 Inventory = the stock’s valueexpected $1,250.00, the books $1,240.50',
      '✗Fails: Sales without their one entryexpected 0, the books 2',
    ]);
    expect(items[0]?.className).toContain('bg-emerald-50');
    expect(items[2]?.className).toContain('bg-red-50');
  });

  it('says when every check passes, and checks again on request', async () => {
    const { calls } = renderAccounting(`${BASE}/check`, {
      'GET /api/accounting/check': () => answerCheck(CHECKS.map((check) => ({ ...check, ok: true }))),
    });
    const status = await screen.findByText(/checks pass/);
    expect(status.textContent).toBe('The books agree with the shop: all 4 checks pass.');
    expect(status.className).toContain('bg-emerald-100');
    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(callsTo(calls, 'GET', '/api/accounting/check')).toHaveLength(2));
  });

  it('tells money checks from counts by their names', () => {
    expect(CHECKS.map(isMoneyCheck)).toEqual([false, true, true, false]);
    expect(isMoneyCheck({ name: 'The kept totals match the journal' })).toBe(true);
    expect(isMoneyCheck({ name: 'Locations whose stock value ≠ their 1300 lines' })).toBe(false);
  });

  it('shows why the check could not be run, never as a pass', async () => {
    renderAccounting(`${BASE}/check`, {
      'GET /api/accounting/check': () => ({
        status: 500,
        body: { success: false, error: 'An internal error occurred.' },
      }),
    });
    expect(
      await screen.findByText('The books check could not be loaded: An internal error occurred.'),
    ).toBeTruthy();
    expect(screen.queryByText(/checks pass/)).toBeNull();
  });
});

describe('the lock date', () => {
  it('says there is none, explains the rule, and locks the books up to the day chosen', async () => {
    let lockDate: string | null = null;
    const { calls } = renderAccounting(`${BASE}/lock-date`, {
      'GET /api/accounting/settings': () => ({ body: { success: true, settings: { lockDate } } }),
      'PUT /api/accounting/settings': (call) => {
        lockDate = (call.body as { lockDate: string }).lockDate;
        return { body: { success: true, settings: { lockDate } } };
      },
    });
    expect(await screen.findByText('No lock date: every day is open.')).toBeTruthy();
    expect(screen.getByText('The lock date must be earlier than today.')).toBeTruthy();
    expect(
      screen.getByText('It only moves forward: once set it cannot be moved back or removed.'),
    ).toBeTruthy();
    // Nothing chosen: said beside the box, nothing sent.
    await userEvent.click(screen.getByRole('button', { name: 'Save lock date' }));
    expect(screen.getByText('Choose a day.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Lock the books up to'), { target: { value: '2025-04-30' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save lock date' }));
    expect(await screen.findAllByText('The books are locked up to Apr 30, 2025.')).toHaveLength(2);
    expect(callsTo(calls, 'PUT', '/api/accounting/settings').map((call) => call.body)).toEqual([
      { lockDate: '2025-04-30' },
    ]);
    // The box now moves it, from where it is.
    expect((screen.getByLabelText('Move the lock date to') as HTMLInputElement).min).toBe('2025-04-30');
  });

  it('shows the server’s sentence when it refuses a day', async () => {
    renderAccounting(`${BASE}/lock-date`, {
      'GET /api/accounting/settings': () => ({
        body: { success: true, settings: { lockDate: '2025-04-30' } },
      }),
      'PUT /api/accounting/settings': () =>
        refusal(
          409,
          'LOCK_DATE_INVALID',
          'The books are locked up to 2025-04-30: the lock date only moves forward.',
        ),
    });
    expect(await screen.findByText('The books are locked up to Apr 30, 2025.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Move the lock date to'), { target: { value: '2025-03-31' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save lock date' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The books are locked up to 2025-04-30: the lock date only moves forward.',
    );
  });
});
