import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Customer } from '../../../shared/customers';
import type { Role } from '../../../shared/roles';
import { homePathFor } from '../../lib/role-home';
import { SignedInContext } from '../../lib/signed-in';
import { customer } from '../../test/fixtures';
import { listCalls, mockFetch, pageAnswer, renderWithClient, signIn, userOf } from '../../test/helpers';
import { CustomersPage } from './customers-page';

/** 55 regulars and Ada: two pages of 50. */
const MANY: Customer[] = [
  ...Array.from({ length: 55 }, (_, i) =>
    customer(`c${i}`, `Regular ${String(i + 1).padStart(2, '0')}`, { phone: `555-01${i}` }),
  ),
  customer('ada', 'Ada Lovelace', { phone: '555-1815', email: 'ada@example.com', address: '12 St James Sq' }),
];

const searchable = (c: Customer) => `${c.name} ${c.phone} ${c.email}`;

type Handlers = Parameters<typeof mockFetch>[0];

function renderAt(role: Role, entry: string, initial: Customer[] = MANY, handlers: Handlers = {}) {
  const me = userOf(role);
  signIn(me);
  let customers = initial;
  const area = homePathFor(role);
  const mock = mockFetch({
    'GET /api/customers': ({ query }) => {
      const { rows, ...info } = pageAnswer(customers, query, searchable);
      return { body: { success: true, customers: rows, ...info } };
    },
    'POST /api/customers': ({ body }) => {
      const added = customer('new', (body as Customer).name, body as Partial<Customer>);
      customers = [...customers, added];
      return { status: 201, body: { success: true, customer: added } };
    },
    'PUT /api/customers/ada': ({ body }) => {
      const changed = { ...customer('ada', ''), ...(body as Partial<Customer>) };
      customers = customers.map((c) => (c._id === 'ada' ? changed : c));
      return { body: { success: true, customer: changed } };
    },
    'DELETE /api/customers/ada': () => {
      customers = customers.filter((c) => c._id !== 'ada');
      return { body: { success: true, message: 'Customer deleted.' } };
    },
    ...handlers,
  });
  const router = createMemoryRouter(
    [
      {
        path: `${area}/customers`,
        element: (
          <SignedInContext value={me}>
            <CustomersPage />
          </SignedInContext>
        ),
      },
      { path: `${area}/customers/:id`, element: <p>A customer’s page</p> },
    ],
    { initialEntries: [entry] },
  );
  renderWithClient(<RouterProvider router={router} />);
  return { ...mock, router, area };
}

const table = () => screen.getByRole('table', { name: 'Customers' });
const rows = () => within(table()).getAllByRole('row').slice(1) as HTMLTableRowElement[];
const names = () => rows().map((row) => row.cells[0]?.textContent);

describe('the customers list keeps its page and search in the address', () => {
  it('a shared address with a search and a page asks the server for them and shows them', async () => {
    const { calls } = renderAt('admin', '/admin-dashboard/customers?q=regular&page=2');
    await screen.findByText('Regular 51');
    expect(names()).toEqual(['Regular 51', 'Regular 52', 'Regular 53', 'Regular 54', 'Regular 55']);
    expect(listCalls(calls, '/api/customers').map((call) => call.query)).toEqual([
      { search: 'regular', page: '2', pageSize: '50' },
    ]);
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('regular');
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
  });

  it('writes the page, then the search once typing pauses (back on page 1); Back shows the page before', async () => {
    const { router, calls } = renderAt('salesRep', '/salesRep-dashboard/customers');
    await screen.findByText('Regular 01');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await screen.findByText('Regular 51');
    // A phone number finds its customer too.
    await userEvent.type(screen.getByRole('searchbox'), '555-1815');
    await waitFor(() => expect(router.state.location.search).toBe('?q=555-1815'));
    await waitFor(() => expect(names()).toEqual(['Ada Lovelace']));
    expect(listCalls(calls, '/api/customers').at(-1)?.query).toEqual({
      search: '555-1815',
      page: '1',
      pageSize: '50',
    });
    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(names()[0]).toBe('Regular 01'));
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('');
  });

  it('says when nothing matches the search', async () => {
    renderAt('user', '/employee-dashboard/customers?q=nobody');
    expect(await screen.findByText('No customers match “nobody”.')).toBeTruthy();
  });

  it('says so when the store has no customers yet', async () => {
    renderAt('user', '/employee-dashboard/customers', []);
    expect(await screen.findByText('No customers yet.')).toBeTruthy();
  });
});

describe('who may do what on the customers list', () => {
  it('a sales rep adds customers but neither edits nor deletes them; each name opens the customer in their area', async () => {
    renderAt('salesRep', '/salesRep-dashboard/customers?q=ada');
    await screen.findByText('Ada Lovelace');
    expect(screen.getByRole('button', { name: 'Add customer' })).toBeTruthy();
    expect(within(table()).queryByRole('button')).toBeNull();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Phone', 'Email', 'Address']);
    expect(screen.getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href')).toBe(
      '/salesRep-dashboard/customers/ada',
    );
  });

  it('an admin has Edit and Delete on every row, named after the customer', async () => {
    renderAt('admin', '/admin-dashboard/customers?q=ada');
    await screen.findByText('Ada Lovelace');
    expect(screen.getByRole('button', { name: 'Add customer' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit Ada Lovelace' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete Ada Lovelace' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href')).toBe(
      '/admin-dashboard/customers/ada',
    );
  });

  it('an admin deletes only after confirming; Cancel has the focus and keeps the customer', async () => {
    const { calls } = renderAt('admin', '/admin-dashboard/customers?q=ada');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Ada Lovelace' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete customer?' });
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Cancel' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Ada Lovelace' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Customer deleted.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Ada Lovelace')).toBeNull());
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      '/api/customers/ada',
    ]);
  });

  it('an admin edits a customer in the form, which opens with their details', async () => {
    const { calls } = renderAt('admin', '/admin-dashboard/customers?q=ada');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Ada Lovelace' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Customer' });
    expect((within(dialog).getByLabelText('Phone') as HTMLInputElement).value).toBe('555-1815');
    const name = within(dialog).getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Ada King');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Customer updated.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      name: 'Ada King',
      phone: '555-1815',
      email: 'ada@example.com',
      address: '12 St James Sq',
      note: '',
    });
  });
});

describe('adding a customer', () => {
  it('checks the form with the shared rules, then adds the customer', async () => {
    const { calls } = renderAt('user', '/employee-dashboard/customers');
    await screen.findByText('Regular 01');
    await userEvent.click(screen.getByRole('button', { name: 'Add customer' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Customer' });
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Name'));
    await userEvent.type(within(dialog).getByLabelText('Email'), 'not-an-email');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Customer' }));
    expect(await within(dialog).findByText('Customer name is required.')).toBeTruthy();
    expect(within(dialog).getByText('Enter a valid email address.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await userEvent.type(within(dialog).getByLabelText('Name'), 'Grace Hopper');
    await userEvent.clear(within(dialog).getByLabelText('Email'));
    await userEvent.type(within(dialog).getByLabelText('Phone'), '555-1906');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Customer' }));
    expect(await screen.findByText('Customer added.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Grace Hopper',
      phone: '555-1906',
      email: '',
      address: '',
      note: '',
    });
  });

  it('puts what the server refuses beside the field', async () => {
    renderAt('user', '/employee-dashboard/customers', [], {
      'POST /api/customers': () => ({
        status: 400,
        body: {
          success: false,
          error: 'Check the highlighted fields.',
          details: [{ path: 'body.phone', message: 'Must be at most 50 characters.' }],
        },
      }),
    });
    await screen.findByText('No customers yet.');
    await userEvent.click(screen.getByRole('button', { name: 'Add customer' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Customer' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Grace Hopper');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Customer' }));
    expect(await within(dialog).findByText('Must be at most 50 characters.')).toBeTruthy();
    expect(within(dialog).getByLabelText('Phone').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByRole('alert').textContent).toBe('Check the highlighted fields.');
  });
});

describe('one customer per name and phone', () => {
  const refusal = {
    status: 409,
    body: {
      success: false,
      error: 'A customer named Ada Lovelace with phone 555-1815 already exists.',
      code: 'CUSTOMER_TAKEN',
      existing: { _id: 'ada', name: 'Ada Lovelace' },
    },
  };

  it('adding someone stored already shows the sentence and offers the customer stored', async () => {
    const { router } = renderAt('user', '/employee-dashboard/customers', MANY, {
      'POST /api/customers': () => refusal,
    });
    await screen.findByText('Regular 01');
    await userEvent.click(screen.getByRole('button', { name: 'Add customer' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Customer' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'ada lovelace');
    await userEvent.type(within(dialog).getByLabelText('Phone'), '555 1815');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Customer' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'A customer named Ada Lovelace with phone 555-1815 already exists.',
    );
    const use = within(dialog).getByRole('link', { name: 'Use Ada Lovelace' });
    expect(use.getAttribute('href')).toBe('/employee-dashboard/customers/ada');
    await userEvent.click(use);
    expect(await screen.findByText('A customer’s page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/employee-dashboard/customers/ada');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('an edit making a customer the same as another offers to open the other one', async () => {
    renderAt('admin', '/admin-dashboard/customers', MANY, {
      'PUT /api/customers/c0': () => refusal,
    });
    await screen.findByText('Regular 01');
    await userEvent.click(screen.getByRole('button', { name: 'Edit Regular 01' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Customer' });
    const name = within(dialog).getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Ada Lovelace');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'A customer named Ada Lovelace with phone 555-1815 already exists.',
    );
    expect(within(dialog).getByRole('link', { name: 'Open Ada Lovelace' }).getAttribute('href')).toBe(
      '/admin-dashboard/customers/ada',
    );
  });
});

describe('when the list cannot be loaded', () => {
  it('says why and offers to try again', async () => {
    let fail = true;
    renderAt('admin', '/admin-dashboard/customers', [], {
      'GET /api/customers': () =>
        fail
          ? { status: 503, body: { success: false, error: 'The database is busy.' } }
          : {
              body: {
                success: true,
                customers: [customer('ada', 'Ada Lovelace')],
                total: 1,
                page: 1,
                pageSize: 50,
              },
            },
    });
    const alert = await within(table()).findByRole('alert');
    expect(alert.textContent).toBe('The customers could not be loaded: The database is busy.');
    fail = false;
    await userEvent.click(within(table()).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Ada Lovelace')).toBeTruthy();
  });
});
