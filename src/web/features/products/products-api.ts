import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Ok } from '../../../shared/common';
import { type ProductInput, ProductListResponse, ProductResponse } from '../../../shared/products';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

export function useProductList() {
  return useQuery({
    queryKey: queryKeys.products,
    queryFn: ({ signal }) => api('/products', { schema: ProductListResponse, signal }),
  });
}

export function useSaveProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: ProductInput }) =>
      id
        ? api(`/products/${encodeURIComponent(id)}`, { method: 'PUT', body: input, schema: ProductResponse })
        : api('/products/add', { method: 'POST', body: input, schema: ProductResponse }),
    meta: { inlineErrors: true },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
    },
  });
}

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/products/${encodeURIComponent(id)}`, { method: 'DELETE', schema: Ok }),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<ProductListResponse>(queryKeys.products, (list) =>
        list ? { ...list, products: list.products.filter((product) => product._id !== id) } : list,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
    },
  });
}
