import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { User } from '../../../shared/users';
import { ROLE_LABEL } from '../../lib/format';
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
    active: true,
    mustChangePassword: false,
    location: null,
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
    'PATCH /api/users/*': ({ path, body }) => {
      const id = path.split('/').at(-1);
      if ((body as { role?: string }).role === 'admin')
        return { status: 403, body: { success: false, error: 'Your role cannot give the admin role.' } };
      users = users.map((user) => (user._id === id ? { ...user, ...(body as Partial<User>) } : user));
      return { body: { success: true, user: users.find((user) => user._id === id) } };
    },
    'POST /api/users/u2/reset-password': () => {
      users = users.map((user) => (user._id === 'u2' ? { ...user, mustChangePassword: true } : user));
      const user = users.find((row) => row._id === 'u2');
      return { body: { success: true, temporaryPassword: 'k7mq-3xtn-9bwe-p2fh', user } };
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
  // Fifty rows, each with its four actions, take a while to render on a busy machine.
  it('shows only Loading... at first, then a page of users, each with its own ID (not a row number)', {
    timeout: 15_000,
  }, async () => {
    const { calls } = renderUsers(staff(60));
    expect(screen.getByText('Loading...')).toBeTruthy();
    await screen.findByText('Person 001');
    expect(screen.getByText('Showing 1–50 of 60')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Person 051');
    expect(column(0)).toEqual(['u51', 'u52', 'u53', 'u54', 'u55', 'u56', 'u57', 'u58', 'u59', 'u60']);
    expect(listCalls(calls, '/api/users').at(-1)?.query).toEqual({ page: '2', pageSize: '50' });
  });

  it("searches on the server once typing pauses, and says 'No User found' when nothing matches", {
    timeout: 15_000,
  }, async () => {
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

  it('shows each user as Active or Deactivated, and offers the staff actions on every row but your own', async () => {
    renderUsers(
      staff(3).map((user, i) => (i === 2 ? { ...user, active: false, mustChangePassword: true } : user)),
    );
    await screen.findByText('Person 003');
    expect(column(4)).toEqual(['Active', 'Active', 'DeactivatedMust change password']);
    expect(screen.getByRole('button', { name: 'Deactivate Person 001' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reactivate Person 003' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reset the password of Person 002' })).toBeTruthy();
  });

  it('edits the name and role in a dialog that offers only the roles the admin may give', async () => {
    const { calls } = renderUsers(staff(2));
    await screen.findByText('Person 002');
    await userEvent.click(screen.getByRole('button', { name: 'Edit Person 002' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Person 002' });
    const role = within(dialog).getByLabelText('Role') as HTMLSelectElement;
    expect([...role.options].map((option) => option.value)).toEqual(['salesRep', 'medicalRep', 'user']);
    const name = within(dialog).getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Name is required.')).toBeTruthy();
    await userEvent.type(name, 'Paula Field');
    await userEvent.selectOptions(role, 'medicalRep');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('status')).textContent).toBe('User Paula Field updated.');
    expect(screen.queryByRole('dialog')).toBeNull();
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(patch).toMatchObject({ path: '/api/users/u2', body: { name: 'Paula Field', role: 'medicalRep' } });
    await waitFor(() => expect(column(1)).toEqual(['Person 001', 'Paula Field']));
    expect(column(3)).toEqual([ROLE_LABEL.salesRep, ROLE_LABEL.medicalRep]);
  });

  it("shows the server's refusal inside the edit dialog and keeps it open", async () => {
    renderUsers(staff(1));
    await screen.findByText('Person 001');
    await userEvent.click(screen.getByRole('button', { name: 'Edit Person 001' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Person 001' });
    // A role the form does not offer, as a tampered page would send it.
    const role = within(dialog).getByLabelText('Role') as HTMLSelectElement;
    const admin = document.createElement('option');
    admin.value = 'admin';
    admin.textContent = 'Admin';
    role.append(admin);
    await userEvent.selectOptions(role, 'admin');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'Your role cannot give the admin role.',
    );
  });

  it('deactivates after confirmation, then reactivates', async () => {
    const { calls } = renderUsers(staff(2));
    await screen.findByText('Person 002');
    await userEvent.click(screen.getByRole('button', { name: 'Deactivate Person 002' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Deactivate user?' });
    expect(confirm.textContent).toContain('signed out at once');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Deactivate' }));
    expect((await screen.findByRole('status')).textContent).toBe('Person 002 deactivated.');
    await waitFor(() => expect(column(4)).toEqual(['Active', 'Deactivated']));
    await userEvent.click(screen.getByRole('button', { name: 'Reactivate Person 002' }));
    const again = screen.getByRole('alertdialog', { name: 'Reactivate user?' });
    await userEvent.click(within(again).getByRole('button', { name: 'Reactivate' }));
    await waitFor(() => expect(column(4)).toEqual(['Active', 'Active']));
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
      { active: false },
      { active: true },
    ]);
  });

  it('cancelling the deactivation changes nothing', async () => {
    const { calls } = renderUsers(staff(2));
    await screen.findByText('Person 002');
    await userEvent.click(screen.getByRole('button', { name: 'Deactivate Person 002' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
  });

  it('resets a password after confirmation and shows the temporary one once, with Copy', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderUsers(staff(2));
    await screen.findByText('Person 002');
    await userEvent.click(screen.getByRole('button', { name: 'Reset the password of Person 002' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Reset password?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Reset password' }));
    const shown = await screen.findByRole('dialog', { name: 'Temporary password' });
    expect(within(shown).getByText('k7mq-3xtn-9bwe-p2fh')).toBeTruthy();
    expect(shown.textContent).toContain('They must change it when they next sign in.');
    expect(document.activeElement?.textContent).toBe('Done');
    await userEvent.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('k7mq-3xtn-9bwe-p2fh');
    expect(within(shown).getByText('Copied.')).toBeTruthy();
    await userEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByText('k7mq-3xtn-9bwe-p2fh')).toBeNull();
    await waitFor(() => expect(column(4)).toEqual(['Active', 'ActiveMust change password']));
  });
});
