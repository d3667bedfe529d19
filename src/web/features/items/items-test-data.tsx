import { createMemoryRouter, RouterProvider } from 'react-router';
import { type Item, ItemListResponse, ItemResponse } from '../../../shared/items';
import { REFUSALS } from '../../../shared/refusals';
import { item, variant } from '../../test/fixtures';
import { type FetchCall, mockFetch, pageAnswer, renderWithClient, signIn, userOf } from '../../test/helpers';
import { ItemEditorPage } from './item-editor-page';
import { ItemsPage } from './items-page';

/** Test data and a router for the items screens' tests (not part of the app). */

type Reply = { status?: number; body: unknown };
export type Handler = (call: FetchCall) => Reply | Promise<Reply>;

export const CHOICES: Handler = () => ({
  body: {
    success: true,
    categories: [{ _id: 'c1', name: 'Clothes', description: '' }],
    suppliers: [{ _id: 's1', name: 'Acme' }],
  },
});

/** A tee in sizes S, M, L and colours Red, Blue; S/Red and M/Blue made (M/Blue at $12, 7 in stock). */
export function tee(overrides: Partial<Item> = {}): Item {
  const of = { _id: 'i1', name: 'Tee' };
  return item(of._id, of.name, {
    category: { _id: 'c1', name: 'Clothes' },
    brand: 'Acme Wear',
    options: [
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Colour', values: ['Red', 'Blue'] },
    ],
    variants: [
      variant('v1', of, { Size: 'S', Colour: 'Red' }, { price: 10, stock: 3, sku: 'TEE-S-R' }),
      variant('v2', of, { Size: 'M', Colour: 'Blue' }, { price: 12, stock: 7 }),
    ],
    ...overrides,
  });
}

export const answerItem = (one: Item, status = 200): Reply => ({
  status,
  body: ItemResponse.parse({ success: true, item: one }),
});
export const answerItems = (rows: Item[], query: Record<string, string>): Reply => {
  const { rows: shown, total } = pageAnswer(rows, { page: '1', pageSize: '20', ...query });
  return {
    body: ItemListResponse.parse({
      success: true,
      items: shown,
      total,
      page: Number(query.page ?? 1),
      pageSize: Number(query.pageSize ?? 20),
    }),
  };
};

/** A refusal as the server sends it: its code and the one sentence src/shared/refusals.ts builds. */
export const refused = (code: keyof typeof REFUSALS, facts: object = {}): Reply => {
  const refusal = REFUSALS[code] as { status: number; sentence: (facts: never) => string };
  return { status: refusal.status, body: { success: false, code, error: refusal.sentence(facts as never) } };
};

export function renderItems(path: string, handlers: Record<string, Handler>) {
  signIn(userOf('admin'));
  const { calls } = mockFetch({ 'GET /api/products/choices': CHOICES, ...handlers });
  const router = createMemoryRouter(
    [
      { path: '/admin-dashboard/items', element: <ItemsPage /> },
      { path: '/admin-dashboard/items/new', element: <ItemEditorPage /> },
      { path: '/admin-dashboard/items/:id', element: <ItemEditorPage /> },
    ],
    { initialEntries: [path] },
  );
  return { calls, router, ...renderWithClient(<RouterProvider router={router} />) };
}

export const writes = (calls: readonly FetchCall[]) =>
  calls
    .filter((call) => call.method !== 'GET')
    .map((call) => ({ call: `${call.method} ${call.path}`, body: call.body }));
