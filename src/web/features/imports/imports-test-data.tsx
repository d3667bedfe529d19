import { createMemoryRouter, RouterProvider } from 'react-router';
import {
  guessMapping,
  type Import,
  type ImportCheckInput,
  type ImportFormat,
  type ImportRow,
  type ImportSummary,
} from '../../../shared/imports';
import { type FetchCall, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { ImportPage } from './import-page';

/** Test data, a fake import server and a router for the import screen's tests (not part of the app). */

export type Reply = { status?: number; body: unknown };
export type Handler = (call: FetchCall) => Reply | Promise<Reply>;

export const IMPORT_ID = 'imp1';
export const IMPORT_PATH = `/admin-dashboard/products/import/${IMPORT_ID}`;
export const UPLOAD_PATH = '/admin-dashboard/products/import';

/** A store's own headers: the guess maps all but Notes. */
export const COLUMNS = ['Product name', 'Item code', 'EAN', 'Unit price', 'Qty', 'Group', 'Vendor', 'Notes'];

export const PREVIEW = [
  ['Blue pen', 'PEN-1', '5012345678900', '1.20', '10', 'Stationery', 'Acme', 'best seller'],
  ['Red pen', 'PEN-2', '', '1.25', '4', 'Stationery', 'Acme', ''],
];

export function importOf(overrides: Partial<Import> = {}): Import {
  return {
    _id: IMPORT_ID,
    fileName: 'shop.csv',
    fileType: 'csv',
    format: 'generic',
    status: 'uploaded',
    rows: 5,
    columns: COLUMNS,
    mapping: guessMapping(COLUMNS) as Record<string, string>,
    options: null,
    summary: null,
    processed: 0,
    total: 0,
    failure: null,
    preview: PREVIEW,
    createdAt: '2026-11-28T08:00:00.000Z',
    createdBy: { _id: 'admin-id', name: 'Test admin' },
    checkedAt: null,
    appliedAt: null,
    ...overrides,
  };
}

export const SUMMARY: ImportSummary = {
  create: 2,
  update: 1,
  unchanged: 1,
  errors: 1,
  skipped: 0,
  newCategories: ['Paper'],
  newSuppliers: [],
};

const cells = (name: string, sku: string, price: string) => [name, sku, '', price, '5', 'Paper', 'Acme', ''];

/** The dry run's five rows: lines 2 to 6 of the file, one of each result and an error. */
export const ROWS: ImportRow[] = [
  { row: 2, result: 'create', errors: [], cells: cells('Notebook A5', 'NB-A5', '3.50') },
  { row: 3, result: 'create', errors: [], cells: cells('Notebook A4', 'NB-A4', '4.50') },
  {
    row: 4,
    result: 'update',
    product: { _id: 'p1', name: 'Blue pen' },
    changes: [{ field: 'price', from: 1.2, to: 1.35 }],
    errors: [],
    cells: cells('Blue pen', 'PEN-1', '1.35'),
  },
  {
    row: 5,
    result: 'unchanged',
    product: { _id: 'p2', name: 'Red pen' },
    errors: [],
    cells: cells('Red pen', 'PEN-2', '1.25'),
  },
  {
    row: 6,
    result: 'error',
    errors: [{ column: 'Unit price', message: 'Must be at least 0.' }],
    cells: cells('Broken ruler', 'RUL-1', '-3'),
  },
];

export const ok = (item: Import, status = 200): Reply => ({ status, body: { success: true, import: item } });
export const refused = (status: number, error: string): Reply => ({
  status,
  body: { success: false, error },
});

/** GET rows: the rows with the result asked for, one page of them. */
export const rowsAnswer =
  (rows: readonly ImportRow[]): Handler =>
  ({ query }) => {
    const matches = query.result ? rows.filter((row) => row.result === query.result) : rows;
    const page = Number(query.page ?? 1);
    const pageSize = Number(query.pageSize ?? 20);
    return {
      body: {
        success: true,
        rows: matches.slice((page - 1) * pageSize, page * pageSize),
        total: matches.length,
        page,
        pageSize,
      },
    };
  };

/** GET /api/imports: the imports given (newest first), one page of them, as the server pages. */
export const listAnswer =
  (items: readonly Import[]): Handler =>
  ({ query }) => {
    const page = Number(query.page ?? 1);
    const pageSize = Number(query.pageSize ?? 20);
    return {
      body: {
        success: true,
        imports: items.slice((page - 1) * pageSize, page * pageSize),
        total: items.length,
        page,
        pageSize,
        pageCount: Math.max(1, Math.ceil(items.length / pageSize)),
      },
    };
  };

/**
 * A fake server holding one import that checks and applies as the real one answers: the check
 * gives SUMMARY and ROWS; the apply goes through `steps` of progress, one per GET, then ends.
 */
export function importServer(
  start: Import,
  {
    steps = [2, 4],
    mappings = {},
  }: { steps?: number[]; mappings?: Partial<Record<ImportFormat, Record<string, string>>> } = {},
) {
  const state = { item: start, checks: [] as ImportCheckInput[], polls: 0, suggested: [] as string[] };
  const handlers: Record<string, Handler> = {
    // DESIGN §22: the mapping a layout suggests, as `mappings` says (another layout is a 500).
    [`GET /api/imports/${IMPORT_ID}/mapping`]: ({ query }) => {
      const format = query.format as ImportFormat;
      state.suggested.push(format);
      const mapping = mappings[format];
      return mapping
        ? { body: { success: true, format, mapping } }
        : refused(500, 'The server could not answer.');
    },
    [`GET /api/imports/${IMPORT_ID}`]: () => {
      if (state.item.status === 'applying') {
        const at = steps[state.polls];
        state.polls += 1;
        state.item =
          at === undefined
            ? {
                ...state.item,
                status: 'applied',
                processed: state.item.total,
                appliedAt: '2026-11-28T08:05:00.000Z',
              }
            : { ...state.item, processed: at };
      }
      return ok(state.item);
    },
    [`POST /api/imports/${IMPORT_ID}/check`]: ({ body }) => {
      const input = body as ImportCheckInput;
      state.checks.push(input);
      const { mapping, ...options } = input;
      state.item = {
        ...state.item,
        status: 'checked',
        mapping: mapping as Record<string, string>,
        options: {
          matchBy: options.matchBy ?? 'sku',
          createMissing: { categories: false, suppliers: false, ...options.createMissing },
          stock: options.stock ?? 'set',
          ...(options.format ? { format: options.format } : {}),
        },
        ...(options.format ? { format: options.format } : {}),
        summary: SUMMARY,
        checkedAt: '2026-11-28T08:01:00.000Z',
      };
      return ok(state.item);
    },
    [`GET /api/imports/${IMPORT_ID}/rows`]: rowsAnswer(ROWS),
    [`POST /api/imports/${IMPORT_ID}/apply`]: () => {
      if (state.item.status !== 'checked') return refused(409, 'This import has already been applied.');
      state.item = { ...state.item, status: 'applying', processed: 0, total: state.item.rows };
      return ok(state.item, 202);
    },
  };
  return { state, handlers };
}

/** The import screen at `path`, signed in as an admin, beside a stand-in products list. */
export function renderImport(path: string, handlers: Record<string, Handler>) {
  signIn(userOf('admin'));
  // The upload step lists the recent imports: none unless the test says otherwise.
  const mock = mockFetch({ 'GET /api/imports': listAnswer([]), ...handlers });
  const router = createMemoryRouter(
    [
      { path: '/admin-dashboard/products/import', element: <ImportPage /> },
      { path: '/admin-dashboard/products/import/:id', element: <ImportPage /> },
      { path: '/admin-dashboard/products', element: <p>The products list</p> },
    ],
    { initialEntries: [path] },
  );
  const rendered = renderWithClient(<RouterProvider router={router} />);
  return { ...mock, ...rendered, router };
}

export const callsTo = (calls: readonly FetchCall[], method: string, path: string) =>
  calls.filter((call) => call.method === method && call.path === path);
