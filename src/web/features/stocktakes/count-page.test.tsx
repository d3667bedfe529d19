import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CountInput, Stocktake, StocktakeLine } from '../../../shared/stocktakes';
import { atViewport } from '../../test/viewport';
import {
  answerCounted,
  answerLines,
  answerStocktake,
  callsTo,
  type Handler,
  line,
  refusal,
  renderStocktakes,
  stocktake,
} from './stocktakes-test-data';

const PARACETAMOL = line('p1', 'Paracetamol 500 mg', { counted: 6, expected: 9 });
const LOT_A = { _id: 'lot-a', number: 'A12', expiresOn: '2027-03-03' };
const SERUM_A = line('p2', 'Serum', { _id: 'line-p2-a', lot: LOT_A, expected: 3 });
const SERUM_B = line('p2', 'Serum', {
  _id: 'line-p2-b',
  lot: { _id: 'lot-b', number: 'B7', expiresOn: null },
  expected: 1,
});
const PEN = line('p3', 'Blue Pen', { expected: 12 });
const LINES = [PEN, PARACETAMOL, SERUM_A, SERUM_B];

/**
 * A fake server holding one stocktake and its lines: counts add or set as the server does (a
 * tracked product without its lot is LOT_NEEDED, a code not on a line out of scope).
 */
function serving(start: Stocktake = stocktake(), extra: Record<string, Handler> = {}) {
  const lines = LINES.map((one) => ({ ...one }));
  const handlers: Record<string, Handler> = {
    'GET /api/stocktakes/s1': () => answerStocktake(start),
    'GET /api/stocktakes/s1/lines': ({ query }) =>
      answerLines(
        start.blind
          ? lines.map(({ expected: _e, expectedAtCount: _a, ...rest }) => rest as StocktakeLine)
          : lines,
        query,
      ),
    'POST /api/stocktakes/s1/counts': ({ body }) => {
      const counted: StocktakeLine[] = [];
      for (const count of (body as { counts: CountInput[] }).counts) {
        const code = count.product.toLowerCase();
        const mine = lines.filter((one) =>
          [one.product._id, one.product.sku, one.product.barcode].some((id) => id.toLowerCase() === code),
        );
        if (mine.length === 0)
          return refusal(400, 'STOCKTAKE_OUT_OF_SCOPE', `${count.product} is not counted in ST-000001.`);
        if (mine.some((one) => one.lot) && !count.lot)
          return refusal(400, 'LOT_NEEDED', 'Name the lot: this product is tracked by lot.');
        let target = mine.find((one) => !count.lot || one.lot?.number === count.lot.number);
        if (!target) {
          const first = mine[0] as StocktakeLine;
          target = {
            ...first,
            _id: `line-new-${count.lot?.number}`,
            lot: { _id: 'lot-new', number: count.lot?.number ?? '', expiresOn: count.lot?.expiresOn ?? null },
            counted: null,
          };
          lines.push(target);
        }
        target.counted = count.mode === 'add' ? (target.counted ?? 0) + count.quantity : count.quantity;
        target.countedBy = { _id: 'u1', name: 'Test user' };
        target.countedAt = '2025-05-01T11:00:00.000Z';
        counted.push({ ...target });
      }
      return answerCounted(start, counted);
    },
    ...extra,
  };
  return handlers;
}

const scanBox = () => screen.getByLabelText('Scan or type a SKU or barcode') as HTMLInputElement;
const lastAnswer = () => document.querySelector('[data-flash]');
const counts = (calls: Parameters<typeof callsTo>[0]) =>
  callsTo(calls, 'POST', '/api/stocktakes/s1/counts').map((call) => call.body);

async function scan(code: string) {
  await userEvent.type(scanBox(), `${code}{Enter}`);
}

describe('the count screen: scanning', () => {
  it('has the scan box focused; each scan (code + Enter) adds 1 and says the line counted', async () => {
    const { calls } = renderStocktakes('/admin-dashboard/stocktakes/s1/count', serving());
    expect(await screen.findByRole('heading', { name: 'Count ST-000001' })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(scanBox()));
    await scan('SKU-p1');
    await waitFor(() => expect(lastAnswer()?.textContent).toBe('Paracetamol 500 mg — 7 counted'));
    expect(lastAnswer()?.getAttribute('data-flash')).toBe('counted');
    expect(scanBox().value).toBe('');
    expect(document.activeElement).toBe(scanBox());
    // The barcode finds the same line; each scan is its own count with its own key.
    await scan('400p1');
    await waitFor(() => expect(lastAnswer()?.textContent).toBe('Paracetamol 500 mg — 8 counted'));
    expect(counts(calls)).toEqual([
      { counts: [{ product: 'SKU-p1', quantity: 1, mode: 'add' }] },
      { counts: [{ product: '400p1', quantity: 1, mode: 'add' }] },
    ]);
    const keys = callsTo(calls, 'POST', '/api/stocktakes/s1/counts').map(
      (call) => call.headers['Idempotency-Key'],
    );
    expect(new Set(keys).size).toBe(2);
    expect(screen.getByRole('list', { name: 'Earlier scans' }).textContent).toBe(
      'Paracetamol 500 mg — 7 counted',
    );
  });

  it('the Count 1 button sends what was typed, and an empty box sends nothing', async () => {
    const { calls } = renderStocktakes('/admin-dashboard/stocktakes/s1/count', serving());
    await screen.findByRole('heading', { name: 'Count ST-000001' });
    await userEvent.click(screen.getByRole('button', { name: 'Count 1' }));
    expect(await screen.findByText('Scan or type a code first.')).toBeTruthy();
    expect(counts(calls)).toEqual([]);
    await userEvent.type(scanBox(), 'SKU-p3');
    await userEvent.click(screen.getByRole('button', { name: 'Count 1' }));
    await waitFor(() => expect(lastAnswer()?.textContent).toBe('Blue Pen — 1 counted'));
    expect(document.activeElement).toBe(scanBox());
  });

  it('a code outside the stocktake is refused in the server’s sentence, flashed red', async () => {
    renderStocktakes('/admin-dashboard/stocktakes/s1/count', serving());
    await screen.findByRole('heading', { name: 'Count ST-000001' });
    await scan('NOPE-1');
    await waitFor(() => expect(lastAnswer()?.textContent).toBe('NOPE-1 is not counted in ST-000001.'));
    expect(lastAnswer()?.getAttribute('data-flash')).toBe('refused');
    expect(document.activeElement).toBe(scanBox());
  });

  it('a tracked product asks for its lot: one of its lines’ lots, then the scan is sent again with it', async () => {
    const { calls } = renderStocktakes('/admin-dashboard/stocktakes/s1/count', serving());
    await screen.findByRole('heading', { name: 'Count ST-000001' });
    await scan('SKU-p2');
    const dialog = await screen.findByRole('dialog', { name: 'Which lot of Serum?' });
    expect(lastAnswer()?.getAttribute('data-flash')).toBe('asked');
    expect(lastAnswer()?.textContent).toBe('SKU-p2: Name the lot: this product is tracked by lot.');
    const lots = within(dialog).getAllByRole('radio');
    // The first lot has the focus: the arrow keys choose, Enter counts.
    await waitFor(() => expect(document.activeElement).toBe(lots[0]));
    expect(lots.map((one) => one.closest('label')?.textContent)).toEqual([
      'A12 · Mar 3, 2027(0 counted)',
      'B7 · Does not expire(0 counted)',
      'Another lot (not on the list)',
    ]);
    // Nothing chosen yet: Count 1 says what is missing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Count 1' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose the lot you counted.');
    await userEvent.click(within(dialog).getByLabelText(/B7/));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Count 1' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(lastAnswer()?.textContent).toBe('Serum, lot B7 — 1 counted'));
    expect(document.activeElement).toBe(scanBox());
    expect(counts(calls).at(-1)).toEqual({
      counts: [{ product: 'SKU-p2', lot: { number: 'B7' }, quantity: 1, mode: 'add' }],
    });
  });

  it('the lot is chosen by keyboard alone: Space picks the focused lot, Enter counts it', async () => {
    const { calls } = renderStocktakes('/admin-dashboard/stocktakes/s1/count', serving());
    await screen.findByRole('heading', { name: 'Count ST-000001' });
    await scan('SKU-p2');
    const dialog = await screen.findByRole('dialog', { name: 'Which lot of Serum?' });
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getAllByRole('radio')[0]));
    await userEvent.keyboard(' ');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(lastAnswer()?.textContent).toBe('Serum, lot A12 — 1 counted'));
    expect(counts(calls).at(-1)).toEqual({
      counts: [{ product: 'SKU-p2', lot: { number: 'A12' }, quantity: 1, mode: 'add' }],
    });
    await waitFor(() => expect(document.activeElement).toBe(scanBox()));
  });

  it('a lot not on the list is typed with its expiry (checked first) and becomes a line', async () => {
    const { calls } = renderStocktakes('/admin-dashboard/stocktakes/s1/count', serving());
    await screen.findByRole('heading', { name: 'Count ST-000001' });
    await scan('400p2');
    const dialog = await screen.findByRole('dialog', { name: 'Which lot of Serum?' });
    await userEvent.click(within(dialog).getByLabelText('Another lot (not on the list)'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Count 1' }));
    expect(within(dialog).getByText('Enter the expiry date, or tick Does not expire.')).toBeTruthy();
    expect(counts(calls)).toHaveLength(1);
    await userEvent.type(within(dialog).getByLabelText('Lot number'), 'C99');
    await userEvent.type(within(dialog).getByLabelText('Expires on'), '2028-01-31');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Count 1' }));
    await waitFor(() => expect(lastAnswer()?.textContent).toBe('Serum, lot C99 — 1 counted'));
    expect(counts(calls).at(-1)).toEqual({
      counts: [
        { product: '400p2', lot: { number: 'C99', expiresOn: '2028-01-31' }, quantity: 1, mode: 'add' },
      ],
    });
  });

  it('Skip this scan closes the lot question without counting and gives the scan box its focus back', async () => {
    const { calls } = renderStocktakes('/admin-dashboard/stocktakes/s1/count', serving());
    await screen.findByRole('heading', { name: 'Count ST-000001' });
    await scan('SKU-p2');
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Skip this scan' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(counts(calls)).toHaveLength(1);
    await waitFor(() => expect(document.activeElement).toBe(scanBox()));
  });
});

const linesTable = () => screen.findByRole('table', { name: 'Lines of ST-000001' });
const rows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

describe('the count screen: the lines', () => {
  it('shows each line with its codes, lot, expected and counted (and who counted it)', async () => {
    renderStocktakes('/admin-dashboard/stocktakes/s1/count', serving());
    const table = await linesTable();
    await waitFor(() => expect(rows(table)).toHaveLength(4));
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Product', 'Lot', 'Expected', 'Counted', 'New count']);
    expect(rows(table)[2]?.textContent).toContain(
      'SerumSKU-p2 · 400p2Lot A12 · Mar 3, 2027Expected 3Counted —',
    );
  });

  it('in a blind stocktake shows no expected column', async () => {
    renderStocktakes(
      '/salesRep-dashboard/stocktakes/s1/count',
      serving(stocktake({ blind: true })),
      'salesRep',
    );
    const table = await linesTable();
    await waitFor(() => expect(rows(table)).toHaveLength(4));
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Product', 'Lot', 'Counted', 'New count']);
    expect(table.textContent).not.toContain('Expected');
    expect(screen.getByText('Blind count')).toBeTruthy();
    // A counter goes back to the open stocktakes of their own area.
    expect(screen.getByRole('link', { name: 'Back to Stocktake' }).getAttribute('href')).toBe(
      '/salesRep-dashboard/stocktakes',
    );
    expect(screen.getByRole('link', { name: 'Count sheet' }).getAttribute('href')).toBe(
      '/salesRep-dashboard/stocktakes/s1/sheet',
    );
  });

  it('searches and filters counted / not counted, both kept in the address', async () => {
    const { calls, router } = renderStocktakes('/admin-dashboard/stocktakes/s1/count', serving());
    const table = await linesTable();
    await waitFor(() => expect(rows(table)).toHaveLength(4));
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'Not counted yet');
    await waitFor(() => expect(rows(table)).toHaveLength(3));
    expect(router.state.location.search).toBe('?counted=false');
    await userEvent.type(screen.getByLabelText('Search lines'), 'serum');
    await waitFor(() => expect(rows(table)).toHaveLength(2));
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'Counted');
    expect(await within(table).findByText('No lines match.')).toBeTruthy();
    const asked = callsTo(calls, 'GET', '/api/stocktakes/s1/lines').map((call) => call.query);
    expect(asked).toContainEqual({ counted: 'false', search: 'serum', page: '1', pageSize: '50' });
    expect(asked.at(-1)).toEqual({ counted: 'true', search: 'serum', page: '1', pageSize: '50' });
  });

  it('a typed quantity sets the line on Enter (its lot named); with Add it adds', async () => {
    const { calls } = renderStocktakes('/admin-dashboard/stocktakes/s1/count', serving());
    const table = await linesTable();
    await waitFor(() => expect(rows(table)).toHaveLength(4));
    await userEvent.type(screen.getByLabelText('New count for Serum, lot A12'), '4{Enter}');
    await waitFor(() => expect(lastAnswer()?.textContent).toBe('Serum, lot A12 — 4 counted'));
    await waitFor(() => expect(rows(table)[2]?.textContent).toContain('Counted 4Test user'));
    expect((screen.getByLabelText('New count for Serum, lot A12') as HTMLInputElement).value).toBe('');
    // The next scan goes to the scan box.
    expect(document.activeElement).toBe(scanBox());
    await userEvent.click(screen.getByLabelText('Add to the count'));
    await userEvent.type(screen.getByLabelText('Add for Paracetamol 500 mg'), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Save the count of Paracetamol 500 mg' }));
    await waitFor(() => expect(lastAnswer()?.textContent).toBe('Paracetamol 500 mg — 9 counted'));
    expect(counts(calls)).toEqual([
      { counts: [{ product: 'p2', lot: { number: 'A12' }, quantity: 4, mode: 'set' }] },
      { counts: [{ product: 'p1', quantity: 3, mode: 'add' }] },
    ]);
  });

  it('a typed quantity that is not a count is said at its line and not sent; a refusal is shown there too', async () => {
    const { calls } = renderStocktakes(
      '/admin-dashboard/stocktakes/s1/count',
      serving(stocktake(), {
        'POST /api/stocktakes/s1/counts': () =>
          refusal(409, 'STOCKTAKE_STATUS', 'ST-000001 is posted: it cannot be counted.'),
      }),
    );
    const table = await linesTable();
    await waitFor(() => expect(rows(table)).toHaveLength(4));
    const box = screen.getByLabelText('New count for Blue Pen');
    await userEvent.type(box, '{Enter}');
    expect(await within(table).findByText('Type the quantity.')).toBeTruthy();
    expect(box.getAttribute('aria-invalid')).toBe('true');
    await userEvent.type(box, '2000000{Enter}');
    expect(await within(table).findByText('quantity must be at most 1,000,000.')).toBeTruthy();
    expect(counts(calls)).toEqual([]);
    await userEvent.clear(box);
    await userEvent.type(box, '2{Enter}');
    expect(await within(table).findByText('ST-000001 is posted: it cannot be counted.')).toBeTruthy();
  });

  it('says when the lines could not be loaded (never as none), and tries again', async () => {
    let failures = 1;
    const base = serving();
    renderStocktakes('/admin-dashboard/stocktakes/s1/count', {
      ...base,
      'GET /api/stocktakes/s1/lines': (call) =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'An internal error occurred.' } }
          : (base['GET /api/stocktakes/s1/lines'] as Handler)(call),
    });
    const table = await linesTable();
    expect(
      await within(table).findByText('The lines could not be loaded: An internal error occurred.'),
    ).toBeTruthy();
    expect(within(table).queryByText('This stocktake has no lines.')).toBeNull();
    await userEvent.click(within(table).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(rows(table)).toHaveLength(4));
  });

  it('pages through many lines', async () => {
    const many = Array.from({ length: 60 }, (_, i) => line(`m${i}`, `Item ${String(i).padStart(2, '0')}`));
    renderStocktakes('/admin-dashboard/stocktakes/s1/count', {
      ...serving(),
      'GET /api/stocktakes/s1/lines': ({ query }) => answerLines(many, query),
    });
    const table = await linesTable();
    await waitFor(() => expect(rows(table)).toHaveLength(50));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(rows(table)).toHaveLength(10));
    expect(screen.getByText('Showing 51–60 of 60')).toBeTruthy();
  });
});

describe('the count screen: other states', () => {
  it('a stocktake no longer counting says nothing more can be counted', async () => {
    renderStocktakes('/admin-dashboard/stocktakes/s1/count', serving(stocktake({ status: 'posted' })));
    expect(await screen.findByText('ST-000001 is posted: nothing more can be counted.')).toBeTruthy();
    expect(screen.queryByLabelText('Scan or type a SKU or barcode')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to the stocktake' }).getAttribute('href')).toBe(
      '/admin-dashboard/stocktakes/s1',
    );
  });

  it('says when the stocktake does not exist (no Try again)', async () => {
    renderStocktakes('/admin-dashboard/stocktakes/nope/count', {
      'GET /api/stocktakes/nope': () => refusal(404, 'NOT_FOUND', 'Stocktake not found.'),
    });
    expect(await screen.findByText('This stocktake does not exist.')).toBeTruthy();
  });

  it('on a phone the lines stack as cards with touch-sized boxes, the scan box first', async () => {
    atViewport(375);
    renderStocktakes('/medicalRep-dashboard/stocktakes/s1/count', serving(), 'medicalRep');
    const table = await linesTable();
    await waitFor(() => expect(rows(table)).toHaveLength(4));
    expect(table.querySelector('thead')?.className).toContain('max-sm:sr-only');
    expect(rows(table)[0]?.className).toContain('max-sm:grid');
    expect(screen.getByLabelText('New count for Blue Pen').className).toContain('max-sm:min-h-11');
    expect(scanBox().compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
