import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../shared/accounting';
import {
  answerAccounts,
  answerEntry,
  answerJournal,
  callsTo,
  entry,
  line,
  OVER_SHORT,
  refusal,
  renderAccounting,
  SAFE,
  TILL,
} from './accounting-test-data';

const PATH = '/admin-dashboard/accounting/journal';

/** 25 entries, newest first: sales, then a till closed 0.50 short at the end of the list. */
const all: JournalEntry[] = Array.from({ length: 25 }, (_, i) =>
  entry({
    _id: `e${25 - i}`,
    number: `JE-${String(25 - i).padStart(6, '0')}`,
    memo: `Sale ${25 - i}`,
    source: { kind: 'sale', _id: `s${25 - i}`, number: `S-${String(25 - i).padStart(6, '0')}` },
  }),
);
const close = entry({
  _id: 'e-close',
  number: 'JE-000030',
  date: '2025-05-02',
  memo: 'Till closed',
  source: { kind: 'sessionClose', _id: 'ses1', number: '#1' },
  lines: [
    line(SAFE, 154.5, 0),
    line(OVER_SHORT, 0.5, 0, { register: { _id: 'r1', name: 'Till 1' } }),
    line(TILL, 0, 155, {
      register: { _id: 'r1', name: 'Till 1' },
      location: { _id: 'l1', name: 'Main store' },
    }),
  ],
});

const listFrom =
  (rows: JournalEntry[]) =>
  ({ query }: { query: Record<string, string> }) =>
    answerJournal(
      rows.filter(
        (one) =>
          (!query.source || one.source.kind === query.source) &&
          (!query.sourceId || one.source._id === query.sourceId) &&
          (!query.account || one.lines.some((l) => l.account._id === query.account)),
      ),
      query,
    );

const entries = () => screen.findByRole('list', { name: 'Journal entries, newest first' });
const cards = (list: HTMLElement) => within(list).getAllByRole('article');
const journalQueries = (calls: Parameters<typeof callsTo>[0]) =>
  callsTo(calls, 'GET', '/api/accounting/journal').map((call) => call.query);

describe('the journal', () => {
  it('shows each entry: number, date, memo, its source as a link, each line with what it concerns, totals', async () => {
    renderAccounting(PATH, {
      'GET /api/accounting/journal': listFrom([close]),
      'GET /api/accounting/accounts': () => answerAccounts(),
    });
    expect(screen.getByText('Loading the journal...')).toBeTruthy();
    const card = cards(await entries())[0] as HTMLElement;
    expect(within(card).getByRole('heading', { level: 2 }).textContent).toBe('JE-000030May 2, 2025');
    expect(within(card).getByRole('link', { name: 'JE-000030' }).getAttribute('href')).toBe(
      '/admin-dashboard/accounting/journal/e-close',
    );
    expect(within(card).getByText('Till closed')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Till session #1' }).getAttribute('href')).toBe(
      '/admin-dashboard/till/sessions/ses1',
    );
    const lines = within(card).getByRole('table', { name: 'Lines of JE-000030' });
    expect(
      within(lines)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'AccountDebitCredit',
      '1050 Safe$154.50',
      '6100 Cash over and shortTill 1$0.50',
      '1000 Till cashMain store · Till 1$155.00',
      'Total$155.00$155.00',
    ]);
    expect(within(lines).getByRole('link', { name: '6100 Cash over and short' }).getAttribute('href')).toBe(
      '/admin-dashboard/accounting/accounts/acc-6100',
    );
    expect(within(card).getByRole('button', { name: 'Reverse JE-000030' })).toBeTruthy();
  });

  it('sends the days, the source and the account, keeps them in the address, and pages', async () => {
    const { calls, router } = renderAccounting(PATH, {
      'GET /api/accounting/journal': listFrom([close, ...all]),
      'GET /api/accounting/accounts': () => answerAccounts(),
    });
    await waitFor(async () => expect(cards(await entries())).toHaveLength(20));
    expect(screen.getByText('Showing 1–20 of 26')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(async () => expect(cards(await entries())).toHaveLength(6));
    await userEvent.selectOptions(screen.getByLabelText('Source'), 'Till closed');
    await waitFor(() => expect(router.state.location.search).toBe('?source=sessionClose'));
    await waitFor(async () => expect(cards(await entries())).toHaveLength(1));
    await waitFor(() => expect(screen.getByLabelText('Account')).toHaveProperty('disabled', false));
    await userEvent.selectOptions(screen.getByLabelText('Account'), '6100 Cash over and short');
    await waitFor(() => expect(router.state.location.search).toBe('?source=sessionClose&account=acc-6100'));
    // The inactive account is offered too (its old entries), saying so.
    expect(within(screen.getByLabelText('Account')).getByText('6300 Old fees (inactive)')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('From'), '2025-05-01');
    await waitFor(() => expect(router.state.location.search).toContain('from=2025-05-01'));
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(journalQueries(calls)).toEqual([
      { page: '1', pageSize: '20' },
      { page: '2', pageSize: '20' },
      { source: 'sessionClose', page: '1', pageSize: '20' },
      { source: 'sessionClose', account: 'acc-6100', page: '1', pageSize: '20' },
      { from: '2025-05-01', source: 'sessionClose', account: 'acc-6100', page: '1', pageSize: '20' },
      { page: '1', pageSize: '20' },
    ]);
  });

  it('opened from a document’s screen, shows that document’s entries only, and all again on request', async () => {
    const { calls, router } = renderAccounting(`${PATH}?source=sale&sourceId=s7`, {
      'GET /api/accounting/journal': listFrom(all),
      'GET /api/accounting/accounts': () => answerAccounts(),
    });
    await waitFor(async () => expect(cards(await entries())).toHaveLength(1));
    expect(journalQueries(calls)[0]).toEqual({ source: 'sale', sourceId: 's7', page: '1', pageSize: '20' });
    expect(screen.getByText(/Showing the entries of one sale\./)).toBeTruthy();
    expect(
      within(cards(await entries())[0] as HTMLElement)
        .getByRole('link', { name: 'Sale S-000007' })
        .getAttribute('href'),
    ).toBe('/admin-dashboard/sales/s7');
    await userEvent.click(screen.getByRole('button', { name: 'Show every document' }));
    await waitFor(() => expect(router.state.location.search).toBe('?source=sale'));
    await waitFor(async () => expect(cards(await entries())).toHaveLength(20));
  });

  it('reverses an entry after asking, and shows the server’s sentence when it was reversed already', async () => {
    let reversals = 0;
    const { calls } = renderAccounting(PATH, {
      'GET /api/accounting/journal': listFrom([close]),
      'GET /api/accounting/accounts': () => answerAccounts(),
      'POST /api/accounting/journal/e-close/reverse': () => {
        reversals += 1;
        return reversals === 1
          ? answerEntry(
              entry({
                _id: 'e-rev',
                number: 'JE-000031',
                source: { kind: 'reversal', _id: 'e-close', number: 'JE-000030' },
                reverses: 'e-close',
              }),
              201,
            )
          : refusal(409, 'ENTRY_REVERSED', 'JE-000030 is already reversed by JE-000031.');
      },
    });
    const card = cards(await entries())[0] as HTMLElement;
    await userEvent.click(within(card).getByRole('button', { name: 'Reverse JE-000030' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Reverse JE-000030?' });
    expect(dialog.textContent).toContain('puts each of its 3 lines on the other side');
    // Cancel has the focus: Enter does not reverse by accident.
    expect(document.activeElement?.textContent).toBe('Cancel');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reverse' }));
    expect(await screen.findByText('JE-000030 reversed by JE-000031.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'JE-000031' }).getAttribute('href')).toBe(
      '/admin-dashboard/accounting/journal/e-rev',
    );
    // The list was not read again with the reversal yet (another admin, a stale page): a second try.
    await userEvent.click(within(card).getByRole('button', { name: 'Reverse JE-000030' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Reverse JE-000030?' })).getByRole('button', {
        name: 'Reverse',
      }),
    );
    expect((await within(card).findByRole('alert')).textContent).toBe(
      'JE-000030 is already reversed by JE-000031.',
    );
    const posts = callsTo(calls, 'POST', '/api/accounting/journal/e-close/reverse');
    expect(posts).toHaveLength(2);
    expect(posts.every((post) => post.headers['Idempotency-Key'])).toBe(true);
  });

  it('links a reversal to the entry it reverses and a reversed entry to its reversal, with no Reverse on it', async () => {
    renderAccounting(PATH, {
      'GET /api/accounting/journal': listFrom([
        entry({
          _id: 'e-rev',
          number: 'JE-000031',
          source: { kind: 'reversal', _id: 'e-close', number: 'JE-000030' },
          reverses: 'e-close',
        }),
        { ...close, reversedBy: 'e-rev' },
      ]),
      'GET /api/accounting/accounts': () => answerAccounts(),
    });
    const [reversal, reversed] = cards(await entries()) as [HTMLElement, HTMLElement];
    expect(within(reversal).getByText(/^Reverses/).textContent).toBe('Reverses JE-000030');
    expect(within(reversal).getByRole('link', { name: 'JE-000030' }).getAttribute('href')).toBe(
      '/admin-dashboard/accounting/journal/e-close',
    );
    expect(within(reversed).getByRole('link', { name: 'its reversal' }).getAttribute('href')).toBe(
      '/admin-dashboard/accounting/journal/e-rev',
    );
    expect(within(reversed).queryByRole('button', { name: /Reverse/ })).toBeNull();
  });

  it('says when the journal is empty, apart when filters match none, and a failure is never that', async () => {
    let failures = 1;
    renderAccounting(PATH, {
      'GET /api/accounting/journal': (call) =>
        failures-- > 0
          ? { status: 503, body: { success: false, error: 'The database is resting.' } }
          : listFrom([])(call),
      'GET /api/accounting/accounts': () => answerAccounts(),
    });
    expect(await screen.findByText('The journal could not be loaded: The database is resting.')).toBeTruthy();
    expect(screen.queryByText('No entries in the journal yet.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No entries in the journal yet.')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Source'), 'Manual entry');
    expect(await screen.findByText('No entries match these filters.')).toBeTruthy();
  });

  it('asks nothing while the days are backwards, and says so', async () => {
    const { calls } = renderAccounting(`${PATH}?from=2025-05-10&to=2025-05-01`, {
      'GET /api/accounting/journal': listFrom(all),
      'GET /api/accounting/accounts': () => answerAccounts(),
    });
    expect(await screen.findByText('Choose a From date on or before the To date.')).toBeTruthy();
    expect(screen.getByText('Must be on or after the From date.')).toBeTruthy();
    expect(journalQueries(calls)).toEqual([]);
  });
});

describe('one journal entry', () => {
  it('shows the entry its address names, without a link to itself', async () => {
    renderAccounting(`${PATH}/e-close`, {
      'GET /api/accounting/journal/e-close': () => answerEntry(close),
    });
    expect(await screen.findByRole('heading', { name: 'Journal entry JE-000030', level: 1 })).toBeTruthy();
    const card = screen.getByRole('article', { name: 'JE-000030 May 2, 2025' });
    expect(within(card).queryByRole('link', { name: 'JE-000030' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to the journal' }).getAttribute('href')).toBe(PATH);
  });

  it('says when the entry does not exist, with no Try again', async () => {
    renderAccounting(`${PATH}/nope`, {
      'GET /api/accounting/journal/nope': () => refusal(404, 'NOT_FOUND', 'Journal entry not found.'),
    });
    expect(await screen.findByText('This journal entry does not exist.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
