import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { StoreSettings } from '../../../shared/store';
import { queryKeys } from '../../lib/query-keys';
import { type FetchCall, mockFetch, renderWithClient, signIn, storeOf, userOf } from '../../test/helpers';
import { StoreSettingsPage } from './store-settings-page';

const standard = { _id: 't8', name: 'Standard', rate: 8.875 };
const reduced = { _id: 't5', name: 'Reduced', rate: 5 };
const STORE = storeOf({
  name: 'Corner Pharmacy',
  address: '214 Grand Street',
  phone: '(212) 555-0148',
  taxNumber: 'EIN 12-3456789',
  receiptFooter: 'Thank you!',
  defaultTaxRate: standard,
});

type Put = (call: FetchCall) => { status?: number; body: unknown };

function renderPage(put?: Put) {
  signIn(userOf('admin'));
  let store: StoreSettings = STORE;
  const mock = mockFetch({
    'GET /api/settings/store': () => ({ body: { success: true, store } }),
    'GET /api/tax-rates': () => ({ body: { success: true, taxRates: [reduced, standard] } }),
    'PUT /api/settings/store': (call) => {
      if (put) return put(call);
      const body = call.body as Partial<StoreSettings> & {
        defaultTaxRate?: string | null;
        defaultLocation?: unknown;
      };
      const rate = [reduced, standard].find((one) => one._id === body.defaultTaxRate) ?? null;
      store = { ...store, ...body, defaultTaxRate: rate, defaultLocation: store.defaultLocation };
      return { body: { success: true, store } };
    },
  });
  const rendered = renderWithClient(
    <MemoryRouter>
      <StoreSettingsPage />
    </MemoryRouter>,
    { store: null, taxRates: null },
  );
  return { ...mock, ...rendered };
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const puts = (calls: FetchCall[]) => calls.filter((call) => call.method === 'PUT').map((call) => call.body);

describe('the Store settings screen', () => {
  it('shows every setting, the default tax rate among No tax and the rates', async () => {
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Store settings' });
    await waitFor(() => expect(field('Store name').value).toBe('Corner Pharmacy'));
    expect(field('Address').value).toBe('214 Grand Street');
    expect(field('Phone').value).toBe('(212) 555-0148');
    expect(field('Tax number').value).toBe('EIN 12-3456789');
    expect(field('Receipt footer').value).toBe('Thank you!');
    expect(field('Currency').value).toBe('USD');
    expect(field('Maximum discount (%)').value).toBe('10');
    expect(field('Prices include tax').checked).toBe(false);
    const select = screen.getByLabelText('Default tax rate') as HTMLSelectElement;
    await waitFor(() =>
      expect(Array.from(select.options, (option) => option.textContent)).toEqual([
        'No tax',
        'Reduced 5%',
        'Standard 8.875%',
      ]),
    );
    expect(screen.getByText(/Every screen writes money like \$1,234\.50\./)).toBeTruthy();
  });

  it('saves what was changed, says so, and every screen then writes money in the new currency', async () => {
    const { calls, client } = renderPage();
    await waitFor(() => expect(field('Store name').value).toBe('Corner Pharmacy'));
    await userEvent.clear(field('Currency'));
    await userEvent.type(field('Currency'), 'eur');
    expect(screen.getByText(/Every screen writes money like €1,234\.50\./)).toBeTruthy();
    await userEvent.clear(field('Maximum discount (%)'));
    await userEvent.type(field('Maximum discount (%)'), '12.5');
    await userEvent.click(field('Prices include tax'));
    await userEvent.selectOptions(screen.getByLabelText('Default tax rate'), 'Reduced 5%');
    // Enter in a field submits the form, as the keyboard expects.
    await userEvent.type(field('Phone'), '{Enter}');
    await screen.findByText('Store settings saved.');
    expect(puts(calls)).toEqual([
      expect.objectContaining({
        name: 'Corner Pharmacy',
        currency: 'EUR',
        maxDiscountPercent: 12.5,
        pricesIncludeTax: true,
        defaultTaxRate: 't5',
      }),
    ]);
    const cached = client.getQueryData<{ store: StoreSettings }>(queryKeys.storeSettings);
    expect(cached?.store).toMatchObject({ currency: 'EUR', defaultTaxRate: reduced });
  });

  it('takes a store name of 200 characters, as STORE_NAME may give one, and saves it', async () => {
    const long = `Corner Pharmacy ${'n'.repeat(200)}`.slice(0, 200);
    const { calls } = renderPage();
    await waitFor(() => expect(field('Store name').value).toBe('Corner Pharmacy'));
    expect(field('Store name').maxLength).toBe(200);
    await userEvent.clear(field('Store name'));
    await userEvent.click(field('Store name'));
    await userEvent.paste(long);
    await userEvent.type(field('Phone'), '{Enter}');
    await screen.findByText('Store settings saved.');
    expect(puts(calls)).toEqual([expect.objectContaining({ name: long })]);
  });

  it('checks the fields before sending: a blank name and a currency that is not a code', async () => {
    const { calls } = renderPage();
    await waitFor(() => expect(field('Store name').value).toBe('Corner Pharmacy'));
    await userEvent.clear(field('Store name'));
    await userEvent.clear(field('Currency'));
    await userEvent.type(field('Currency'), 'US');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Store name is required.')).toBeTruthy();
    expect(screen.getByText('Currency must be three upper-case letters, such as USD or EUR.')).toBeTruthy();
    expect(field('Store name').getAttribute('aria-invalid')).toBe('true');
    expect(puts(calls)).toEqual([]);
  });

  it("shows the server's field errors next to their fields, and its other refusals under the form", async () => {
    let answer: { status: number; body: unknown } = {
      status: 400,
      body: {
        success: false,
        error: 'currency: Currency must be an ISO 4217 code, such as USD or EUR.',
        details: [{ path: 'currency', message: 'Currency must be an ISO 4217 code, such as USD or EUR.' }],
      },
    };
    renderPage(() => answer);
    await waitFor(() => expect(field('Store name').value).toBe('Corner Pharmacy'));
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    const currency = field('Currency');
    await waitFor(() => expect(currency.getAttribute('aria-invalid')).toBe('true'));
    const described = document.getElementById(currency.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('Currency must be an ISO 4217 code, such as USD or EUR.');

    answer = { status: 400, body: { success: false, error: 'Choose an existing tax rate as the default.' } };
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    const form = screen.getByRole('button', { name: 'Save settings' }).closest('form') as HTMLElement;
    expect(await within(form).findByText('Choose an existing tax rate as the default.')).toBeTruthy();
  });

  it('a failed load says what failed, with Try again', async () => {
    signIn(userOf('admin'));
    mockFetch({
      'GET /api/settings/store': () => ({ status: 503, body: { success: false, error: 'Resting.' } }),
    });
    renderWithClient(
      <MemoryRouter>
        <StoreSettingsPage />
      </MemoryRouter>,
      { store: null },
    );
    expect(await screen.findByText('The store settings could not be loaded: Resting.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
