import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  answerAccounts,
  answerEntry,
  callsTo,
  entry,
  line,
  RENT,
  refusal,
  renderAccounting,
  SAFE,
} from './accounting-test-data';
import { amountCents, entryState } from './manual-entry-page';

const PATH = '/admin-dashboard/accounting/journal/new';
const lineBox = (n: number) => screen.getByRole('group', { name: `Line ${n}` });
const post = () => screen.getByRole('button', { name: /^Post entry|^Posting/ }) as HTMLButtonElement;
const totals = () =>
  within(screen.getByLabelText('Totals'))
    .getAllByRole('definition')
    .map((dd) => dd.textContent);

async function fill(n: number, account: string, side: 'Debit' | 'Credit', amount: string) {
  await userEvent.selectOptions(within(lineBox(n)).getByLabelText('Account'), account);
  const box = within(lineBox(n)).getByLabelText(side);
  await userEvent.clear(box);
  await userEvent.type(box, amount);
}

describe('a manual entry', () => {
  it('waits, saying why, until the entry has two lines or more on accounts and balances; the totals follow', async () => {
    renderAccounting(PATH, { 'GET /api/accounting/accounts': () => answerAccounts() });
    await screen.findByRole('group', { name: 'Line 1' });
    // Only active accounts are offered.
    expect(within(within(lineBox(1)).getByLabelText('Account')).queryByText('6300 Old fees')).toBeNull();
    expect(post().disabled).toBe(true);
    expect(post().getAttribute('aria-describedby')).toBeTruthy();
    const reason = () => document.getElementById(post().getAttribute('aria-describedby') ?? '')?.textContent;
    expect(reason()).toBe('Choose an account on every line.');
    await fill(1, '6200 Rent', 'Debit', '120');
    await fill(2, '1050 Safe', 'Credit', '100');
    expect(totals()).toEqual(['$120.00', '$100.00', '$20.00']);
    expect(reason()).toBe('The debits and the credits must be equal.');
    await userEvent.type(within(lineBox(2)).getByLabelText('Debit'), '5');
    expect(reason()).toBe('Give each line a debit or a credit above 0, not both.');
    await userEvent.clear(within(lineBox(2)).getByLabelText('Debit'));
    await userEvent.type(within(lineBox(2)).getByLabelText('Credit'), '.5x');
    expect(within(lineBox(2)).getByText('Write an amount like 12.50.')).toBeTruthy();
    expect(reason()).toBe('Write each amount like 12.50.');
    await userEvent.clear(within(lineBox(2)).getByLabelText('Credit'));
    await userEvent.type(within(lineBox(2)).getByLabelText('Credit'), '120.00');
    expect(totals()).toEqual(['$120.00', '$120.00', '$0.00']);
    expect(reason()).toBe('Write a memo: what the entry is for.');
    await userEvent.type(screen.getByLabelText('Memo'), 'May rent');
    expect(post().disabled).toBe(false);
    expect(post().getAttribute('aria-describedby')).toBeNull();
  });

  it('adds and removes lines, keeping at least two', async () => {
    renderAccounting(PATH, { 'GET /api/accounting/accounts': () => answerAccounts() });
    await screen.findByRole('group', { name: 'Line 1' });
    expect(screen.queryByRole('button', { name: /^Remove line/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Add line' }));
    await fill(3, '6200 Rent', 'Debit', '7.25');
    expect(screen.getAllByRole('button', { name: /^Remove line/ })).toHaveLength(3);
    await userEvent.click(screen.getByRole('button', { name: 'Remove line 1' }));
    expect(screen.queryByRole('group', { name: 'Line 3' })).toBeNull();
    // The line typed in moved up, its figures with it.
    expect((within(lineBox(2)).getByLabelText('Debit') as HTMLInputElement).value).toBe('7.25');
    expect(totals()).toEqual(['$7.25', '$0.00', '$7.25']);
    expect(screen.queryByRole('button', { name: /^Remove line/ })).toBeNull();
  });

  it('posts the entry with each line’s one side, then opens it in the journal', async () => {
    const { calls, router } = renderAccounting(PATH, {
      'GET /api/accounting/accounts': () => answerAccounts(),
      'POST /api/accounting/journal': () =>
        answerEntry(
          entry({
            _id: 'e-new',
            number: 'JE-000042',
            memo: 'May rent',
            source: { kind: 'manual', _id: null },
            lines: [line(RENT, 120, 0), line(SAFE, 0, 120)],
          }),
          201,
        ),
    });
    await screen.findByRole('group', { name: 'Line 1' });
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2025-05-31' } });
    await userEvent.type(screen.getByLabelText('Memo'), '  May rent ');
    await fill(1, '6200 Rent', 'Debit', '120');
    await fill(2, '1050 Safe', 'Credit', '120.00');
    await userEvent.click(post());
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/admin-dashboard/accounting/journal/e-new'),
    );
    expect(await screen.findByText('JE-000042 posted.')).toBeTruthy();
    const sent = callsTo(calls, 'POST', '/api/accounting/journal');
    expect(sent.map((call) => call.body)).toEqual([
      {
        date: '2025-05-31',
        memo: 'May rent',
        lines: [
          { account: 'acc-6200', debit: 120 },
          { account: 'acc-1050', credit: 120 },
        ],
      },
    ]);
    expect(sent[0]?.headers['Idempotency-Key']).toBeTruthy();
  });

  it('shows the server’s sentence when it refuses the entry, and keeps what was typed', async () => {
    renderAccounting(PATH, {
      'GET /api/accounting/accounts': () => answerAccounts(),
      'POST /api/accounting/journal': () =>
        refusal(409, 'BOOKS_LOCKED', 'The books are locked up to 2025-04-30: date the entry after it.'),
    });
    await screen.findByRole('group', { name: 'Line 1' });
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2025-04-15' } });
    await userEvent.type(screen.getByLabelText('Memo'), 'Late fee');
    await fill(1, '6200 Rent', 'Debit', '3');
    await fill(2, '1050 Safe', 'Credit', '3');
    await userEvent.click(post());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The books are locked up to 2025-04-30: date the entry after it.',
    );
    expect((screen.getByLabelText('Memo') as HTMLTextAreaElement).value).toBe('Late fee');
  });

  it('shows why the accounts could not be loaded, and no form without them', async () => {
    renderAccounting(PATH, {
      'GET /api/accounting/accounts': () => ({
        status: 500,
        body: { success: false, error: 'An internal error occurred.' },
      }),
    });
    expect(
      await screen.findByText('The accounts could not be loaded: An internal error occurred.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Post entry/ })).toBeNull();
  });
});

describe('the entry’s arithmetic', () => {
  it('reads amounts exactly, in cents, and sums them without floating point', () => {
    expect(amountCents('')).toBe(0n);
    expect(amountCents(' 0.10 ')).toBe(10n);
    expect(amountCents('12.5')).toBe(1250n);
    expect(amountCents('1.005')).toBeNull();
    expect(amountCents('-3')).toBeNull();
    const lines = [
      { key: 0, account: 'a', debit: '0.10', credit: '' },
      { key: 1, account: 'b', debit: '0.20', credit: '' },
      { key: 2, account: 'c', debit: '', credit: '0.30' },
    ];
    expect(entryState({ date: '2025-05-01', memo: 'x', lines })).toEqual({
      debit: 0.3,
      credit: 0.3,
      difference: 0,
      reason: null,
    });
    expect(entryState({ date: '2025-05-01', memo: 'x', lines: lines.slice(0, 1) }).reason).toBe(
      'An entry needs at least two lines.',
    );
  });
});
