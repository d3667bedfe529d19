import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CategoryListResponse } from '../../../shared/categories';
import { ProductListResponse } from '../../../shared/products';
import { product } from '../../test/fixtures';
import { pageAnswer } from '../../test/helpers';
import { answerStocktake, callsTo, refusal, renderStocktakes, stocktake } from './stocktakes-test-data';

const CATEGORIES = [
  { _id: 'c1', name: 'Pain Relief', description: '' },
  { _id: 'c2', name: 'Cold & Flu', description: '' },
];
const SERUM = product('p2', 'Serum', { sku: 'SER-1' });
const serving = {
  'GET /api/category': () => ({
    body: CategoryListResponse.parse({ success: true, categories: CATEGORIES }),
  }),
  'GET /api/products': ({ query }: { query: Record<string, string> }) => ({
    body: ProductListResponse.parse({
      success: true,
      products: pageAnswer([SERUM], query).rows,
      total: 1,
      page: 1,
      pageSize: 10,
    }),
  }),
};

async function chooseLocation(name: string) {
  const box = screen.getByLabelText('Location');
  await waitFor(() => expect(box).toHaveProperty('disabled', false));
  await userEvent.selectOptions(box, name);
}

describe('a new stocktake', () => {
  it('asks for the location before sending anything', async () => {
    const { calls } = renderStocktakes('/admin-dashboard/stocktakes/new', serving);
    await screen.findByLabelText('Pain Relief');
    await userEvent.click(screen.getByRole('button', { name: 'Start stocktake' }));
    expect(await screen.findByText('Choose the location to count.')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/stocktakes')).toHaveLength(0);
    // The inactive location is never offered.
    expect(within(screen.getByLabelText('Location')).queryByText('Old shop')).toBeNull();
  });

  it('starts one of the categories ticked and the products named, blind, with a note and a key', async () => {
    const made = stocktake({ _id: 's9', number: 'ST-000009', blind: true, lines: 14 });
    const { calls, router } = renderStocktakes('/admin-dashboard/stocktakes/new', {
      ...serving,
      'POST /api/stocktakes': () => answerStocktake(made, 201),
      'GET /api/stocktakes/s9': () => answerStocktake(made),
    });
    await chooseLocation('Main store');
    await userEvent.click(await screen.findByLabelText('Cold & Flu'));
    await userEvent.type(screen.getByRole('combobox', { name: 'Add a product' }), 'ser');
    const matches = await screen.findByRole('listbox', { name: 'Matching products' });
    await userEvent.click(await within(matches).findByRole('option', { name: /Serum/ }));
    const chosen = screen.getByRole('list', { name: 'Products to count' });
    expect(chosen.textContent).toContain('Serum');
    await userEvent.click(screen.getByLabelText(/Blind count/));
    await userEvent.type(screen.getByLabelText('Note'), 'Before the audit');
    await userEvent.click(screen.getByRole('button', { name: 'Start stocktake' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-dashboard/stocktakes/s9'));
    const [post] = callsTo(calls, 'POST', '/api/stocktakes');
    expect(post?.body).toEqual({
      location: 'l1',
      categories: ['c2'],
      products: ['p2'],
      blind: true,
      note: 'Before the audit',
    });
    expect(post?.headers['Idempotency-Key']).toBeTruthy();
    expect(await screen.findByText('ST-000009 is counting 14 lines at Main store.')).toBeTruthy();
  });

  it('a product named can be taken off again before starting', async () => {
    renderStocktakes('/admin-dashboard/stocktakes/new', serving);
    await userEvent.type(screen.getByRole('combobox', { name: 'Add a product' }), 'ser');
    const matches = await screen.findByRole('listbox', { name: 'Matching products' });
    await userEvent.click(await within(matches).findByRole('option', { name: /Serum/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove Serum' }));
    expect(screen.queryByRole('list', { name: 'Products to count' })).toBeNull();
  });

  it.each([
    [
      'STOCKTAKE_OVERLAP',
      409,
      'ST-000002 is still counting 8 of these products at Main store: post or cancel it first.',
    ],
    ['STOCKTAKE_EMPTY', 400, 'There is nothing to count: no product is in this scope at Main store.'],
  ])('shows a %s refusal in its own sentence and stays on the form', async (code, status, sentence) => {
    const { router } = renderStocktakes('/admin-dashboard/stocktakes/new', {
      ...serving,
      'POST /api/stocktakes': () => refusal(status, code, sentence),
    });
    await chooseLocation('Main store');
    await userEvent.click(screen.getByRole('button', { name: 'Start stocktake' }));
    expect((await screen.findByRole('alert')).textContent).toBe(sentence);
    expect(router.state.location.pathname).toBe('/admin-dashboard/stocktakes/new');
  });

  it('says when the categories could not be loaded, never as none, and tries again', async () => {
    let failures = 1;
    renderStocktakes('/admin-dashboard/stocktakes/new', {
      ...serving,
      'GET /api/category': () =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'An internal error occurred.' } }
          : serving['GET /api/category'](),
    });
    expect(
      await screen.findByText('The categories could not be loaded: An internal error occurred.'),
    ).toBeTruthy();
    expect(screen.queryByText(/There are no categories yet/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Pain Relief')).toBeTruthy();
  });

  it('says so when there are no categories at all', async () => {
    renderStocktakes('/admin-dashboard/stocktakes/new', {
      ...serving,
      'GET /api/category': () => ({ body: { success: true, categories: [] } }),
    });
    expect(await screen.findByText(/There are no categories yet/)).toBeTruthy();
  });
});
