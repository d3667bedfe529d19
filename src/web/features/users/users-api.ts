import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { Ok } from '../../../shared/common';
import {
  ResetPasswordResponse,
  type StaffInput,
  type UserInput,
  UserListResponse,
  type UserQuery,
  UserResponse,
} from '../../../shared/users';
import { api } from '../../lib/api';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

/** One page of the users the signed-in user manages; the page shown stays while the next loads. */
export function useUserPage(query: UserQuery) {
  return useQuery({
    queryKey: queryKeys.userPage(query),
    queryFn: ({ signal }) => api(withQuery('/users', query), { schema: UserListResponse, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAddUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UserInput) =>
      api('/users/add', { method: 'POST', body: input, schema: UserResponse }),
    meta: { inlineErrors: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.userPages }),
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/users/${encodeURIComponent(id)}`, { method: 'DELETE', schema: Ok }),
    onSuccess: (_answer, id) => {
      // The row leaves at once; the refetch then fills the page up again from the next one.
      queryClient.setQueriesData<z.infer<typeof UserListResponse>>(
        { queryKey: queryKeys.userPages },
        (list) => {
          if (!list?.users.some((user) => user._id === id)) return list;
          return {
            ...list,
            users: list.users.filter((user) => user._id !== id),
            total: Math.max(0, list.total - 1),
          };
        },
      );
      queryClient.removeQueries({ queryKey: queryKeys.user(id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.userPages });
    },
  });
}

type UserList = z.infer<typeof UserListResponse>;

/** Puts a changed user in place on every cached page, then refetches them. */
function useChangedUser() {
  const queryClient = useQueryClient();
  return (user: UserList['users'][number]) => {
    queryClient.setQueriesData<UserList>({ queryKey: queryKeys.userPages }, (list) =>
      list ? { ...list, users: list.users.map((row) => (row._id === user._id ? user : row)) } : list,
    );
    void queryClient.invalidateQueries({ queryKey: queryKeys.userPages });
  };
}

/** An admin's change to a user they manage: name, role, or whether the account is active. */
export function useChangeUser() {
  const changed = useChangedUser();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: StaffInput }) =>
      api(`/users/${encodeURIComponent(id)}`, { method: 'PATCH', body: change, schema: UserResponse }),
    meta: { inlineErrors: true },
    onSuccess: ({ user }) => changed(user),
  });
}

/** Resets a user's password; the answer's temporary password is shown once and kept nowhere. */
export function useResetPassword() {
  const changed = useChangedUser();
  return useMutation({
    mutationFn: (id: string) =>
      api(`/users/${encodeURIComponent(id)}/reset-password`, {
        method: 'POST',
        schema: ResetPasswordResponse,
      }),
    meta: { inlineErrors: true },
    onSuccess: ({ user }) => changed(user),
  });
}
