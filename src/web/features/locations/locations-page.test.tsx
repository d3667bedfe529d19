import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Location } from '../../../shared/locations';
import { refusalSentence } from '../../../shared/refusals';
import { mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { LocationsPage } from './locations-page';

const MAIN: Location = { _id: 'main', name: 'Main store', kind: 'store', address: '1 High St', active: true };
const BACK: Location = { _id: 'back', name: 'Back room', kind: 'stockroom', address: '', active: true };

function renderPage(locations: Location[] | 'fail', handlers = {}) {
  signIn(userOf('admin'));
  const fetched = mockFetch({
    'GET /api/locations': () =>
      locations === 'fail'
        ? { status: 500, body: { success: false, code: 'INTERNAL', error: 'Something went wrong.' } }
        : { body: { success: true, locations } },
    ...handlers,
  });
  renderWithClient(<LocationsPage />);
  return fetched;
}

const rows = () =>
  within(screen.getByRole('table', { name: 'Locations' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...(row as HTMLTableRowElement).cells].slice(0, 4).map((cell) => cell.textContent));

describe('the locations screen', () => {
  it('lists each location with its kind label, address and status', async () => {
    renderPage([BACK, MAIN]);
    await screen.findByText('Main store');
    expect(rows()).toEqual([
      ['Back room', 'Stockroom', '', 'Active'],
      ['Main store', 'Shop', '1 High St', 'Active'],
    ]);
  });

  it('says when there are none, and when they failed to load (with a retry)', async () => {
    renderPage([]);
    expect(await screen.findByText('No locations yet: add the first one.')).toBeTruthy();
  });

  it('a failed load is not an empty list', async () => {
    renderPage('fail');
    expect(await screen.findByRole('button', { name: /try again|retry/i })).toBeTruthy();
    expect(screen.queryByText('No locations yet: add the first one.')).toBeNull();
  });

  it('adds a location with its kind and refreshes the list', async () => {
    let list = [MAIN];
    const { calls } = renderPage(list, {
      'GET /api/locations': () => ({ body: { success: true, locations: list } }),
      'POST /api/locations': ({ body }: { body: unknown }) => {
        const made = { _id: 'new', active: true, ...(body as object) } as Location;
        list = [...list, made];
        return { status: 201, body: { success: true, location: made } };
      },
    });
    await screen.findByText('Main store');
    await userEvent.click(screen.getByRole('button', { name: 'Add location' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Van');
    await userEvent.selectOptions(within(dialog).getByLabelText('Kind'), 'stockroom');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add location' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Van',
      kind: 'stockroom',
      address: '',
    });
    expect(await screen.findByText('Van')).toBeTruthy();
  });

  it("shows the server's sentence when a deactivation is refused", async () => {
    const sentence = refusalSentence('LOCATION_IN_USE', {
      location: 'Main store',
      what: 'is the default location',
    });
    renderPage([MAIN], {
      'PUT /api/locations/main': () => ({
        status: 409,
        body: { success: false, code: 'LOCATION_IN_USE', error: sentence },
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Deactivate Main store' }));
    expect(await screen.findByText(sentence)).toBeTruthy();
  });

  it('reactivates an inactive location', async () => {
    let list = [{ ...BACK, active: false }];
    const { calls } = renderPage(list, {
      'GET /api/locations': () => ({ body: { success: true, locations: list } }),
      'PUT /api/locations/back': () => {
        list = [BACK];
        return { body: { success: true, location: BACK } };
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Reactivate Back room' }));
    await screen.findByRole('button', { name: 'Deactivate Back room' });
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ active: true });
  });
});
