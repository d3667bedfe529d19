import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { User } from '../../../shared/users';
import { SignedInContext } from '../../lib/signed-in';
import { listCalls, mockFetch, pageAnswer, renderWithClient, signIn, userOf } from '../../test/helpers';
import { UsersPage } from './users-page';

const staff = (count: number): User[] =>
  Array.from({ length: count }, (_, i) => ({
    _id: `u${i + 1}`,
    name: `Person ${String(i + 1).padStart(3, '0')}`,
    email: `person${i + 1}@shop.test`,
    address: '',
    role: 'salesRep' as const,
  }));

function renderUsers(initial: User[]) {
  const me = userOf('admin');
  signIn(me);
  let users = initial;
  const mock = mockFetch({
    'GET /api/users': ({ query }) => {
      const { rows, ...info } = pageAnswer(users, query, (u) => `${u.name} ${u.email}`);
      return { body: { success: true, users: rows, ...info } };
    },
    'POST /api/users/add': ({ body }) => {
      const user = { ...(body as User), _id: `u${users.length + 1}` };
      users = [...users, user];
      return { status: 201, body: { success: true, user } };
    },
    'DELETE /api/users/u2': () => {
      users = users.filter((user) => user._id !== 'u2');
      return { body: { success: true } };
    },
  });
  renderWithClient(
    <SignedInContext value={me}>
      <MemoryRouter>
        <UsersPage />
      </MemoryRouter>
    </SignedInContext>,
  );
  return mock;
}

function bodyRows() {
  const table = screen.getByRole('table', { name: 'Users' });
  return within(table).getAllByRole('row').slice(1) as HTMLTableRowElement[];
}

const column = (index: number) => bodyRows().map((row) => row.cells[index]?.textContent);

describe('Users Management', () => {
  it('shows only Loading... at first, then a page of users, each with its own ID (not a row number)', async () => {
    const { calls } = renderUsers(staff(60));
    expect(screen.getByText('Loading...')).toBeTruthy();
    await screen.findByText('Person 001');
    expect(screen.getByText('Showing 1–50 of 60')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Person 051');
    expect(column(0)).toEqual(['u51', 'u52', 'u53', 'u54', 'u55', 'u56', 'u57', 'u58', 'u59', 'u60']);
    expect(listCalls(calls, '/api/users').at(-1)?.query).toEqual({ page: '2', pageSize: '50' });
  });

  it("searches on the server once typing pauses, and says 'No User found' when nothing matches", async () => {
    const { calls } = renderUsers(staff(60));
    await screen.findByText('Person 001');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Person 051');
    const search = screen.getByPlaceholderText('Search users...');
    await userEvent.type(search, 'person7@');
    await waitFor(() => expect(column(1)).toEqual(['Person 007']));
    // Found by a search, Person 007 keeps the ID it has in the full list.
    expect(column(0)).toEqual(['u7']);
    expect(listCalls(calls, '/api/users').at(-1)?.query).toEqual({
      search: 'person7@',
      page: '1',
      pageSize: '50',
    });
    await userEvent.type(search, 'nobody');
    await waitFor(() => expect(bodyRows()[0]?.textContent).toBe('No User found'));
  });

  it('fetches the page again after a user is added', async () => {
    const { calls } = renderUsers(staff(2));
    await screen.findByText('Person 001');
    const form = screen.getByRole('region', { name: 'Add New User' });
    await userEvent.type(within(form).getByLabelText('Name'), 'Nina New');
    await userEvent.type(within(form).getByLabelText('Email'), 'nina@shop.test');
    await userEvent.type(within(form).getByLabelText('Password'), 'secret-pass-1');
    await userEvent.selectOptions(within(form).getByLabelText('Role'), 'medicalRep');
    await userEvent.click(within(form).getByRole('button', { name: 'Add User' }));
    expect((await screen.findByRole('status')).textContent).toBe('User Nina New added.');
    await waitFor(() => expect(column(1)).toContain('Nina New'));
    expect(listCalls(calls, '/api/users')).toHaveLength(2);
  });

  it('deletes a user after confirmation and refreshes the page', async () => {
    const { calls } = renderUsers(staff(3));
    await screen.findByText('Person 002');
    await userEvent.click(screen.getByRole('button', { name: 'Delete Person 002' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete user?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('status')).textContent).toBe('User deleted.');
    await waitFor(() => expect(column(1)).toEqual(['Person 001', 'Person 003']));
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/users/u2')).toBe(true);
    await waitFor(() => expect(listCalls(calls, '/api/users')).toHaveLength(2));
  });
});
