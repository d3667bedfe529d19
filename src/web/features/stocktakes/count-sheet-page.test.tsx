import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StocktakeLine } from '../../../shared/stocktakes';
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

afterEach(() => vi.restoreAllMocks());

const LINES: StocktakeLine[] = [
  line('p1', 'Paracetamol 500 mg'),
  line('p2', 'Serum', { lot: { _id: 'lot-a', number: 'A12', expiresOn: '2027-03-03' } }),
  line('p3', 'Blue Pen', { lot: { _id: 'lot-b', number: 'B7', expiresOn: null } }),
];

function serving(lines = LINES, extra: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    'GET /api/stocktakes/s1': () => answerStocktake(stocktake({ lines: lines.length })),
    'GET /api/stocktakes/s1/lines': ({ query }) =>
      query.format === 'csv'
        ? { body: 'Name,SKU,Barcode,Lot,Expiry,Counted\r\n' }
        : answerLines(lines, query),
    ...extra,
  };
}

const sheet = () => screen.findByRole('table', { name: 'Lines of ST-000001 to count' });

describe('the count sheet', () => {
  it('lists every line: Name, SKU, Barcode, Lot, Expiry and a blank Counted box; Print prints', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderStocktakes('/admin-dashboard/stocktakes/s1/sheet', serving());
    const table = await sheet();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'SKU', 'Barcode', 'Lot', 'Expiry', 'Counted']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => Array.from(row.querySelectorAll('td')).map((td) => td.textContent))).toEqual([
      ['Paracetamol 500 mg', 'SKU-p1', '400p1', '', '', ''],
      ['Serum', 'SKU-p2', '400p2', 'A12', 'Mar 3, 2027', ''],
      ['Blue Pen', 'SKU-p3', '400p3', 'B7', 'Does not expire', ''],
    ]);
    expect(screen.getByRole('heading', { name: 'Count sheet ST-000001' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
    // The buttons are not printed.
    expect(screen.getByRole('button', { name: 'Print' }).parentElement?.className).toContain('print:hidden');
  });

  it('reads every page of a long sheet', async () => {
    const many = Array.from({ length: 230 }, (_, i) => line(`m${i}`, `Item ${i}`));
    const { calls } = renderStocktakes('/admin-dashboard/stocktakes/s1/sheet', serving(many));
    const table = await sheet();
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(231));
    expect(callsTo(calls, 'GET', '/api/stocktakes/s1/lines').map((call) => call.query.page)).toEqual([
      '1',
      '2',
      '3',
    ]);
  });

  it('Download sheet (CSV) asks for the lines as CSV', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }),
    );
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { calls } = renderStocktakes('/admin-dashboard/stocktakes/s1/sheet', serving());
    await sheet();
    await userEvent.click(screen.getByRole('button', { name: 'Download sheet (CSV)' }));
    await waitFor(() => expect(clicked).toHaveBeenCalledTimes(1));
    expect(callsTo(calls, 'GET', '/api/stocktakes/s1/lines').at(-1)?.query).toEqual({ format: 'csv' });
  });

  it('Upload filled sheet sends the file as text/csv, and says how many lines it counted', async () => {
    const { calls, fetchMock } = renderStocktakes(
      '/employee-dashboard/stocktakes/s1/sheet',
      serving(LINES, {
        'POST /api/stocktakes/s1/counts': () =>
          answerCounted(stocktake(), [{ ...(LINES[0] as StocktakeLine), counted: 5 }]),
      }),
      'user',
    );
    await sheet();
    const file = new File(
      ['Name,SKU,Barcode,Lot,Expiry,Counted\r\nParacetamol 500 mg,SKU-p1,,,,5\r\n'],
      'sheet.csv',
      {
        type: 'text/csv',
      },
    );
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    const choose = vi.spyOn(input, 'click');
    await userEvent.click(screen.getByRole('button', { name: 'Upload filled sheet' }));
    expect(choose).toHaveBeenCalledTimes(1);
    await userEvent.upload(input, file);
    expect(await screen.findByText('sheet.csv: 1 line counted in ST-000001.')).toBeTruthy();
    const [post] = callsTo(calls, 'POST', '/api/stocktakes/s1/counts');
    expect(post?.headers['Content-Type']).toBe('text/csv');
    const sent = fetchMock.mock.calls.find(
      ([url, init]) => String(url).endsWith('/counts') && init?.method === 'POST',
    );
    const body = sent?.[1]?.body;
    expect(body).toBeInstanceOf(Blob);
    expect(await (body as Blob).text()).toContain('Paracetamol 500 mg,SKU-p1,,,,5');
    // A counter has no stocktake page to go back to.
    expect(screen.queryByRole('link', { name: 'Back to the stocktake' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Count on screen' }).getAttribute('href')).toBe(
      '/employee-dashboard/stocktakes/s1/count',
    );
  });

  it('a sheet refused (STOCKTAKE_SHEET_INVALID) lists each bad row by its line', async () => {
    renderStocktakes(
      '/admin-dashboard/stocktakes/s1/sheet',
      serving(LINES, {
        'POST /api/stocktakes/s1/counts': () =>
          refusal(
            400,
            'STOCKTAKE_SHEET_INVALID',
            '2 rows of the sheet cannot be counted, so nothing was counted.',
            {
              details: [
                { path: 'line 3', message: 'No product has the SKU or barcode XYZ.' },
                { path: 'line 5', message: 'Counted must be a whole number from 0 to 1,000,000.' },
              ],
            },
          ),
      }),
    );
    await sheet();
    await userEvent.upload(
      document.querySelector('input[type="file"]') as HTMLInputElement,
      new File(['x'], 'bad.csv'),
    );
    const alert = await screen.findByText('2 rows of the sheet cannot be counted, so nothing was counted.');
    const rows = within(screen.getByRole('list', { name: 'Rows that cannot be counted' })).getAllByRole(
      'listitem',
    );
    expect(rows.map((row) => row.textContent)).toEqual([
      'Line 3: No product has the SKU or barcode XYZ.',
      'Line 5: Counted must be a whole number from 0 to 1,000,000.',
    ]);
    expect(alert.closest('[role="alert"]')).toBeTruthy();
  });

  it('says when the lines could not be loaded, and tries again', async () => {
    let failures = 1;
    renderStocktakes('/admin-dashboard/stocktakes/s1/sheet', {
      ...serving(),
      'GET /api/stocktakes/s1/lines': ({ query }) =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'An internal error occurred.' } }
          : answerLines(LINES, query),
    });
    expect(
      await screen.findByText('The lines could not be loaded: An internal error occurred.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Print' })).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await sheet()).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Print' })).toHaveProperty('disabled', false);
  });

  it('a stocktake no longer counting offers no upload', async () => {
    renderStocktakes('/admin-dashboard/stocktakes/s1/sheet', {
      ...serving(),
      'GET /api/stocktakes/s1': () => answerStocktake(stocktake({ status: 'posted' })),
    });
    await sheet();
    expect(screen.queryByRole('button', { name: 'Upload filled sheet' })).toBeNull();
  });
});
