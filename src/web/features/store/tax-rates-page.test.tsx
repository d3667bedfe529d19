import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { TaxRate } from '../../../shared/store';
import { type FetchCall, mockFetch, renderWithClient, signIn, storeOf, userOf } from '../../test/helpers';
import { TaxRatesPage } from './tax-rates-page';

const standard = { _id: 't8', name: 'Standard', rate: 8.875 };
const reduced = { _id: 't5', name: 'Reduced', rate: 5 };
const zero = { _id: 't0', name: 'Zero', rate: 0 };

function renderPage(initial: TaxRate[] = [reduced, standard, zero]) {
  signIn(userOf('admin'));
  let rates = initial;
  const mock = mockFetch({
    'GET /api/tax-rates': () => ({ body: { success: true, taxRates: rates } }),
    'GET /api/settings/store': () => ({
      body: { success: true, store: storeOf({ defaultTaxRate: standard }) },
    }),
    'POST /api/tax-rates': ({ body }) => {
      const input = body as { name: string; rate: number };
      if (rates.some((rate) => rate.name.toLowerCase() === input.name.toLowerCase()))
        return {
          status: 409,
          body: { success: false, error: `A tax rate named "${input.name}" already exists.` },
        };
      const created = { _id: 'new', ...input };
      rates = [...rates, created].sort((a, b) => a.name.localeCompare(b.name));
      return { status: 201, body: { success: true, taxRate: created } };
    },
    'PUT /api/tax-rates/*': ({ path, body }) => {
      const id = path.split('/').pop();
      const updated = { _id: id as string, ...(body as { name: string; rate: number }) };
      rates = rates.map((rate) => (rate._id === id ? updated : rate));
      return { body: { success: true, taxRate: updated } };
    },
    'DELETE /api/tax-rates/*': ({ path }) => {
      const id = path.split('/').pop();
      if (id === 't8')
        return {
          status: 409,
          body: {
            success: false,
            error:
              "This tax rate is used by 3 products and is the store's default; give them another rate and choose another default first.",
          },
        };
      rates = rates.filter((rate) => rate._id !== id);
      return { body: { success: true, message: 'Tax rate deleted.' } };
    },
  });
  renderWithClient(
    <MemoryRouter>
      <TaxRatesPage />
    </MemoryRouter>,
    { store: null, taxRates: null },
  );
  return mock;
}

const rows = () =>
  within(screen.getByRole('table', { name: 'Tax rates' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => Array.from((row as HTMLTableRowElement).cells, (cell) => cell.textContent).slice(0, 2));
const sent = (calls: FetchCall[], method: string) =>
  calls.filter((call) => call.method === method).map((call) => [call.path, call.body]);

describe('the Tax rates screen', () => {
  it("lists the rates by name with their percent, the store's default marked", async () => {
    renderPage();
    await screen.findByText('Reduced');
    await waitFor(() =>
      expect(rows()).toEqual([
        ['Reduced', '5%'],
        ['StandardStore default', '8.875%'],
        ['Zero', '0%'],
      ]),
    );
  });

  it('says when there are none yet', async () => {
    renderPage([]);
    expect(await screen.findByText('No tax rates yet. Add the rates your store charges.')).toBeTruthy();
  });

  it('adds a rate from the side form, with the keyboard', async () => {
    const { calls } = renderPage();
    await screen.findByText('Reduced');
    const form = screen.getByRole('region', { name: 'Add Tax Rate' });
    await userEvent.type(within(form).getByLabelText('Name'), 'Luxury');
    await userEvent.type(within(form).getByLabelText('Rate (%)'), '12.125{Enter}');
    expect(await screen.findByText('Tax rate added.')).toBeTruthy();
    expect(sent(calls, 'POST')).toEqual([['/api/tax-rates', { name: 'Luxury', rate: 12.125 }]]);
    await waitFor(() => expect(rows().map((row) => row[0])).toContain('Luxury'));
    expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it('checks the rate before sending: more than 3 decimals, above 100, empty', async () => {
    const { calls } = renderPage();
    await screen.findByText('Reduced');
    const form = screen.getByRole('region', { name: 'Add Tax Rate' });
    await userEvent.type(within(form).getByLabelText('Name'), 'Odd');
    await userEvent.type(within(form).getByLabelText('Rate (%)'), '8.8751');
    await userEvent.click(within(form).getByRole('button', { name: 'Add Tax Rate' }));
    expect(await within(form).findByText('Rate must have at most 3 decimals.')).toBeTruthy();
    await userEvent.clear(within(form).getByLabelText('Rate (%)'));
    await userEvent.type(within(form).getByLabelText('Rate (%)'), '101');
    await userEvent.click(within(form).getByRole('button', { name: 'Add Tax Rate' }));
    expect(await within(form).findByText('Rate must be at most 100.')).toBeTruthy();
    expect(sent(calls, 'POST')).toEqual([]);
  });

  it("shows the server's 409 for a name in use under the form", async () => {
    renderPage();
    await screen.findByText('Reduced');
    const form = screen.getByRole('region', { name: 'Add Tax Rate' });
    await userEvent.type(within(form).getByLabelText('Name'), 'reduced');
    await userEvent.type(within(form).getByLabelText('Rate (%)'), '5');
    await userEvent.click(within(form).getByRole('button', { name: 'Add Tax Rate' }));
    expect(await within(form).findByText('A tax rate named "reduced" already exists.')).toBeTruthy();
  });

  it('edits a rate: Edit fills the form, Save Changes sends the new name and percent', async () => {
    const { calls } = renderPage();
    await screen.findByText('Reduced');
    await userEvent.click(screen.getByRole('button', { name: 'Edit Reduced' }));
    const form = screen.getByRole('region', { name: 'Edit Tax Rate' });
    const name = within(form).getByLabelText('Name') as HTMLInputElement;
    expect(name.value).toBe('Reduced');
    expect(document.activeElement).toBe(name);
    await userEvent.clear(within(form).getByLabelText('Rate (%)'));
    await userEvent.type(within(form).getByLabelText('Rate (%)'), '6');
    await userEvent.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Tax rate updated.')).toBeTruthy();
    expect(sent(calls, 'PUT')).toEqual([['/api/tax-rates/t5', { name: 'Reduced', rate: 6 }]]);
    await waitFor(() => expect(rows()[0]).toEqual(['Reduced', '6%']));
  });

  it('deletes after a confirmation; a rate in use stays, and the server says why', async () => {
    const { calls } = renderPage();
    await screen.findByText('Reduced');
    await userEvent.click(screen.getByRole('button', { name: 'Delete Zero' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete tax rate?' });
    expect(dialog.textContent).toContain("store's default still use cannot be deleted");
    // Cancel has the focus: Enter never deletes by accident.
    expect(document.activeElement?.textContent).toBe('Cancel');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Tax rate deleted.')).toBeTruthy();
    await waitFor(() => expect(rows().map((row) => row[0])).toEqual(['Reduced', 'StandardStore default']));

    await userEvent.click(screen.getByRole('button', { name: 'Delete Standard' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Delete tax rate?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      "This tax rate is used by 3 products and is the store's default; give them another rate and choose another default first.",
    );
    expect(sent(calls, 'DELETE').map(([path]) => path)).toEqual(['/api/tax-rates/t0', '/api/tax-rates/t8']);
    expect(rows().map((row) => row[0])).toEqual(['Reduced', 'StandardStore default']);
  });
});
