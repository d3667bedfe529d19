import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { LedgerResponse } from '../../../shared/accounting';
import { atViewport } from '../../test/viewport';
import { answerLedger, callsTo, refusal, renderAccounting, TILL } from './accounting-test-data';

const PATH = `/admin-dashboard/accounting/accounts/${TILL._id}`;
type Line = LedgerResponse['lines'][number];

/** 60 lines of the till: 10.00 in, 10.00 in, 20.00 out, over and over, from a balance of 5.00. */
const lines: Line[] = Array.from({ length: 60 }, (_, i) => {
  const out = i % 3 === 2;
  const step = i % 3;
  const balance = 5 + (step === 0 ? 10 : step === 1 ? 20 : 0);
  return {
    entry: {
      _id: `e${i + 1}`,
      number: `JE-${String(i + 1).padStart(6, '0')}`,
      date: '2025-05-02',
      memo: out ? 'Till closed' : 'Cash sale of a mug',
      source: { kind: out ? 'sessionClose' : 'sale', _id: `s${i + 1}` },
    },
    debit: out ? 0 : 10,
    credit: out ? 20 : 0,
    balance,
  };
});

const ledgerFrom = ({ query }: { query: Record<string, string> }) => {
  const page = Number(query.page ?? 1);
  const pageSize = Number(query.pageSize ?? 50);
  return answerLedger({
    account: { _id: TILL._id, code: TILL.code, name: TILL.name, type: TILL.type },
    opening: 5,
    lines: lines.slice((page - 1) * pageSize, page * pageSize),
    total: lines.length,
    page,
    pageSize,
  });
};

const table = () => screen.findByRole('table', { name: 'Ledger of 1000 Till cash' });
const bodyRows = (element: HTMLElement) => within(element).getAllByRole('row').slice(1);

describe('an account’s ledger', () => {
  it('shows the balance before the days, then each line with its entry, memo, side and running balance', async () => {
    renderAccounting(PATH, { 'GET /api/accounting/ledger': ledgerFrom });
    expect(await screen.findByRole('heading', { name: '1000 Till cash', level: 1 })).toBeTruthy();
    const ledger = await table();
    const [opening, first, second, third] = bodyRows(ledger) as HTMLElement[];
    expect(opening?.textContent).toBe('Balance before these days$5.00');
    expect(first?.textContent).toBe(
      'May 2, 2025JE-000001Cash sale of a mugSaleDebit $10.00Credit Balance $15.00',
    );
    // A memo that only says its source's name is not said twice.
    expect(third?.textContent).toBe('May 2, 2025JE-000003Till closedDebit Credit $20.00Balance $5.00');
    expect(
      within(second as HTMLElement)
        .getByRole('link', { name: 'JE-000002' })
        .getAttribute('href'),
    ).toBe('/admin-dashboard/accounting/journal/e2');
    expect(screen.getByText('The month to date')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the chart of accounts' }).getAttribute('href')).toBe(
      '/admin-dashboard/accounting',
    );
  });

  it('pages through the lines (the opening on the first page only) and asks for the days chosen', async () => {
    const { calls, router } = renderAccounting(PATH, { 'GET /api/accounting/ledger': ledgerFrom });
    const ledger = await table();
    await waitFor(() => expect(bodyRows(ledger)).toHaveLength(51));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(bodyRows(ledger)).toHaveLength(10));
    expect(within(ledger).queryByText('Balance before these days')).toBeNull();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-05-01' } });
    await waitFor(() => expect(router.state.location.search).toBe('?from=2025-05-01'));
    expect(callsTo(calls, 'GET', '/api/accounting/ledger').map((call) => call.query)).toEqual([
      { account: TILL._id, page: '1', pageSize: '50' },
      { account: TILL._id, page: '2', pageSize: '50' },
      { account: TILL._id, from: '2025-05-01', page: '1', pageSize: '50' },
    ]);
  });

  it('says when the account has no lines in the days, and when it does not exist', async () => {
    renderAccounting(PATH, {
      'GET /api/accounting/ledger': () =>
        answerLedger({
          account: { _id: TILL._id, code: TILL.code, name: TILL.name, type: TILL.type },
          opening: 5,
          lines: [],
          total: 0,
          page: 1,
          pageSize: 50,
        }),
    });
    expect(await screen.findByText('No lines on this account in these days.')).toBeTruthy();
    expect(screen.getByText('Balance before these days')).toBeTruthy();
  });

  it('says so when the account does not exist, with no Try again', async () => {
    renderAccounting('/admin-dashboard/accounting/accounts/nope', {
      'GET /api/accounting/ledger': () => refusal(404, 'NOT_FOUND', 'Account not found.'),
    });
    expect(await screen.findByText('This account does not exist.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('stacks each line as a card on a phone, its figures named', async () => {
    atViewport(375);
    renderAccounting(PATH, { 'GET /api/accounting/ledger': ledgerFrom });
    const ledger = await table();
    await waitFor(() => expect(bodyRows(ledger).length).toBeGreaterThan(1));
    expect(ledger.querySelector('thead')?.className).toContain('max-sm:sr-only');
    expect(bodyRows(ledger)[1]?.className).toContain('max-sm:grid');
  });
});
