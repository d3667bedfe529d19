import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { Ok } from '../../../shared/common';
import { type UserInput, UserListResponse, UserResponse } from '../../../shared/users';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

export function useUserList() {
  return useQuery({
    queryKey: queryKeys.users,
    queryFn: ({ signal }) => api('/users', { schema: UserListResponse, signal }),
  });
}

export function useAddUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UserInput) =>
      api('/users/add', { method: 'POST', body: input, schema: UserResponse }),
    meta: { inlineErrors: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users }),
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/users/${encodeURIComponent(id)}`, { method: 'DELETE', schema: Ok }),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<z.infer<typeof UserListResponse>>(queryKeys.users, (list) =>
        list ? { ...list, users: list.users.filter((user) => user._id !== id) } : list,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.users });
    },
  });
}
