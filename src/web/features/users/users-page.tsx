import { useState } from 'react';
import { CREATABLE_ROLES, manages } from '../../../shared/roles';
import type { User } from '../../../shared/users';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SearchField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { Table, Td, Th } from '../../components/table';
import { errorMessage } from '../../lib/api';
import { ROLE_LABEL, shortId } from '../../lib/format';
import { notify } from '../../lib/notify';
import { isPastEnd, serverPage } from '../../lib/paging';
import { useSignedInUser } from '../../lib/signed-in';
import { SEARCH_MAX_LENGTH, usePagedList, usePageInRange } from '../../lib/use-paged-list';
import { EditUserDialog, TemporaryPasswordDialog } from './staff-dialogs';
import { UserForm } from './user-form';
import { useChangeUser, useDeleteUser, useResetPassword, useUserPage } from './users-api';

/** Active or deactivated, in words (colour is not all that tells), and a reset awaiting a new password. */
function UserStatus({ user }: { user: User }) {
  return (
    <span className="flex flex-col items-start gap-1">
      <span
        className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${
          user.active
            ? 'bg-green-100 text-green-800 ring-green-600/30'
            : 'bg-slate-100 text-slate-700 ring-slate-500/30'
        }`}
      >
        {user.active ? 'Active' : 'Deactivated'}
      </span>
      {user.mustChangePassword ? (
        <span className="text-xs whitespace-nowrap text-slate-500">Must change password</span>
      ) : null}
    </span>
  );
}

/**
 * Super admin and admin: add users of the roles they manage, list them; edit, deactivate and
 * reset the password of those whose role they may create (DESIGN §16); delete those they manage.
 */
export function UsersPage() {
  const me = useSignedInUser();
  const paging = usePagedList();
  const asked = { page: paging.page, pageSize: paging.pageSize };
  const list = useUserPage({ search: paging.search || undefined, ...asked });
  const remove = useDeleteUser();
  const change = useChangeUser();
  const reset = useResetPassword();
  const [deleting, setDeleting] = useState<User | null>(null);
  const [editing, setEditing] = useState<User | null>(null);
  const [switching, setSwitching] = useState<User | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const [temporary, setTemporary] = useState<{ user: User; password: string } | null>(null);
  const givable = CREATABLE_ROLES[me.role];

  const page = serverPage(list.data && { ...list.data, rows: list.data.users }, asked);
  usePageInRange(paging.page, page.pageCount, list.isSuccess && !list.isPlaceholderData, paging.setPage);

  return (
    <>
      <PageHeader title="Users Management" />
      {/*
        The form sits beside the table only where the table still fits without a sideways scroll
        (every column, the actions too); below that it sits above the table, its fields in a row.
      */}
      <div className="grid items-start gap-6 min-[1680px]:grid-cols-[20rem_1fr]">
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
                <Th>Status</Th>
                <Th stickyEnd>Action</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              <LoadState
                query={list}
                what="the users"
                colSpan={6}
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
                      <Td>
                        <UserStatus user={user} />
                      </Td>
                      <Td stickyEnd>
                        {user._id === me._id ? (
                          <span className="text-xs text-slate-500">You</span>
                        ) : (
                          <div className="grid w-max grid-cols-1 gap-1.5 sm:grid-cols-2">
                            {givable.includes(user.role) ? (
                              <>
                                <button
                                  type="button"
                                  className={buttonClass('secondary', 'sm', 'whitespace-nowrap')}
                                  onClick={() => {
                                    change.reset();
                                    setEditing(user);
                                  }}
                                  aria-label={`Edit ${user.name}`}
                                >
                                  Edit
                                </button>
                                <button
                                  type="button"
                                  className={buttonClass('secondary', 'sm', 'whitespace-nowrap')}
                                  onClick={() => setSwitching(user)}
                                  aria-label={`${user.active ? 'Deactivate' : 'Reactivate'} ${user.name}`}
                                >
                                  {user.active ? 'Deactivate' : 'Reactivate'}
                                </button>
                                <button
                                  type="button"
                                  className={buttonClass('secondary', 'sm', 'whitespace-nowrap')}
                                  onClick={() => setResetting(user)}
                                  aria-label={`Reset the password of ${user.name}`}
                                >
                                  Reset password
                                </button>
                              </>
                            ) : null}
                            {manages(me.role, user.role) ? (
                              <button
                                type="button"
                                className={buttonClass('danger', 'sm', 'whitespace-nowrap')}
                                onClick={() => setDeleting(user)}
                                aria-label={`Delete ${user.name}`}
                              >
                                Delete
                              </button>
                            ) : null}
                          </div>
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

      {editing ? <EditUserDialog user={editing} roles={givable} onClose={() => setEditing(null)} /> : null}

      {switching ? (
        <ConfirmDialog
          title={switching.active ? 'Deactivate user?' : 'Reactivate user?'}
          message={
            switching.active
              ? `${switching.name} (${switching.email}) is signed out at once and cannot sign in until reactivated. Their orders are kept.`
              : `${switching.name} (${switching.email}) can sign in again with their password.`
          }
          confirmLabel={switching.active ? 'Deactivate' : 'Reactivate'}
          busyLabel={switching.active ? 'Deactivating...' : 'Reactivating...'}
          busy={change.isPending}
          onCancel={() => setSwitching(null)}
          onConfirm={() =>
            change.mutate(
              { id: switching._id, change: { active: !switching.active } },
              {
                onSuccess: ({ user }) =>
                  notify.success(`${user.name} ${user.active ? 'reactivated' : 'deactivated'}.`),
                onError: (error) => notify.error(errorMessage(error)),
                onSettled: () => setSwitching(null),
              },
            )
          }
        />
      ) : null}

      {resetting ? (
        <ConfirmDialog
          title="Reset password?"
          message={`${resetting.name} (${resetting.email}) is signed out at once and their password stops working. You get a temporary password to give them; they must change it when they next sign in.`}
          confirmLabel="Reset password"
          busyLabel="Resetting..."
          busy={reset.isPending}
          onCancel={() => setResetting(null)}
          onConfirm={() =>
            reset.mutate(resetting._id, {
              onSuccess: ({ user, temporaryPassword }) => setTemporary({ user, password: temporaryPassword }),
              onError: (error) => notify.error(errorMessage(error)),
              onSettled: () => setResetting(null),
            })
          }
        />
      ) : null}

      {temporary ? (
        <TemporaryPasswordDialog
          user={temporary.user}
          password={temporary.password}
          onClose={() => setTemporary(null)}
        />
      ) : null}

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
