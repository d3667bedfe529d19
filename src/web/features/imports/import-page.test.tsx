import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  CSV_MIME,
  guessMapping,
  IMPORT_FIELD_HEADER,
  IMPORT_FIELDS,
  XLSX_MIME,
} from '../../../shared/imports';
import { atViewport } from '../../test/viewport';
import {
  callsTo,
  IMPORT_ID,
  IMPORT_PATH,
  importOf,
  importServer,
  ok,
  ROWS,
  refused,
  renderImport,
  rowsAnswer,
  SUMMARY,
  UPLOAD_PATH,
} from './imports-test-data';

const fileInput = () => screen.getByLabelText('Products file') as HTMLInputElement;
const select = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement;
const rowsTable = () => screen.getByRole('table', { name: 'Checked rows of the file' });
/** The body and headers the upload was sent with, as fetch received them. */
function uploadSent(fetchMock: ReturnType<typeof renderImport>['fetchMock']) {
  const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
  if (!call) throw new Error('No upload was sent.');
  const [input, init = {}] = call;
  return { url: new URL(String(input), 'http://localhost'), init };
}

describe('the upload', () => {
  it('sends the raw CSV with its Content-Type and name, then opens the new import at its mapping', async () => {
    const { handlers } = importServer(importOf());
    const { fetchMock, router } = renderImport(UPLOAD_PATH, {
      ...handlers,
      'POST /api/imports/products': () => ok(importOf(), 201),
    });
    expect(screen.getByRole('heading', { name: 'Import products', level: 1 })).toBeTruthy();
    const text = 'Product name,Item code\r\nBlue pen,PEN-1\r\n';
    await userEvent.upload(
      fileInput(),
      new File([text], 'spring list.csv', { type: 'application/vnd.ms-excel' }),
    );
    // The file chosen is named with its size before anything is sent.
    expect(screen.getByText('spring list.csv')).toBeTruthy();
    expect(screen.getByText(`(${text.length} bytes)`)).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Upload and map columns' }));
    const heading = await screen.findByRole('heading', { name: 'Match the columns' });
    expect(router.state.location.pathname).toBe(IMPORT_PATH);
    // The step's heading has the focus, so a screen reader says where the reader now is.
    await waitFor(() => expect(document.activeElement).toBe(heading));

    const { url, init } = uploadSent(fetchMock);
    expect(url.pathname).toBe('/api/imports/products');
    expect(url.searchParams.get('fileName')).toBe('spring list.csv');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe(CSV_MIME);
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer test-token');
    // The body is the file itself, not JSON.
    expect(init.body).toBeInstanceOf(Blob);
    expect(await (init.body as Blob).text()).toBe(text);
  });

  it('sends an Excel file as XLSX whatever the browser called it', async () => {
    const { fetchMock } = renderImport(UPLOAD_PATH, {
      'POST /api/imports/products': () => ok(importOf({ fileName: 'list.xlsx', fileType: 'xlsx' }), 201),
      [`GET /api/imports/${IMPORT_ID}/rows`]: rowsAnswer([]),
    });
    await userEvent.upload(fileInput(), new File(['PK\u0003\u0004'], 'list.xlsx', { type: '' }), {
      applyAccept: false,
    });
    await userEvent.click(screen.getByRole('button', { name: 'Upload and map columns' }));
    await screen.findByRole('heading', { name: 'Match the columns' });
    const { url, init } = uploadSent(fetchMock);
    expect((init.headers as Record<string, string>)['Content-Type']).toBe(XLSX_MIME);
    expect(url.searchParams.get('fileName')).toBe('list.xlsx');
  });

  it("shows a 413's sentence and sends the same file again on Try again", async () => {
    let answers = 0;
    const { fetchMock } = renderImport(UPLOAD_PATH, {
      'POST /api/imports/products': () => {
        answers += 1;
        return answers === 1
          ? refused(413, 'The file has more than 200,000 rows: split it into smaller files.')
          : ok(importOf(), 201);
      },
    });
    await userEvent.upload(fileInput(), new File(['Name\r\nPen\r\n'], 'big.csv', { type: 'text/csv' }));
    await userEvent.click(screen.getByRole('button', { name: 'Upload and map columns' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The file could not be uploaded: The file has more than 200,000 rows: split it into smaller files.',
    );
    // No way on but trying again or choosing another file.
    expect(screen.queryByRole('button', { name: 'Upload and map columns' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { name: 'Match the columns' });
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(2);
  });

  it('says what a bare 413 (a limit met before the app answered) means', async () => {
    renderImport(UPLOAD_PATH, {
      'POST /api/imports/products': () => ({ status: 413, body: '<html>Request Entity Too Large</html>' }),
    });
    await userEvent.upload(fileInput(), new File(['Name\r\nPen\r\n'], 'big.csv', { type: 'text/csv' }));
    await userEvent.click(screen.getByRole('button', { name: 'Upload and map columns' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The file could not be uploaded: The file is larger than an import takes (50 MB or 200,000 rows): split it into smaller files.',
    );
  });

  it('refuses a file of another kind, or an empty one, before sending anything', async () => {
    const { fetchMock } = renderImport(UPLOAD_PATH, {});
    await userEvent.upload(fileInput(), new File(['x'], 'old.xls', { type: 'application/vnd.ms-excel' }), {
      applyAccept: false,
    });
    expect(screen.getByRole('alert').textContent).toBe(
      'Old Excel files (.xls) cannot be read: save the sheet as .xlsx or .csv and choose it again.',
    );
    expect(screen.queryByRole('button', { name: 'Upload and map columns' })).toBeNull();
    await userEvent.upload(fileInput(), new File([], 'empty.csv', { type: 'text/csv' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'This file is empty: choose the file that holds your products.',
    );
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toEqual([]);
  });

  it('takes a dropped file, and its drop zone is a button that opens the file picker', async () => {
    renderImport(UPLOAD_PATH, {});
    const zone = screen.getByRole('button', { name: /^Choose a file/ });
    let opened = 0;
    fileInput().addEventListener('click', () => {
      opened += 1;
    });
    zone.focus();
    await userEvent.keyboard('{Enter}');
    expect(opened).toBe(1);
    const dropped = new File(['Name\r\nPen\r\n'], 'dropped.csv', { type: 'text/csv' });
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [dropped] } });
    zone.dispatchEvent(drop);
    expect(await screen.findByText('dropped.csv')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload and map columns' })).toBeTruthy();
  });

  it('offers a sample file whose header row is the import header', () => {
    renderImport(UPLOAD_PATH, {});
    const link = screen.getByRole('link', { name: 'Download a sample file' }) as HTMLAnchorElement;
    expect(link.getAttribute('download')).toBe('products-sample.csv');
    const csv = decodeURIComponent(link.href.slice(link.href.indexOf(',') + 1));
    const header = csv.split('\r\n')[0];
    expect(header).toBe(IMPORT_FIELDS.map((field) => `"${IMPORT_FIELD_HEADER[field]}"`).join(','));
  });
});

describe('the mapping', () => {
  it('starts from the guess, shows the first rows, and checks with the columns and options chosen', async () => {
    const { handlers, state } = importServer(importOf());
    const { router } = renderImport(IMPORT_PATH, handlers);
    await screen.findByRole('heading', { name: 'Match the columns' });
    expect(select('Name').value).toBe('Product name');
    expect(select('SKU').value).toBe('Item code');
    expect(select('Barcode').value).toBe('EAN');
    expect(select('Price').value).toBe('Unit price');
    expect(select('Stock').value).toBe('Qty');
    expect(select('Category').value).toBe('Group');
    expect(select('Supplier').value).toBe('Vendor');
    expect(select('Description').value).toBe('');
    expect(
      within(select('Description'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'Not imported',
      'Product name',
      'Item code',
      'EAN',
      'Unit price',
      'Qty',
      'Group',
      'Vendor',
      'Notes',
    ]);

    // The preview heads its columns with the file's headers, the imported ones with their field.
    const preview = screen.getByRole('table', { name: 'First 2 rows of shop.csv' });
    const headers = within(preview)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers[0]).toBe('Product name→ Name');
    expect(headers[7]).toBe('Notesnot imported');
    expect(within(preview).getAllByRole('row')[1]?.textContent).toContain('Blue pen');

    await userEvent.selectOptions(select('Description'), 'Notes');
    expect(within(preview).getAllByRole('columnheader')[7]?.textContent).toBe('Notes→ Description');
    await userEvent.selectOptions(select('Barcode'), '');
    // Matching by a field without a column cannot be checked; the reason is said beside the button.
    await userEvent.click(screen.getByRole('radio', { name: 'Barcode' }));
    const checkButton = screen.getByRole('button', { name: 'Check file' }) as HTMLButtonElement;
    expect(checkButton.disabled).toBe(true);
    expect(screen.getByText('Matching by Barcode needs a column for Barcode.')).toBeTruthy();
    await userEvent.click(screen.getByRole('radio', { name: 'Name' }));
    // One column for two fields is refused here as the server would.
    await userEvent.selectOptions(select('Cost'), 'Unit price');
    expect(
      screen.getByText('The column “Unit price” is chosen for Price and Cost: a column serves one field.'),
    ).toBeTruthy();
    await userEvent.selectOptions(select('Cost'), '');
    expect(checkButton.disabled).toBe(false);

    await userEvent.click(screen.getByRole('checkbox', { name: 'Create missing categories' }));
    await userEvent.click(screen.getByRole('radio', { name: /^Add/ }));
    await userEvent.click(checkButton);

    await screen.findByRole('heading', { name: 'Check the result' });
    expect(state.checks).toEqual([
      {
        mapping: {
          name: 'Product name',
          sku: 'Item code',
          description: 'Notes',
          category: 'Group',
          supplier: 'Vendor',
          price: 'Unit price',
          stock: 'Qty',
        },
        matchBy: 'name',
        createMissing: { categories: true, suppliers: false },
        stock: 'add',
        format: 'generic',
      },
    ]);
    expect(router.state.location.search).toBe('');
  });

  it('maps a Batch and a Best before column to Lot and Expiry, checks with them and shows the lot a row moves', async () => {
    const columns = ['Item code', 'Qty', 'Batch', 'Best before'];
    const { handlers, state } = importServer(
      importOf({ columns, mapping: guessMapping(columns) as Record<string, string>, preview: [] }),
    );
    handlers[`GET /api/imports/${IMPORT_ID}/rows`] = rowsAnswer([
      {
        row: 2,
        result: 'update',
        product: { _id: 'p9', name: 'Aspirin 500 mg' },
        changes: [
          { field: 'stock', from: 14, to: 11 },
          { field: 'lot', from: 'K1: 10', to: 'K1: 7' },
        ],
        errors: [],
        cells: ['ASP-500', '7', 'K1', ''],
      },
      {
        row: 3,
        result: 'error',
        errors: [{ column: 'Best before', message: 'Lot K2 expires on 2027-01-31, not 2027-02-01.' }],
        cells: ['ASP-250', '3', 'K2', '2027-02-01'],
      },
    ]);
    renderImport(IMPORT_PATH, handlers);
    await screen.findByRole('heading', { name: 'Match the columns' });
    expect(select('Lot').value).toBe('Batch');
    expect(select('Expiry').value).toBe('Best before');
    expect(screen.getByText(/A row with a Lot is a lot-tracked product/)).toBeTruthy();
    expect(screen.getByText(/An empty cell keeps what the product already has/).textContent).toMatch(
      /a cell holding only - clears it\.$/,
    );
    expect(screen.getByText(/a row without one is found by its name/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Check file' }));
    await screen.findByRole('heading', { name: 'Check the result' });
    expect(state.checks[0]?.mapping).toEqual({
      sku: 'Item code',
      stock: 'Qty',
      lot: 'Batch',
      expiry: 'Best before',
    });
    await within(rowsTable()).findByRole('rowheader', { name: 'Line 2' });
    const rows = within(rowsTable()).getAllByRole('row').slice(1);
    expect(rows[0]?.textContent).toContain('Lot: K1: 10 → K1: 7');
    expect(rows[0]?.textContent).toContain('Stock: 14 → 11');
    expect(rows[1]?.textContent).toContain('Best before: Lot K2 expires on 2027-01-31, not 2027-02-01.');
  });

  it("shows the check's refusal as its sentence and keeps the choices", async () => {
    const { handlers } = importServer(importOf());
    renderImport(IMPORT_PATH, {
      ...handlers,
      [`POST /api/imports/${IMPORT_ID}/check`]: () =>
        refused(400, 'The mapping names a column the file does not have: “Qty”.'),
    });
    await screen.findByRole('heading', { name: 'Match the columns' });
    await userEvent.click(screen.getByRole('button', { name: 'Check file' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The file could not be checked: The mapping names a column the file does not have: “Qty”.',
    );
    expect(select('Stock').value).toBe('Qty');
  });

  it('comes back from the result with the mapping and options last checked (Change mapping)', async () => {
    const checked = importOf({
      status: 'checked',
      summary: SUMMARY,
      mapping: { name: 'Product name', sku: 'Item code' },
      options: { matchBy: 'sku', createMissing: { categories: false, suppliers: true }, stock: 'ignore' },
      checkedAt: '2026-11-28T08:01:00.000Z',
    });
    const { handlers } = importServer(checked);
    const { router } = renderImport(IMPORT_PATH, handlers);
    await screen.findByRole('heading', { name: 'Check the result' });
    expect(screen.getByText('Matched by SKU; stock left as it is; missing suppliers created.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Change mapping' }));
    const heading = await screen.findByRole('heading', { name: 'Match the columns' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(router.state.location.search).toBe('?step=mapping');
    expect(screen.queryByText(/^Matched by/)).toBeNull();
    expect(select('Price').value).toBe('');
    expect(
      (screen.getByRole('checkbox', { name: 'Create missing suppliers' }) as HTMLInputElement).checked,
    ).toBe(true);
    expect((screen.getByRole('radio', { name: /^Ignore/ }) as HTMLInputElement).checked).toBe(true);
    // Back returns to the result.
    await router.navigate(-1);
    await screen.findByRole('heading', { name: 'Check the result' });
  });
});

describe('the dry run', () => {
  const checked = () =>
    importOf({ status: 'checked', summary: SUMMARY, checkedAt: '2026-11-28T08:01:00.000Z' });

  it('shows the summary, the rows with their changes, and the error cell marked with its message', async () => {
    const { handlers } = importServer(checked());
    const { calls } = renderImport(IMPORT_PATH, handlers);
    await screen.findByRole('heading', { name: 'Check the result' });
    const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).nextSibling?.textContent;
    expect(figure('To create')).toBe('2');
    expect(figure('To update')).toBe('1');
    expect(figure('Unchanged')).toBe('1');
    expect(figure('With errors')).toBe('1');
    expect(screen.getByText('New categories (1)').nextSibling?.textContent).toBe('Paper');
    expect(screen.getByRole('button', { name: 'Import 3 products' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download failed rows' })).toBeTruthy();

    const table = rowsTable();
    await within(table).findByRole('rowheader', { name: 'Line 2' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(5);
    const update = rows[2] as HTMLElement;
    expect(within(update).getByRole('rowheader').textContent).toBe('Line 4');
    expect(update.textContent).toContain('Price: $1.20 → $1.35');
    // A matched product leads to its stock page.
    expect(within(update).getByRole('link', { name: 'Blue pen' }).getAttribute('href')).toBe(
      '/admin-dashboard/products/p1/stock',
    );

    const error = rows[4] as HTMLElement;
    expect(within(error).getByText('Error')).toBeTruthy();
    expect(error.textContent).toContain('Unit price: Must be at least 0.');
    // The offending cell is marked, and a screen reader hears its message with it.
    const marked = error.querySelectorAll('[data-cell-error]');
    expect(marked).toHaveLength(1);
    const cell = (marked[0] as HTMLElement).closest('td') as HTMLElement;
    expect(cell.className).toContain('bg-red-100');
    // Positioned, so its hidden message stays in the table's scrolling box (a phone's page widened to 1,102 px).
    expect(cell.className).toContain('relative');
    expect(cell.textContent).toBe('!-3 (error: Must be at least 0.)');
    const columnIndex = [...(cell.parentElement?.children ?? [])].indexOf(cell);
    expect(within(table).getAllByRole('columnheader')[columnIndex]?.textContent).toBe('Unit price');
    // The other cells of the row are not marked.
    for (const name of within(error).getAllByText('Broken ruler'))
      expect(name.closest('[data-cell-error]')).toBeNull();
    expect(callsTo(calls, 'GET', `/api/imports/${IMPORT_ID}/rows`)[0]?.query).toEqual({
      page: '1',
      pageSize: '50',
    });
  });

  it('filters the rows by result through the address', async () => {
    const { handlers } = importServer(checked());
    const { calls, router } = renderImport(IMPORT_PATH, handlers);
    await within(await screen.findByRole('table', { name: 'Checked rows of the file' })).findByRole(
      'rowheader',
      {
        name: 'Line 2',
      },
    );
    await userEvent.selectOptions(select('Show'), 'With errors (1)');
    expect(router.state.location.search).toBe('?result=error');
    await waitFor(() => expect(within(rowsTable()).getAllByRole('row')).toHaveLength(2));
    expect(within(rowsTable()).getByRole('rowheader', { name: 'Line 6' })).toBeTruthy();
    expect(callsTo(calls, 'GET', `/api/imports/${IMPORT_ID}/rows`).at(-1)?.query.result).toBe('error');

    // The address alone shows the same view (a reload, a shared link).
    await router.navigate(`${IMPORT_PATH}?result=update`);
    await waitFor(() => expect(select('Show').value).toBe('update'));
    await within(rowsTable()).findByText('Price:');
    expect(within(rowsTable()).getAllByRole('row')).toHaveLength(2);
    await router.navigate(`${IMPORT_PATH}?result=nonsense`);
    await waitFor(() => expect(select('Show').value).toBe(''));
  });

  it('pages long results with the pager', async () => {
    const many = Array.from({ length: 120 }, (_, index) => ({
      ...(ROWS[0] as (typeof ROWS)[number]),
      row: index + 2,
      cells: [`Item ${index + 2}`, `SKU-${index}`, '', '1', '1', 'Paper', 'Acme', ''],
    }));
    const { handlers } = importServer(
      importOf({
        status: 'checked',
        summary: { ...SUMMARY, create: 120, update: 0, unchanged: 0, errors: 0 },
      }),
    );
    const { router } = renderImport(IMPORT_PATH, {
      ...handlers,
      [`GET /api/imports/${IMPORT_ID}/rows`]: rowsAnswer(many),
    });
    await within(await screen.findByRole('table', { name: 'Checked rows of the file' })).findByRole(
      'rowheader',
      { name: 'Line 2' },
    );
    expect(screen.getByText('Showing 1–50 of 120')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await within(rowsTable()).findByRole('rowheader', { name: 'Line 53' });
    expect(router.state.location.search).toBe('?page=2');
    expect(screen.queryByRole('button', { name: 'Download failed rows' })).toBeNull();
  });

  it('cannot import when no row creates or updates, and says why', async () => {
    const { handlers } = importServer(
      importOf({ status: 'checked', summary: { ...SUMMARY, create: 0, update: 0, unchanged: 4, errors: 1 } }),
    );
    renderImport(IMPORT_PATH, handlers);
    const button = (await screen.findByRole('button', { name: 'Import 0 products' })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Nothing to import: no row creates or updates a product.',
    );
  });

  it('shows a failed load of the rows as a failure with Try again, never as an empty table', async () => {
    let fail = true;
    const { handlers } = importServer(checked());
    renderImport(IMPORT_PATH, {
      ...handlers,
      [`GET /api/imports/${IMPORT_ID}/rows`]: (call) =>
        fail ? refused(503, 'The server is busy; try again in a moment.') : rowsAnswer(ROWS)(call),
    });
    const alert = await within(
      await screen.findByRole('table', { name: 'Checked rows of the file' }),
    ).findByRole('alert');
    expect(alert.textContent).toBe(
      'The checked rows could not be loaded: The server is busy; try again in a moment.',
    );
    expect(screen.queryByText('The file has no rows.')).toBeNull();
    fail = false;
    await userEvent.click(within(rowsTable()).getByRole('button', { name: 'Try again' }));
    await within(rowsTable()).findByRole('rowheader', { name: 'Line 2' });
  });
});

describe('the apply', () => {
  it('shows the progress while the rows are written, polling every second, then the result', async () => {
    const { handlers, state } = importServer(
      importOf({ status: 'checked', summary: SUMMARY, checkedAt: '2026-11-28T08:01:00.000Z' }),
    );
    const { calls } = renderImport(IMPORT_PATH, handlers);
    await userEvent.click(await screen.findByRole('button', { name: 'Import 3 products' }));
    const heading = await screen.findByRole('heading', { name: 'Importing shop.csv' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const bar = screen.getByRole('progressbar', { name: 'Importing shop.csv' });
    expect(bar.getAttribute('aria-valuemax')).toBe('5');
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    expect(bar.getAttribute('aria-valuetext')).toBe('0 of 5 rows');

    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('2'));
    expect(screen.getByText('2 of 5 rows (40%)')).toBeTruthy();
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('4'));
    expect(bar.getAttribute('aria-valuetext')).toBe('4 of 5 rows');

    await screen.findByRole('heading', { name: 'Import finished' });
    expect(screen.getByText('Created', { selector: 'dt' }).nextSibling?.textContent).toBe('2');
    expect(screen.getByRole('link', { name: 'View products' }).getAttribute('href')).toBe(
      '/admin-dashboard/products',
    );
    expect(screen.getByRole('button', { name: 'Download failed rows' })).toBeTruthy();
    expect(state.item.status).toBe('applied');
    // Polling stops with the end.
    const polls = callsTo(calls, 'GET', `/api/imports/${IMPORT_ID}`).length;
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(callsTo(calls, 'GET', `/api/imports/${IMPORT_ID}`)).toHaveLength(polls);
  }, 15_000);

  it('picks up an import being applied after a reload, from its address', async () => {
    const { handlers } = importServer(
      importOf({ status: 'applying', summary: SUMMARY, processed: 1200, total: 8000 }),
      {
        steps: [4000],
      },
    );
    renderImport(IMPORT_PATH, handlers);
    const bar = await screen.findByRole('progressbar');
    // The first answer already moved it on (the fake server advances on every GET).
    expect(bar.getAttribute('aria-valuetext')).toBe('4,000 of 8,000 rows');
    expect(screen.getByText('4,000 of 8,000 rows (50%)')).toBeTruthy();
    await screen.findByRole('heading', { name: 'Import finished' }, { timeout: 3_000 });
  });

  it("shows a second apply's refusal as its sentence", async () => {
    const { handlers } = importServer(importOf({ status: 'checked', summary: SUMMARY }));
    renderImport(IMPORT_PATH, {
      ...handlers,
      [`POST /api/imports/${IMPORT_ID}/apply`]: () => refused(409, 'This import is already being applied.'),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Import 3 products' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The import could not start: This import is already being applied.',
    );
  });

  it('shows why an import stopped', async () => {
    const { handlers } = importServer(
      importOf({
        status: 'failed',
        summary: SUMMARY,
        processed: 3,
        total: 5,
        failure: 'The import stopped: the database could not be reached.',
      }),
    );
    renderImport(IMPORT_PATH, handlers);
    await screen.findByRole('heading', { name: 'The import stopped' });
    expect(screen.getByRole('alert').textContent).toBe(
      'The import stopped: the database could not be reached.',
    );
    expect(screen.getByText('3 of 5 rows had been gone through when it stopped.')).toBeTruthy();
  });

  it('resumes a stopped import, which then shows its progress again', async () => {
    const { handlers, state } = importServer(
      importOf({
        status: 'failed',
        summary: SUMMARY,
        processed: 3,
        total: 5,
        failure: 'The import stopped.',
      }),
      { steps: [4] },
    );
    renderImport(IMPORT_PATH, {
      ...handlers,
      [`POST /api/imports/${IMPORT_ID}/apply`]: () => {
        state.item = { ...state.item, status: 'applying', failure: null };
        return ok(state.item, 202);
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Resume the import' }));
    expect((await screen.findByRole('progressbar')).getAttribute('aria-valuetext')).toBe('3 of 5 rows');
    await screen.findByRole('heading', { name: 'Import finished' }, { timeout: 4_000 });
  });

  it('goes back to the upload for another file, with the focus on its heading', async () => {
    const { handlers } = importServer(
      importOf({ status: 'applied', summary: SUMMARY, processed: 5, total: 5 }),
    );
    const { router } = renderImport(IMPORT_PATH, handlers);
    await userEvent.click(await screen.findByRole('link', { name: 'Import another file' }));
    const heading = await screen.findByRole('heading', { name: 'Upload your products file' });
    expect(router.state.location.pathname).toBe(UPLOAD_PATH);
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });
});

describe('loading an import', () => {
  it('shows a failed GET as a failure with Try again, not an empty screen', async () => {
    let fail = true;
    const { handlers } = importServer(importOf());
    renderImport(IMPORT_PATH, {
      ...handlers,
      [`GET /api/imports/${IMPORT_ID}`]: (call) =>
        fail
          ? refused(500, 'error occurred. Please try again.')
          : (handlers[`GET /api/imports/${IMPORT_ID}`]?.(call) as never),
    });
    const failure = await screen.findByText(
      'The import could not be loaded: error occurred. Please try again.',
    );
    expect(failure.getAttribute('role')).toBe('alert');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('heading', { level: 2 })).toBeNull();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { name: 'Match the columns' });
  });

  it('says an unknown import does not exist, without Try again', async () => {
    renderImport('/admin-dashboard/products/import/nope', {
      'GET /api/imports/nope': () => refused(404, 'Import not found.'),
    });
    expect(
      (await screen.findByText('This import does not exist: upload the file again.')).getAttribute('role'),
    ).toBe('alert');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});

describe('answers and addresses that are not what they should be', () => {
  it('shows a file with a blank, a 10,000-character and a repeated header, short rows and NUL cells', async () => {
    const long = 'H'.repeat(10_000);
    const columns = ['Name', '', long, 'Name', 'SKU'];
    const { handlers } = importServer(
      importOf({
        columns,
        mapping: { name: 'Name', sku: 'SKU', description: 'Gone' },
        preview: [['Pen\0'], []],
      }),
    );
    renderImport(IMPORT_PATH, handlers);
    await screen.findByRole('heading', { name: 'Match the columns' });
    const preview = screen.getByRole('table', { name: 'First 2 rows of shop.csv' });
    expect(within(preview).getAllByRole('columnheader')).toHaveLength(5);
    expect(within(preview).getByText('(no header)')).toBeTruthy();
    expect(within(preview).getByTitle(long)).toBeTruthy();
    // A mapping naming a column the file lacks is not offered as chosen.
    expect(select('Description').value).toBe('');
    expect(select('SKU').value).toBe('SKU');
  });

  it('reads a page that is not a number as page 1, and one past the end as the last page', async () => {
    const { handlers } = importServer(importOf({ status: 'checked', summary: SUMMARY }));
    const { calls, router } = renderImport(`${IMPORT_PATH}?result=error&page=NaN`, handlers);
    await within(await screen.findByRole('table', { name: 'Checked rows of the file' })).findByRole(
      'rowheader',
      {
        name: 'Line 6',
      },
    );
    const rowCalls = () => callsTo(calls, 'GET', `/api/imports/${IMPORT_ID}/rows`);
    expect(rowCalls()[0]?.query).toEqual({ result: 'error', page: '1', pageSize: '50' });
    await router.navigate(`${IMPORT_PATH}?page=999999`);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await within(rowsTable()).findByRole('rowheader', { name: 'Line 2' });
  });
});

describe('on a phone (375 px)', () => {
  it('keeps the wide tables in a box that scrolls sideways', async () => {
    atViewport(375);
    const { handlers } = importServer(importOf({ status: 'checked', summary: SUMMARY }));
    renderImport(IMPORT_PATH, handlers);
    const table = await screen.findByRole('table', { name: 'Checked rows of the file' });
    expect(table.parentElement?.className).toContain('overflow-x-auto');
  });
});

describe('another system’s export (DESIGN §22)', () => {
  const HARBOUR = '5b0e2f52-9d1c-4c55-8f3e-3a2f6f1b7c01';
  const MAIN = '5b0e2f52-9d1c-4c55-8f3e-3a2f6f1b7c00';
  const SQUARE_COLUMNS = [
    'Item Name',
    'Variation Name',
    'SKU',
    'GTIN',
    'Price',
    'Current Quantity Main Street',
    'Current Quantity Harbour Road',
  ];
  const SQUARE_MAPPING = {
    item: 'Item Name',
    option1: 'Variation Name',
    sku: 'SKU',
    barcode: 'GTIN',
    price: 'Price',
    [`stock@${MAIN}`]: 'Current Quantity Main Street',
    [`stock@${HARBOUR}`]: 'Current Quantity Harbour Road',
  };
  const squareImport = () =>
    importOf({ format: 'square', columns: SQUARE_COLUMNS, mapping: SQUARE_MAPPING, preview: [] });
  const withLocations = (handlers: Record<string, unknown>) => ({
    ...handlers,
    'GET /api/locations': () => ({
      body: {
        success: true,
        locations: [
          { _id: MAIN, name: 'Main Street', kind: 'store', address: '', active: true },
          { _id: HARBOUR, name: 'Harbour Road', kind: 'store', address: '', active: true },
        ],
      },
    }),
  });

  it('shows the layout guessed at upload and each location’s stock column, and checks with them unchanged', async () => {
    const { handlers, state } = importServer(squareImport());
    renderImport(IMPORT_PATH, withLocations(handlers) as typeof handlers);
    await screen.findByRole('heading', { name: 'Match the columns' });
    expect(select('Read as').value).toBe('square');
    expect(screen.getByText(/Recognised from the headers\. Rows grouped by Item Name/)).toBeTruthy();
    expect(select('Item').value).toBe('Item Name');
    await waitFor(() => expect(select('Stock at Harbour Road').value).toBe('Current Quantity Harbour Road'));
    expect(select('Stock at Main Street').value).toBe('Current Quantity Main Street');
    expect(select('Stock').value).toBe('');
    await userEvent.click(screen.getByRole('button', { name: 'Check file' }));
    await screen.findByRole('heading', { name: 'Check the result' });
    expect(state.checks).toEqual([
      {
        mapping: SQUARE_MAPPING,
        matchBy: 'sku',
        createMissing: { categories: false, suppliers: false },
        stock: 'set',
        format: 'square',
      },
    ]);
  });

  it('read as another layout, the columns are matched as that layout reads them, and the check says which', async () => {
    const generic = { name: 'Item Name', sku: 'SKU', barcode: 'GTIN', price: 'Price' };
    const { handlers, state } = importServer(squareImport(), { mappings: { generic } });
    renderImport(IMPORT_PATH, withLocations(handlers) as typeof handlers);
    await screen.findByRole('heading', { name: 'Match the columns' });
    await userEvent.selectOptions(select('Read as'), 'generic');
    await waitFor(() => expect(select('Name').value).toBe('Item Name'));
    expect(state.suggested).toEqual(['generic']);
    expect(select('Read as').value).toBe('generic');
    expect(select('Item').value).toBe('');
    expect(select('Stock at Harbour Road').value).toBe('');
    expect(screen.getByText(/A column per field, as the products CSV has them/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Check file' }));
    await screen.findByRole('heading', { name: 'Check the result' });
    expect(state.checks.map((check) => [check.format, check.mapping])).toEqual([['generic', generic]]);
  });

  it('a layout whose mapping cannot be had says so and keeps the columns as they were', async () => {
    const { handlers, state } = importServer(squareImport());
    renderImport(IMPORT_PATH, withLocations(handlers) as typeof handlers);
    await screen.findByRole('heading', { name: 'Match the columns' });
    await userEvent.selectOptions(select('Read as'), 'shopify');
    expect(
      await screen.findByText(
        'The columns could not be matched for that layout: The server could not answer.',
      ),
    ).toBeTruthy();
    expect(state.suggested).toEqual(['shopify']);
    expect(select('Read as').value).toBe('square');
    expect(select('Item').value).toBe('Item Name');
  });

  it('counts the rows skipped apart from the errors, and shows a row’s warnings apart from errors', async () => {
    const rows = [
      ...ROWS.slice(0, 1),
      {
        row: 3,
        result: 'create' as const,
        errors: [],
        warnings: [
          { column: 'Current Quantity Harbour Road', message: 'A negative quantity (-2) is imported as 0.' },
        ],
        cells: ['Lotion', 'Regular', 'SQ-1', '', '9.99', '4', '-2'],
      },
      { row: 4, result: 'skipped' as const, errors: [], cells: ['', '', '', '', '', '', ''] },
    ];
    const { handlers } = importServer(
      importOf({
        status: 'checked',
        summary: { ...SUMMARY, skipped: 126 },
        checkedAt: '2026-11-28T08:01:00.000Z',
      }),
    );
    renderImport(IMPORT_PATH, { ...handlers, [`GET /api/imports/${IMPORT_ID}/rows`]: rowsAnswer(rows) });
    await screen.findByRole('heading', { name: 'Check the result' });
    const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).nextSibling?.textContent;
    expect(figure('With errors')).toBe('1');
    expect(figure('Skipped (not products)')).toBe('126');
    expect(within(select('Show')).getByRole('option', { name: 'Skipped (126)' })).toBeTruthy();
    const table = rowsTable();
    const warned = (await within(table).findByRole('rowheader', { name: 'Line 3' })).closest(
      'tr',
    ) as HTMLElement;
    const warning = within(warned)
      .getByText('A negative quantity (-2) is imported as 0.')
      .closest('li') as HTMLElement;
    expect(warning.textContent).toBe(
      'Warning: Current Quantity Harbour Road: A negative quantity (-2) is imported as 0.',
    );
    expect(warning.closest('ul')?.className).toContain('text-amber-800');
    expect(warned.className).not.toContain('bg-red');
  });
});
