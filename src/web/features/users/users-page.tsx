import { useState } from 'react';
import { CREATABLE_ROLES } from '../../../shared/roles';
import type { User } from '../../../shared/users';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SearchField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { ROLE_LABEL, shortId } from '../../lib/format';
import { notify } from '../../lib/notify';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useSignedInUser } from '../../lib/signed-in';
import { SEARCH_MAX_LENGTH, usePagedList, usePageInRange } from '../../lib/use-paged-list';
import { UserForm } from './user-form';
import { useDeleteUser, useUserPage } from './users-api';

/** Super admin and admin: add users of the roles they manage, list and delete them. */
export function UsersPage() {
  const me = useSignedInUser();
  const paging = usePagedList();
  const asked = { page: paging.page, pageSize: paging.pageSize };
  const list = useUserPage({ search: paging.search || undefined, ...asked });
  const remove = useDeleteUser();
  const [deleting, setDeleting] = useState<User | null>(null);

  const page = serverPage(list.data && { ...list.data, rows: list.data.users }, asked);
  usePageInRange(paging.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, paging.setPage);

  return (
    <>
      <PageHeader title="Users Management" />
      <div className="grid items-start gap-6 lg:grid-cols-[20rem_1fr]">
        <UserForm roles={CREATABLE_ROLES[me.role]} />
        <div className="min-w-0 space-y-4">
          <SearchField
            value={paging.text}
            onChange={paging.setText}
            placeholder="Search users..."
            maxLength={SEARCH_MAX_LENGTH}
          />
          <Table caption="Users" busy={list.isPlaceholderData}>
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
              <LoadState
                query={list}
                what="the users"
                colSpan={5}
                waiting={isPastEnd(page)}
                isEmpty={() => page.total === 0}
                empty="No User found"
              >
                {() =>
                  page.rows.map((user) => (
                    <tr key={user._id} className="hover:bg-slate-50">
                      <Td className="font-mono text-xs text-slate-500">
                        <span title={user._id}>{shortId(user._id)}</span>
                      </Td>
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
                }
              </LoadState>
            </tbody>
          </Table>
          <Pager page={page} label="Users" onPage={paging.setPage} />
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
