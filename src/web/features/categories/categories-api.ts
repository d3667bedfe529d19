import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type CategoryInput, CategoryListResponse, CategoryResponse } from '../../../shared/categories';
import { Ok } from '../../../shared/common';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

export function useCategoryList() {
  return useQuery({
    queryKey: queryKeys.categories,
    queryFn: ({ signal }) => api('/category', { schema: CategoryListResponse, signal }),
  });
}

export function useSaveCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: CategoryInput }) =>
      id
        ? api(`/category/${encodeURIComponent(id)}`, { method: 'PUT', body: input, schema: CategoryResponse })
        : api('/category/add', { method: 'POST', body: input, schema: CategoryResponse }),
    meta: { inlineErrors: true },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.categories });
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
    },
  });
}

export function useDeleteCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/category/${encodeURIComponent(id)}`, { method: 'DELETE', schema: Ok }),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<z.infer<typeof CategoryListResponse>>(queryKeys.categories, (list) =>
        list ? { ...list, categories: list.categories.filter((category) => category._id !== id) } : list,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.categories });
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
    },
  });
}
