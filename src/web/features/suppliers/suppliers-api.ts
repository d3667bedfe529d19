import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { Ok } from '../../../shared/common';
import { type SupplierInput, SupplierListResponse, SupplierResponse } from '../../../shared/suppliers';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

export function useSupplierList() {
  return useQuery({
    queryKey: queryKeys.suppliers,
    queryFn: ({ signal }) => api('/supplier', { schema: SupplierListResponse, signal }),
  });
}

export function useSaveSupplier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: SupplierInput }) =>
      id
        ? api(`/supplier/${encodeURIComponent(id)}`, { method: 'PUT', body: input, schema: SupplierResponse })
        : api('/supplier/add', { method: 'POST', body: input, schema: SupplierResponse }),
    meta: { inlineErrors: true },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.suppliers });
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
    },
  });
}

export function useDeleteSupplier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/supplier/${encodeURIComponent(id)}`, { method: 'DELETE', schema: Ok }),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<z.infer<typeof SupplierListResponse>>(queryKeys.suppliers, (list) =>
        list ? { ...list, suppliers: list.suppliers.filter((supplier) => supplier._id !== id) } : list,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.suppliers });
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
    },
  });
}
