import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Category } from '../../../shared/categories';
import { mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { CategoriesPage } from './categories-page';

const PATH = '/admin-dashboard/categories';
/** 60 categories, Shelf 01 to Shelf 60, and one other: two pages of 50. */
const CATEGORIES: Category[] = [
  ...Array.from({ length: 60 }, (_, i) => ({
    _id: `c${i}`,
    name: `Shelf ${String(i + 1).padStart(2, '0')}`,
    description: '',
  })),
  { _id: 'paper', name: 'Paper', description: '' },
];

function renderAt(entry: string) {
  signIn(userOf('admin'));
  mockFetch({ 'GET /api/category': () => ({ body: { success: true, categories: CATEGORIES } }) });
  const router = createMemoryRouter([{ path: PATH, element: <CategoriesPage /> }], {
    initialEntries: [entry],
  });
  renderWithClient(<RouterProvider router={router} />);
  return router;
}

const names = () =>
  within(screen.getByRole('table', { name: 'Categories' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => (row as HTMLTableRowElement).cells[1]?.textContent);

describe('the categories list keeps its view in the address', () => {
  it('a shared address with a search and a page shows them', async () => {
    renderAt(`${PATH}?q=shelf&page=2`);
    await screen.findByText('Shelf 51');
    expect(names()).toEqual([
      'Shelf 51',
      'Shelf 52',
      'Shelf 53',
      'Shelf 54',
      'Shelf 55',
      'Shelf 56',
      'Shelf 57',
      'Shelf 58',
      'Shelf 59',
      'Shelf 60',
    ]);
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('shelf');
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
  });

  it('writes the page, then the search once typing pauses (back on page 1), and Back shows the page before', async () => {
    const router = renderAt(PATH);
    await screen.findByText('Shelf 01');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(names()[0]).toBe('Shelf 51');
    await userEvent.type(screen.getByRole('searchbox'), 'Shelf 5');
    // The list follows every key; the address, once typing pauses.
    expect(names()).toHaveLength(10);
    await waitFor(() => expect(router.state.location.search).toBe('?q=Shelf+5'));
    expect(names()[0]).toBe('Shelf 50');
    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(names()[0]).toBe('Shelf 01'));
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('');
  });

  it('an address past the last page shows the last page and says so in place', async () => {
    const router = renderAt(`${PATH}?page=7`);
    await screen.findByText('Shelf 51');
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(router.state.historyAction).toBe('REPLACE');
  });
});
