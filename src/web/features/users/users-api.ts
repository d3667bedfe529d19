import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { Ok } from '../../../shared/common';
import { type UserInput, UserListResponse, type UserQuery, UserResponse } from '../../../shared/users';
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
