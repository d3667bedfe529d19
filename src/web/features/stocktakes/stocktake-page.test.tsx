import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Stocktake } from '../../../shared/stocktakes';
import {
  answerLines,
  answerPosted,
  answerStocktake,
  callsTo,
  figures,
  type Handler,
  line,
  refusal,
  renderStocktakes,
  stocktake,
} from './stocktakes-test-data';

const counting = stocktake({
  note: 'Month end',
  scope: { categories: [{ _id: 'c1', name: 'Medicines' }], products: [{ _id: 'p9', name: 'Serum' }] },
  summary: figures({
    categories: [
      { category: { _id: 'c1', name: 'Medicines' }, ...figures({ categories: undefined }), net: -2.5 },
      { category: null, ...figures({ categories: undefined }) },
    ].map(({ categories: _c, ...row }) => row),
  }),
});
const posted = stocktake({
  ...counting,
  status: 'posted',
  postedAt: '2025-05-02T09:00:00.000Z',
  postedBy: { _id: 'admin-id', name: 'Test admin' },
  uncounted: 'zero',
});
const OVER = line('p1', 'Paracetamol 500 mg', { counted: 12, expectedAtCount: 10, cost: 1.5, value: 3 });
const SHORT = line('p2', 'Serum', {
  lot: { _id: 'lot-a', number: 'A12', expiresOn: '2027-03-03' },
  counted: 1,
  expectedAtCount: 2,
  cost: 1.25,
  value: -1.25,
});
const SAME = line('p3', 'Blue Pen', { counted: 4, expectedAtCount: 4, cost: 0.1, value: 0 });

/** A fake server with one stocktake: GET answers it as it is now, post and cancel change it. */
function serving(start: Stocktake, steps: Record<string, Handler> = {}) {
  let now = start;
  const handlers: Record<string, Handler> = {
    'GET /api/stocktakes/s1': () => answerStocktake(now),
    'GET /api/stocktakes/s1/lines': ({ query }) =>
      answerLines(
        [OVER, SHORT, SAME].map((one) =>
          now.status === 'posted' ? { ...one, posted: (one.counted ?? 0) - (one.expectedAtCount ?? 0) } : one,
        ),
        query,
      ),
  };
  for (const [step, answer] of Object.entries(steps))
    handlers[`POST /api/stocktakes/s1/${step}`] = async (call) => {
      const reply = await answer(call);
      if ((reply.status ?? 200) < 300) now = (reply.body as { stocktake: Stocktake }).stocktake;
      return reply;
    };
  return handlers;
}

const buttons = () =>
  screen
    .queryAllByRole('button')
    .filter((button) => !button.closest('[data-testid="notifications"]'))
    .map((button) => button.textContent);

describe('the review of a stocktake', () => {
  it('shows its facts and figures: lines, counted, not counted, units and value over and short, net', async () => {
    renderStocktakes('/admin-dashboard/stocktakes/s1', serving(counting));
    expect(await screen.findByRole('heading', { name: 'ST-000001', level: 1 })).toBeTruthy();
    expect(screen.getByText('Medicines, Serum')).toBeTruthy();
    expect(screen.getByText('Month end')).toBeTruthy();
    const summary = screen.getByRole('region', { name: 'Summary' });
    expect(
      within(summary)
        .getAllByRole('definition')
        .map((dd) => dd.textContent),
    ).toEqual(['3', '2', '1', '2', '1', '$3.00', '$1.25', '$1.75']);
    const byCategory = screen.getByRole('table', { name: 'Differences by category, value at cost' });
    const rows = within(byCategory).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'Medicines32121$3.00$1.25-$2.50',
      'No category32121$3.00$1.25$1.75',
    ]);
    expect(screen.getByRole('link', { name: 'Count' }).getAttribute('href')).toBe(
      '/admin-dashboard/stocktakes/s1/count',
    );
    expect(screen.getByRole('link', { name: 'Count sheet' }).getAttribute('href')).toBe(
      '/admin-dashboard/stocktakes/s1/sheet',
    );
  });

  it('lists only the lines that differ: expected at count, counted, difference and its value at cost', async () => {
    const { calls } = renderStocktakes('/admin-dashboard/stocktakes/s1', serving(counting));
    const table = await screen.findByRole('table', { name: 'Lines that differ, value at cost' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'Paracetamol 500 mg—Expected at count 10Counted 12Difference +2Value $3.00',
      'SerumA12 · Mar 3, 2027Expected at count 2Counted 1Difference −1Value -$1.25',
    ]);
    expect(callsTo(calls, 'GET', '/api/stocktakes/s1/lines')[0]?.query).toEqual({
      differences: 'true',
      page: '1',
      pageSize: '50',
    });
  });

  it('posts with the uncounted choice after a confirm that says it in words, then shows the clamped lines', async () => {
    const { calls } = renderStocktakes(
      '/admin-dashboard/stocktakes/s1',
      serving(counting, {
        post: () =>
          answerPosted(posted, [
            {
              product: { _id: 'p2', name: 'Serum' },
              lot: { _id: 'lot-a', number: 'A12', expiresOn: '2027-03-03' },
              difference: -3,
              posted: -1,
            },
          ]),
      }),
    );
    await screen.findByRole('heading', { name: 'Post the count' });
    expect(
      screen.getByText('Lines nobody counted are left alone: only what was counted changes.'),
    ).toBeTruthy();
    await userEvent.click(screen.getByLabelText(/Write them down to 0/));
    await userEvent.click(screen.getByRole('button', { name: 'Post stocktake' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Post ST-000001?' });
    expect(dialog.textContent).toContain(
      '2 lines counted are written into the stock at Main store; the 1 line not counted goes down to 0. This cannot be undone.',
    );
    // The confirm step: Not yet sends nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Not yet' }));
    expect(callsTo(calls, 'POST', '/api/stocktakes/s1/post')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Post stocktake' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Post' }),
    );
    expect(await screen.findByText('ST-000001 is posted: the stock now says what was counted.')).toBeTruthy();
    const [post] = callsTo(calls, 'POST', '/api/stocktakes/s1/post');
    expect(post?.body).toEqual({ uncounted: 'zero' });
    expect(post?.headers['Idempotency-Key']).toBeTruthy();
    const clamped = await screen.findByRole('region', { name: 'One line was taken to 0, not below' });
    expect(clamped.textContent).toContain('Serum, lot A12: difference −3, posted −1');
    // Posted: read-only, with what was written.
    await waitFor(() => expect(buttons()).toEqual([]));
    expect(screen.getByText(/uncounted lines written down to 0/)).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Lines that differ, value at cost' });
    await waitFor(() =>
      expect(within(table).getAllByRole('columnheader').at(-1)?.textContent).toBe('Posted'),
    );
  });

  it('a refused post says the server’s sentence', async () => {
    renderStocktakes(
      '/admin-dashboard/stocktakes/s1',
      serving(counting, {
        post: () => refusal(409, 'STOCKTAKE_STATUS', 'ST-000001 is posted: it cannot be posted.'),
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Post stocktake' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Post' }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe('ST-000001 is posted: it cannot be posted.');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('cancels after asking; nothing is written', async () => {
    const { calls } = renderStocktakes(
      '/admin-dashboard/stocktakes/s1',
      serving(counting, {
        cancel: () =>
          answerStocktake(
            stocktake({ ...counting, status: 'cancelled', cancelledAt: '2025-05-02T09:00:00.000Z' }),
          ),
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel stocktake' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel ST-000001?' });
    expect(dialog.textContent).toContain('Nothing is written to the stock');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel stocktake' }));
    expect(await screen.findByText('ST-000001 is cancelled; nothing was written.')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/stocktakes/s1/cancel')).toHaveLength(1);
    await waitFor(() => expect(buttons()).toEqual([]));
    expect(screen.queryByRole('link', { name: 'Count' })).toBeNull();
  });

  it('once posted it is read-only: no Post, Cancel or Count, the posted column shown', async () => {
    renderStocktakes('/admin-dashboard/stocktakes/s1', serving(posted));
    await screen.findByRole('heading', { name: 'ST-000001', level: 1 });
    const table = await screen.findByRole('table', { name: 'Lines that differ, value at cost' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(within(table).getAllByRole('row')[1]?.textContent).toContain('Posted +2');
    expect(buttons()).toEqual([]);
    expect(screen.queryByRole('link', { name: 'Count' })).toBeNull();
  });

  it('says there are no differences when every counted line matches', async () => {
    renderStocktakes('/admin-dashboard/stocktakes/s1', {
      ...serving(counting),
      'GET /api/stocktakes/s1/lines': ({ query }) => answerLines([SAME], query),
    });
    expect(await screen.findByText('No differences: every counted line matches the records.')).toBeTruthy();
  });

  it('says when the stocktake could not be loaded, never as empty, and when it does not exist', async () => {
    let failures = 1;
    renderStocktakes('/admin-dashboard/stocktakes/s1', {
      ...serving(counting),
      'GET /api/stocktakes/s1': () =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'An internal error occurred.' } }
          : answerStocktake(counting),
    });
    expect(
      await screen.findByText('The stocktake could not be loaded: An internal error occurred.'),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Post the count' })).toBeTruthy();
    renderStocktakes('/admin-dashboard/stocktakes/nope', {
      'GET /api/stocktakes/nope': () => refusal(404, 'NOT_FOUND', 'Stocktake not found.'),
    });
    expect(await screen.findByText('This stocktake does not exist.')).toBeTruthy();
  });
});
