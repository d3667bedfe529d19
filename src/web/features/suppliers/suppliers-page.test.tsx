import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Supplier } from '../../../shared/suppliers';
import { mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { SuppliersPage } from './suppliers-page';

const PATH = '/admin-dashboard/supplier';
/** 55 wholesalers and one mill: two pages of 50. */
const SUPPLIERS: Supplier[] = [
  ...Array.from({ length: 55 }, (_, i) => ({
    _id: `s${i}`,
    name: `Wholesaler ${String(i + 1).padStart(2, '0')}`,
    email: '',
    phone: '',
    address: '',
  })),
  { _id: 'mill', name: 'Paper Mill', email: 'mill@example.com', phone: '', address: '' },
];

function renderAt(entry: string) {
  signIn(userOf('admin'));
  mockFetch({ 'GET /api/supplier': () => ({ body: { success: true, suppliers: SUPPLIERS } }) });
  const router = createMemoryRouter([{ path: PATH, element: <SuppliersPage /> }], {
    initialEntries: [entry],
  });
  renderWithClient(<RouterProvider router={router} />);
  return router;
}

const names = () =>
  within(screen.getByRole('table', { name: 'Suppliers' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => (row as HTMLTableRowElement).cells[1]?.textContent);

describe('the suppliers list keeps its view in the address', () => {
  it('a shared address with a search and a page shows them', async () => {
    renderAt(`${PATH}?q=whole&page=2`);
    await screen.findByText('Wholesaler 51');
    expect(names()).toEqual([
      'Wholesaler 51',
      'Wholesaler 52',
      'Wholesaler 53',
      'Wholesaler 54',
      'Wholesaler 55',
    ]);
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('whole');
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
  });

  it('writes the page, then the search once typing pauses (back on page 1), and Back shows the page before', async () => {
    const router = renderAt(PATH);
    await screen.findByText('Wholesaler 01');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(names()[0]).toBe('Wholesaler 51');
    await userEvent.type(screen.getByRole('searchbox'), 'mill');
    expect(names()).toEqual(['Paper Mill']);
    await waitFor(() => expect(router.state.location.search).toBe('?q=mill'));
    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(names()[0]).toBe('Wholesaler 01'));
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('');
  });
});
