import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { RegisterSession } from '../../../shared/till';
import { userOf } from '../../test/helpers';
import type { Handler } from '../sales/sales-test-data';
import { callsOf, openSession, renderTill, report, summary, TILL } from './till-test-data';

const COUNTER = '/salesRep-dashboard/sales/new';
const CASH = 'POST /api/register-sessions/session1/cash';

/** The counter on Till 1 with session #12 open; its X report expects `expectedCash`. */
function openCounter(expectedCash: number, extra: Record<string, Handler> = {}) {
  localStorage.setItem('ims.till.register', TILL._id);
  let session: RegisterSession = openSession();
  let counted: number | null = null;
  const handlers: Record<string, Handler> = {
    'GET /api/register-sessions': ({ query }) => {
      const rows = session.status === 'open' && query.status === 'open' ? [summary(session)] : [];
      return { body: { success: true, sessions: rows, total: rows.length, page: 1, pageSize: 1 } };
    },
    'GET /api/registers': () => ({ body: { success: true, registers: [TILL] } }),
    'GET /api/register-sessions/session1': () => ({
      body: {
        success: true,
        session,
        report: report({
          expectedCash,
          countedCash: counted,
          difference: counted === null ? null : Math.round((counted - expectedCash) * 100) / 100,
        }),
      },
    }),
    [CASH]: () => ({
      status: 201,
      body: {
        success: true,
        movement: {
          _id: 'm1',
          amount: 1,
          reason: 'x',
          user: { _id: 'u', name: 'U' },
          at: '2025-05-01T10:00:00.000Z',
        },
        report: report({ expectedCash }),
      },
    }),
    'POST /api/register-sessions/session1/close': ({ body }) => {
      counted = (body as { countedCash: number }).countedCash;
      session = {
        ...session,
        status: 'closed',
        closedAt: '2025-05-01T18:00:00.000Z',
        closedBy: { _id: 'salesRep-id', name: 'Test salesRep' },
        countedCash: counted,
        note: (body as { note?: string }).note ?? '',
      };
      return { body: { success: true, session, report: report({ expectedCash, countedCash: counted }) } };
    },
    ...extra,
  };
  const view = renderTill(COUNTER, handlers, userOf('salesRep'));
  return { ...view, user: userEvent.setup() };
}

async function openDialog(user: ReturnType<typeof userEvent.setup>, button: string) {
  const bar = await screen.findByRole('region', { name: 'Till' });
  await user.click(within(bar).getByRole('button', { name: button }));
  return screen.getByRole('dialog');
}

describe('cash in and out', () => {
  it('puts cash in as a positive amount and takes it out as a negative one, with the reason', async () => {
    const { user, calls } = openCounter(130);
    let dialog = await openDialog(user, 'Cash in/out');
    expect(await within(dialog).findByText('The drawer should hold $130.00.')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Amount'), '20');
    await user.type(within(dialog).getByLabelText('Reason'), 'Change from the safe');
    await user.click(within(dialog).getByRole('button', { name: 'Put cash in' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    dialog = await openDialog(user, 'Cash in/out');
    await user.click(within(dialog).getByRole('radio', { name: 'Cash out' }));
    await user.type(within(dialog).getByLabelText('Amount'), '15.50');
    await user.type(within(dialog).getByLabelText('Reason'), 'Window cleaner{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const posts = callsOf(calls, 'POST', '/api/register-sessions/session1/cash');
    expect(posts.map((post) => post.body)).toEqual([
      { amount: 20, reason: 'Change from the safe' },
      { amount: -15.5, reason: 'Window cleaner' },
    ]);
    expect(posts[0]?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends nothing without an amount above 0 and a reason', async () => {
    const { user, calls } = openCounter(130);
    const dialog = await openDialog(user, 'Cash in/out');
    await user.type(within(dialog).getByLabelText('Amount'), '0');
    await user.click(within(dialog).getByRole('button', { name: 'Put cash in' }));
    expect(within(dialog).getByText('Enter an amount above 0, like 20 or 20.50.')).toBeTruthy();
    expect(within(dialog).getByText('Say why the cash moves.')).toBeTruthy();
    await user.clear(within(dialog).getByLabelText('Amount'));
    await user.type(within(dialog).getByLabelText('Amount'), '1.999');
    await user.click(within(dialog).getByRole('button', { name: 'Put cash in' }));
    expect(callsOf(calls, 'POST', '/api/register-sessions/session1/cash')).toHaveLength(0);
  });

  it("shows the server's sentence when more is taken out than the drawer holds, and stays open", async () => {
    const refusal = 'The drawer holds $130.00; you cannot take out $500.00.';
    const { user, calls } = openCounter(130, {
      [CASH]: () => ({ status: 409, body: { success: false, error: refusal } }),
    });
    const dialog = await openDialog(user, 'Cash in/out');
    await user.click(within(dialog).getByRole('radio', { name: 'Cash out' }));
    await user.type(within(dialog).getByLabelText('Amount'), '500');
    await user.type(within(dialog).getByLabelText('Reason'), 'Bank');
    await user.click(within(dialog).getByRole('button', { name: 'Take cash out' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(refusal);
    expect(callsOf(calls, 'POST', '/api/register-sessions/session1/cash')[0]?.body).toEqual({
      amount: -500,
      reason: 'Bank',
    });
  });
});

describe('closing the till', () => {
  it('counts notes and coins exactly, shows short and over as they change, and closes to the Z report', async () => {
    const { user, calls, router } = openCounter(62);
    const dialog = await openDialog(user, 'Close till');
    const figures = () =>
      Array.from(
        within(dialog).getByLabelText('Drawer count').querySelectorAll('dd'),
        (dd) => dd.textContent,
      );
    // Nothing counted yet: the whole expected cash is short.
    await waitFor(() => expect(figures()).toEqual(['$62.00', '$0.00', 'Short by $62.00']));
    await user.type(within(dialog).getByLabelText('Count of $20.00'), '3');
    await user.type(within(dialog).getByLabelText('Count of $0.25'), '7');
    await user.type(within(dialog).getByLabelText('Count of $0.01'), '2');
    expect(figures()).toEqual(['$62.00', '$61.77', 'Short by $0.23']);
    await user.type(within(dialog).getByLabelText('Count of $1.00'), '1');
    expect(figures()).toEqual(['$62.00', '$62.77', 'Over by $0.77']);
    await user.type(within(dialog).getByLabelText('Count of $0.10'), '2.5');
    expect(within(dialog).getByText('Each count is a whole number of notes or coins.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Close till' }));
    expect(callsOf(calls, 'POST', '/api/register-sessions/session1/close')).toHaveLength(0);
    await user.clear(within(dialog).getByLabelText('Count of $0.10'));
    await user.clear(within(dialog).getByLabelText('Count of $1.00'));
    await user.type(within(dialog).getByLabelText('Note (optional)'), 'Short 23 cents');
    await user.click(within(dialog).getByRole('button', { name: 'Close till' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/salesRep-dashboard/till/sessions/session1'),
    );
    expect(callsOf(calls, 'POST', '/api/register-sessions/session1/close')[0]?.body).toEqual({
      countedCash: 61.77,
      note: 'Short 23 cents',
    });
    expect(await screen.findByRole('heading', { name: 'Z report · Till 1 · session #12' })).toBeTruthy();
  });

  it('takes the total typed instead, and says when the count is exact', async () => {
    const { user, calls } = openCounter(62.5);
    const dialog = await openDialog(user, 'Close till');
    await user.click(within(dialog).getByRole('radio', { name: 'Type the total' }));
    await user.click(within(dialog).getByRole('button', { name: 'Close till' }));
    expect(within(dialog).getByText('Enter the counted cash as an amount, like 250 or 250.75.')).toBeTruthy();
    expect(callsOf(calls, 'POST', '/api/register-sessions/session1/close')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Counted cash (USD)'), '62.50');
    await waitFor(() => expect(within(dialog).getByText('Exact')).toBeTruthy());
    await user.click(within(dialog).getByRole('button', { name: 'Close till' }));
    await waitFor(() =>
      expect(callsOf(calls, 'POST', '/api/register-sessions/session1/close')[0]?.body).toEqual({
        countedCash: 62.5,
      }),
    );
  });

  it("shows the server's refusal and keeps the count", async () => {
    const { user } = openCounter(10, {
      'POST /api/register-sessions/session1/close': () => ({
        status: 409,
        body: { success: false, error: 'This session is already closed.' },
      }),
    });
    const dialog = await openDialog(user, 'Close till');
    await user.type(within(dialog).getByLabelText('Count of $5.00'), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Close till' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This session is already closed.');
    expect((within(dialog).getByLabelText('Count of $5.00') as HTMLInputElement).value).toBe('2');
  });
});
