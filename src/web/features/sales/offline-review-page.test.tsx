import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { refusalSentence } from '../../../shared/refusals';
import { type ReviewItem, ReviewListResponse, ReviewResponse } from '../../../shared/sales';
import { OFFLINE_REVIEW_PATH } from '../../lib/admin-paths';
import { SignedInContext } from '../../lib/signed-in';
import { type FetchCall, listCalls, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { OfflineReviewPage } from './offline-review-page';

type Reply = { status?: number; body: unknown };

function reviewItem(number: number, overrides: Partial<ReviewItem> = {}): ReviewItem {
  return {
    sale: { _id: `sale-${number}`, number },
    deviceNumber: `T1-K7Q2-${String(number).padStart(6, '0')}`,
    soldAt: '2025-06-01T12:00:00.000Z',
    recordedAt: '2025-06-01T15:30:00.000Z',
    seller: { _id: 'rep', name: 'Rita Rep' },
    total: 1234.5,
    review: ['stock'],
    ...overrides,
  };
}

const closedItem = reviewItem(700, {
  review: ['session'],
  note: 'Drawer counted; the cash is in the next session.',
  reviewedBy: { _id: 'boss', name: 'Ada Admin' },
  reviewedAt: '2025-06-02T09:15:00.000Z',
});

/** A page of the review list, held to the shared schema. */
function answer(rows: ReviewItem[], query: Record<string, string>): Reply {
  return {
    body: ReviewListResponse.parse({
      success: true,
      sales: rows,
      total: rows.length,
      page: Number(query.page ?? 1),
      pageSize: Number(query.pageSize ?? 50),
    }),
  };
}

function renderAt(entry: string, handlers: Parameters<typeof mockFetch>[0]) {
  const me = userOf('admin');
  signIn(me);
  const mock = mockFetch(handlers);
  const router = createMemoryRouter(
    [
      { path: OFFLINE_REVIEW_PATH, element: <OfflineReviewPage /> },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [entry] },
  );
  renderWithClient(
    <SignedInContext value={me}>
      <RouterProvider router={router} />
    </SignedInContext>,
  );
  return { ...mock, router };
}

const reviewCalls = (calls: readonly FetchCall[]) => listCalls(calls, '/api/sales/review');
const posts = (calls: readonly FetchCall[]) => calls.filter((call) => call.method === 'POST');

describe('the offline sales to review', () => {
  it('shows the open ones with their receipt, device number, times, seller, total and why in words', async () => {
    const { calls } = renderAt(OFFLINE_REVIEW_PATH, {
      'GET /api/sales/review': ({ query }) =>
        answer(
          [
            reviewItem(715, { review: ['stock', 'price'] }),
            reviewItem(714, { review: ['session'], seller: { _id: null, name: 'Gone Seller' } }),
          ],
          query,
        ),
    });
    expect(screen.getByText('Loading offline sales...')).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Offline sales to review, newest sold first' });
    await within(table).findByText('S-000715');
    expect(reviewCalls(calls)[0]?.query).toEqual({ status: 'open', page: '1', pageSize: '50' });
    expect(screen.getByRole('tab', { name: 'Open' }).getAttribute('aria-selected')).toBe('true');

    const [first, second] = within(table).getAllByRole('row').slice(1);
    if (!first || !second) throw new Error('two rows expected');
    const link = within(first).getByRole('link', { name: 'S-000715' });
    expect(link.getAttribute('href')).toBe('/admin-dashboard/sales/sale-715');
    const cells = within(first)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual([
      'Device T1-K7Q2-000715',
      expect.stringMatching(/^Sold Jun 1, 2025/),
      expect.stringMatching(/^Sent Jun 1, 2025/),
      'Seller Rita Rep',
      '$1,234.50',
      'WhySold above recorded stockPrice not on record',
      'Close review',
    ]);
    expect(within(second).getByText('Session had closed')).toBeTruthy();
    expect(within(second).getByText('Gone Seller')).toBeTruthy();
    expect(within(first).getByRole('button', { name: 'Close review of S-000715' })).toBeTruthy();
    expect(screen.queryByText(/^stock$|^price$|^session$/)).toBeNull();
  });

  it('switching to Reviewed asks status=closed, keeps it in the address, and shows the note, who and when', async () => {
    const { calls, router } = renderAt(OFFLINE_REVIEW_PATH, {
      'GET /api/sales/review': ({ query }) =>
        answer(query.status === 'closed' ? [closedItem] : [reviewItem(715)], query),
    });
    await screen.findByText('S-000715');
    await userEvent.click(screen.getByRole('tab', { name: 'Reviewed' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=closed'));
    const table = await screen.findByRole('table', { name: 'Reviewed offline sales, newest sold first' });
    await within(table).findByText('S-000700');
    expect(reviewCalls(calls).at(-1)?.query).toEqual({ status: 'closed', page: '1', pageSize: '50' });
    expect(within(table).getByText('Drawer counted; the cash is in the next session.')).toBeTruthy();
    expect(within(table).getByText(/^Closed by Ada Admin,/)).toBeTruthy();
    expect(within(table).queryByRole('button', { name: /Close review/ })).toBeNull();

    // The arrow keys move between the tabs, and back to Open the address is clean again.
    screen.getByRole('tab', { name: 'Reviewed' }).focus();
    await userEvent.keyboard('{ArrowLeft}');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Open' }));
    await screen.findByText('S-000715');
  });

  it('opens on Reviewed from the address', async () => {
    const { calls } = renderAt(`${OFFLINE_REVIEW_PATH}?status=closed`, {
      'GET /api/sales/review': ({ query }) => answer([closedItem], query),
    });
    await screen.findByText('S-000700');
    expect(reviewCalls(calls).map((call) => call.query.status)).toEqual(['closed']);
  });

  it('closing a review sends the note with an Idempotency-Key and refreshes the list', async () => {
    let open = [reviewItem(715), reviewItem(714)];
    const { calls } = renderAt(OFFLINE_REVIEW_PATH, {
      'GET /api/sales/review': ({ query }) => answer(open, query),
      'POST /api/sales/sale-715/review': ({ body }) => {
        const note = (body as { note: string }).note;
        const closed = { ...reviewItem(715), note, reviewedBy: { _id: 'admin-id', name: 'Test admin' } };
        open = open.filter((one) => one.sale._id !== 'sale-715');
        return {
          body: ReviewResponse.parse({
            success: true,
            review: { ...closed, reviewedAt: '2025-06-02T10:00:00.000Z' },
          }),
        };
      },
    });
    await screen.findByText('S-000715');
    const asked = reviewCalls(calls).length;
    await userEvent.click(screen.getByRole('button', { name: 'Close review of S-000715' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close review of S-000715' });
    expect(within(dialog).getByText('Sold above recorded stock')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('Note'), '  Counted the shelf: 3 more found.  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close review' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [sent] = posts(calls);
    expect(sent?.path).toBe('/api/sales/sale-715/review');
    expect(sent?.body).toEqual({ note: 'Counted the shelf: 3 more found.' });
    expect(sent?.headers['Idempotency-Key']).toMatch(/.+/);
    expect(await screen.findByText('The review of S-000715 is closed.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('S-000715')).toBeNull());
    expect(reviewCalls(calls).length).toBeGreaterThan(asked);
    expect(screen.getByText('S-000714')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Open' })));
  });

  it('a review closed meanwhile says so in its sentence, and the list is read again', async () => {
    let open = [reviewItem(715)];
    const { calls } = renderAt(OFFLINE_REVIEW_PATH, {
      'GET /api/sales/review': ({ query }) => answer(open, query),
      'POST /api/sales/sale-715/review': () => {
        open = [];
        return {
          status: 409,
          body: {
            success: false,
            code: 'REVIEW_CLOSED',
            error: refusalSentence('REVIEW_CLOSED', { sale: 'S-000715' }),
          },
        };
      },
    });
    await screen.findByText('S-000715');
    await userEvent.click(screen.getByRole('button', { name: 'Close review of S-000715' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Note'), 'Checked.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close review' }));
    expect(
      await within(dialog).findByText('S-000715 has no open review. It is listed under Reviewed.'),
    ).toBeTruthy();
    expect(await screen.findByText('No offline sales to review.')).toBeTruthy();
    expect(posts(calls)).toHaveLength(1);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('an empty note is refused before anything is sent', async () => {
    const { calls } = renderAt(OFFLINE_REVIEW_PATH, {
      'GET /api/sales/review': ({ query }) => answer([reviewItem(715)], query),
    });
    await screen.findByText('S-000715');
    await userEvent.click(screen.getByRole('button', { name: 'Close review of S-000715' }));
    const dialog = await screen.findByRole('dialog');
    const note = within(dialog).getByLabelText('Note');
    expect(note.getAttribute('maxlength')).toBe('500');
    await userEvent.type(note, '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close review' }));
    expect(await within(dialog).findByText('Say what was done: note must not be empty.')).toBeTruthy();
    expect(note.getAttribute('aria-invalid')).toBe('true');
    expect(posts(calls)).toEqual([]);
  });

  it('says when there is nothing to review, and a failure is never the empty list', async () => {
    let failures = 1;
    renderAt(OFFLINE_REVIEW_PATH, {
      'GET /api/sales/review': ({ query }) =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'An internal error occurred.' } }
          : answer([], query),
    });
    expect(
      await screen.findByText('The offline sales could not be loaded: An internal error occurred.'),
    ).toBeTruthy();
    expect(screen.queryByText('No offline sales to review.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No offline sales to review.')).toBeTruthy();
  });
});
