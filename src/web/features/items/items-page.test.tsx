import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { item } from '../../test/fixtures';
import { answerItems, renderItems, tee } from './items-test-data';

const table = () => screen.findByRole('table', { name: 'Items' });
const bodyRows = (element: HTMLElement) => within(element).getAllByRole('row').slice(1);

describe('the items list (admin)', () => {
  it('says it is loading, then shows each item with its options, variants count and price range', async () => {
    renderItems('/admin-dashboard/items', {
      'GET /api/items': ({ query }) => answerItems([tee(), item('i2', 'Mug')], query),
    });
    const list = await table();
    expect(within(list).getByText('Loading items...')).toBeTruthy();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(2));
    const [first, second] = bodyRows(list);
    expect(first?.textContent).toBe('TeeAcme WearClothesSize (3), Colour (2)2$10.00–$12.00');
    expect(second?.textContent).toBe('MugSnacks—0—');
    expect(
      within(first as HTMLElement)
        .getByRole('link', { name: 'Tee' })
        .getAttribute('href'),
    ).toBe('/admin-dashboard/items/i1');
    expect(screen.getByRole('link', { name: 'New item' }).getAttribute('href')).toBe(
      '/admin-dashboard/items/new',
    );
  });

  it('sends the search and keeps it in the address; says when nothing matches', async () => {
    const { calls, router } = renderItems('/admin-dashboard/items', {
      'GET /api/items': ({ query }) => answerItems([tee()], query),
    });
    const list = await table();
    await waitFor(() => expect(bodyRows(list)).toHaveLength(1));
    await userEvent.type(screen.getByLabelText('Search'), 'sock');
    await waitFor(() => expect(router.state.location.search).toBe('?q=sock'));
    expect(await within(list).findByText('No items match this search.')).toBeTruthy();
    expect(calls.filter((call) => call.path === '/api/items').at(-1)?.query).toEqual({
      search: 'sock',
      page: '1',
      pageSize: '20',
    });
  });

  it('says there are none yet, with a link to make one', async () => {
    renderItems('/admin-dashboard/items', { 'GET /api/items': ({ query }) => answerItems([], query) });
    const list = await table();
    expect(await within(list).findByText('No items yet.')).toBeTruthy();
    expect(within(list).getByRole('link', { name: 'Make one' }).getAttribute('href')).toBe(
      '/admin-dashboard/items/new',
    );
  });

  it('shows why the list could not be loaded (never as empty), and tries again on request', async () => {
    let failures = 1;
    renderItems('/admin-dashboard/items', {
      'GET /api/items': ({ query }) =>
        failures-- > 0
          ? { status: 500, body: { success: false, error: 'An internal error occurred.' } }
          : answerItems([tee()], query),
    });
    const list = await table();
    expect((await within(list).findByRole('alert')).textContent).toBe(
      'The items could not be loaded: An internal error occurred.',
    );
    expect(within(list).queryByText('No items yet.')).toBeNull();
    await userEvent.click(within(list).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(bodyRows(list)).toHaveLength(1));
  });
});
