import { useState } from 'react';
import { CREATABLE_ROLES } from '../../../shared/roles';
import type { User } from '../../../shared/users';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SearchField } from '../../components/form-field';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, TableMessage, Td, Th } from '../../components/table';
import { ROLE_LABEL } from '../../lib/format';
import { notify } from '../../lib/notify';
import { pageOf } from '../../lib/paging';
import { filterByName } from '../../lib/search';
import { useSignedInUser } from '../../lib/signed-in';
import { UserForm } from './user-form';
import { useDeleteUser, useUserList } from './users-api';

/** Super admin and admin: add users of the roles they manage, list and delete them. */
export function UsersPage() {
  const me = useSignedInUser();
  const list = useUserList();
  const remove = useDeleteUser();
  const [query, setQuery] = useState('');
  const [pageNumber, setPageNumber] = useState(1);
  const [deleting, setDeleting] = useState<User | null>(null);

  const users = filterByName(list.data?.users ?? [], query);
  const page = pageOf(users, pageNumber);

  return (
    <>
      <PageHeader title="Users Management" />
      <div className="grid items-start gap-6 lg:grid-cols-[20rem_1fr]">
        <UserForm roles={CREATABLE_ROLES[me.role]} />
        <div className="min-w-0 space-y-4">
          <SearchField
            value={query}
            onChange={(text) => {
              setQuery(text);
              setPageNumber(1);
            }}
            placeholder="Search users..."
          />
          <Table caption="Users">
            <thead>
              <tr>
                <Th className="w-16">ID</Th>
                <Th>Name</Th>
                <Th>Email</Th>
                <Th>Role</Th>
                <Th stickyEnd>Action</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {list.isPending ? (
                <TableMessage colSpan={5}>Loading...</TableMessage>
              ) : page.total === 0 ? (
                <TableMessage colSpan={5}>No User found</TableMessage>
              ) : (
                page.rows.map((user, index) => (
                  <tr key={user._id} className="hover:bg-slate-50">
                    <Td className="tabular-nums text-slate-500">{page.offset + index + 1}</Td>
                    <Td className="font-medium">{user.name}</Td>
                    <Td className="whitespace-nowrap">{user.email}</Td>
                    <Td className="whitespace-nowrap">{ROLE_LABEL[user.role]}</Td>
                    <Td stickyEnd>
                      {user._id === me._id ? (
                        <span className="text-xs text-slate-500">You</span>
                      ) : (
                        <button
                          type="button"
                          className={buttonClass('danger', 'sm')}
                          onClick={() => setDeleting(user)}
                          aria-label={`Delete ${user.name}`}
                        >
                          Delete
                        </button>
                      )}
                    </Td>
                  </tr>
                ))
              )}
            </tbody>
          </Table>
          <Pager page={page} label="Users" onPage={setPageNumber} />
        </div>
      </div>

      {deleting ? (
        <ConfirmDialog
          title="Delete user?"
          message={`${deleting.name} (${deleting.email}) will no longer be able to log in. Their orders are kept.`}
          busy={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting._id, {
              onSuccess: () => notify.success('User deleted.'),
              onSettled: () => setDeleting(null),
            })
          }
        />
      ) : null}
    </>
  );
}
