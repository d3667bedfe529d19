import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { newTransferPath } from '../../lib/admin-paths';
import { pageAnswer } from '../../test/helpers';
import {
  answerProduct,
  answerProducts,
  answerTransfer,
  callsTo,
  line,
  PEN,
  refusal,
  renderTransfers,
  SERUM,
  transfer,
} from './transfers-test-data';

const products = [PEN, SERUM];
const search = {
  'GET /api/products': ({ query }: { query: Record<string, string> }) =>
    answerProducts(pageAnswer(products, query).rows),
  'GET /api/products/*': ({ path }: { path: string }) =>
    answerProduct(products.find((one) => path.endsWith(`/${one._id}`)) ?? PEN),
};

async function choose(label: 'From' | 'To', name: string) {
  const box = screen.getByLabelText(label);
  await waitFor(() => expect(box).toHaveProperty('disabled', false));
  await userEvent.selectOptions(box, name);
}

async function addBySearch(text: string, option: string) {
  const box = screen.getByRole('combobox', { name: 'Add a product' });
  await userEvent.clear(box);
  await userEvent.type(box, text);
  const list = await screen.findByRole('listbox', { name: 'Matching products' });
  await userEvent.click(await within(list).findByRole('option', { name: new RegExp(option) }));
}

describe('a new transfer', () => {
  it('checks from, to, from ≠ to and the lines before sending anything', async () => {
    const { calls } = renderTransfers('/admin-dashboard/transfers/new', search);
    await userEvent.click(await screen.findByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('Choose where the goods leave from.')).toBeTruthy();
    expect(screen.getByText('Choose where the goods go.')).toBeTruthy();
    expect(screen.getByText('A transfer needs at least one line.')).toBeTruthy();
    await choose('From', 'Stockroom');
    await choose('To', 'Stockroom');
    await addBySearch('blue', 'Blue Pen');
    await userEvent.clear(screen.getByLabelText('Quantity of Blue Pen'));
    await userEvent.type(screen.getByLabelText('Quantity of Blue Pen'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('The goods must go to another location.')).toBeTruthy();
    expect(screen.getByText('Quantity must be at least 1.')).toBeTruthy();
    expect(screen.getByLabelText('Quantity of Blue Pen').getAttribute('aria-invalid')).toBe('true');
    // The inactive location is never offered.
    expect(within(screen.getByLabelText('From')).queryByText('Old shop')).toBeNull();
    expect(callsTo(calls, 'POST', '/api/transfers')).toHaveLength(0);
  });

  it('starts from the address (?from&to&product&quantity) and saves that draft with a key', async () => {
    const saved = transfer({
      _id: 't9',
      number: 'TR-000009',
      lines: [line('p1', 'Blue Pen', { quantity: 6 })],
    });
    const address = newTransferPath({ from: 'l2', to: 'l1', product: 'p1', quantity: 6 });
    expect(address).toBe('/admin-dashboard/transfers/new?from=l2&to=l1&product=p1&quantity=6');
    const { calls, router } = renderTransfers(address, {
      ...search,
      'POST /api/transfers': () => answerTransfer(saved, 201),
      'GET /api/transfers/t9': () => answerTransfer(saved),
    });
    expect(await screen.findByText('Blue Pen')).toBeTruthy();
    expect((screen.getByLabelText('Quantity of Blue Pen') as HTMLInputElement).value).toBe('6');
    await waitFor(() => expect((screen.getByLabelText('From') as HTMLSelectElement).value).toBe('l2'));
    expect((screen.getByLabelText('To') as HTMLSelectElement).value).toBe('l1');
    await userEvent.type(screen.getByLabelText('Note'), 'For the weekend');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-dashboard/transfers/t9'));
    const [post] = callsTo(calls, 'POST', '/api/transfers');
    expect(post?.body).toEqual({
      from: 'l2',
      to: 'l1',
      note: 'For the weekend',
      lines: [{ product: 'p1', quantity: 6 }],
    });
    expect(post?.headers['Idempotency-Key']).toMatch(/.{8,}/);
    expect(await screen.findByText('TR-000009 saved as a draft.')).toBeTruthy();
  });

  it('names the lots of a tracked product, which must add up to its line', async () => {
    const { calls } = renderTransfers('/admin-dashboard/transfers/new?from=l1&to=l2', {
      ...search,
      'POST /api/transfers': () => answerTransfer(transfer(), 201),
      'GET /api/transfers/t1': () => answerTransfer(transfer()),
    });
    await screen.findByRole('combobox', { name: 'Add a product' });
    await addBySearch('blue', 'Blue Pen');
    expect(screen.queryByRole('button', { name: 'Name a lot of Blue Pen' })).toBeNull();
    await addBySearch('ser', 'Serum');
    await userEvent.clear(screen.getByLabelText('Quantity of Serum'));
    await userEvent.type(screen.getByLabelText('Quantity of Serum'), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Name a lot of Serum' }));
    await userEvent.type(screen.getByLabelText('Lot number 1 of Serum'), 'A1');
    expect((screen.getByLabelText('Units of lot 1 of Serum') as HTMLInputElement).value).toBe('5');
    await userEvent.clear(screen.getByLabelText('Units of lot 1 of Serum'));
    await userEvent.type(screen.getByLabelText('Units of lot 1 of Serum'), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('The lots add up to 3; the line sends 5.')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/transfers')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Name a lot of Serum' }));
    await userEvent.type(screen.getByLabelText('Lot number 2 of Serum'), 'B2');
    await userEvent.type(screen.getByLabelText('Units of lot 2 of Serum'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/transfers')).toHaveLength(1));
    expect(callsTo(calls, 'POST', '/api/transfers')[0]?.body).toEqual({
      from: 'l1',
      to: 'l2',
      note: '',
      lines: [
        { product: 'p1', quantity: 1 },
        {
          product: 'p2',
          quantity: 5,
          lots: [
            { number: 'A1', quantity: 3 },
            { number: 'B2', quantity: 2 },
          ],
        },
      ],
    });
  });

  it("shows the server's sentence when it refuses (an inactive location)", async () => {
    renderTransfers('/admin-dashboard/transfers/new?from=l1&to=l2&product=p1', {
      ...search,
      'POST /api/transfers': () =>
        refusal(409, 'LOCATION_INACTIVE', 'Stockroom is inactive: choose an active location.'),
    });
    expect(await screen.findByText('Blue Pen')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Stockroom is inactive: choose an active location.',
    );
  });
});

describe('editing a draft', () => {
  it('starts from the draft and saves it with PUT', async () => {
    const draft = transfer({
      note: 'Shelf B',
      lines: [line('p2', 'Serum', { quantity: 3, requestedLots: [{ number: 'A1', quantity: 3 }] })],
    });
    const { calls, router } = renderTransfers('/admin-dashboard/transfers/t1/edit', {
      ...search,
      'GET /api/transfers/t1': () => answerTransfer(draft),
      'PUT /api/transfers/t1': () => answerTransfer(draft),
    });
    expect((await screen.findByLabelText('Lot number 1 of Serum')) as HTMLInputElement).toHaveProperty(
      'value',
      'A1',
    );
    await userEvent.clear(screen.getByLabelText('Quantity of Serum'));
    await userEvent.type(screen.getByLabelText('Quantity of Serum'), '4');
    await userEvent.clear(screen.getByLabelText('Units of lot 1 of Serum'));
    await userEvent.type(screen.getByLabelText('Units of lot 1 of Serum'), '4');
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-dashboard/transfers/t1'));
    const [put] = callsTo(calls, 'PUT', '/api/transfers/t1');
    expect(put?.body).toEqual({
      from: 'l1',
      to: 'l2',
      note: 'Shelf B',
      lines: [{ product: 'p2', quantity: 4, lots: [{ number: 'A1', quantity: 4 }] }],
    });
    expect(put?.headers['Idempotency-Key']).toBeTruthy();
  });

  it('says a sent transfer can no longer be changed', async () => {
    renderTransfers('/admin-dashboard/transfers/t1/edit', {
      'GET /api/transfers/t1': () => answerTransfer(transfer({ status: 'inTransit' })),
    });
    expect(await screen.findByText(/TR-000001 is in transit: only a draft can be changed/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open TR-000001' }).getAttribute('href')).toBe(
      '/admin-dashboard/transfers/t1',
    );
  });
});
