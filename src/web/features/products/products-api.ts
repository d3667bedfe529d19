import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Ok } from '../../../shared/common';
import {
  type ProductInput,
  ProductListResponse,
  type ProductQuery,
  ProductResponse,
  type ProductUpdateInput,
} from '../../../shared/products';
import { api, refusedAs } from '../../lib/api';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

/** One page of the catalogue. The page shown stays on screen while the next one loads. */
export function useProductPage(query: ProductQuery) {
  return useQuery({
    queryKey: queryKeys.productPage(query),
    queryFn: ({ signal }) => api(withQuery('/products', query), { schema: ProductListResponse, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useSaveProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: ProductInput | ProductUpdateInput }) =>
      id
        ? api(`/products/${encodeURIComponent(id)}`, { method: 'PUT', body: input, schema: ProductResponse })
        : api('/products/add', { method: 'POST', body: input, schema: ProductResponse }),
    meta: { inlineErrors: true },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
    },
    onError: (error) => {
      // A stale stock: the lists behind the form fetch the stock as it is now.
      if (refusedAs(error, 'STOCK_CHANGED'))
        void queryClient.invalidateQueries({ queryKey: queryKeys.products });
    },
  });
}

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/products/${encodeURIComponent(id)}`, { method: 'DELETE', schema: Ok }),
    onSuccess: (_answer, id) => {
      // The row leaves at once; the refetch then fills the page up again from the next one.
      queryClient.setQueriesData<ProductListResponse>({ queryKey: queryKeys.productPages }, (list) => {
        if (!list?.products.some((product) => product._id === id)) return list;
        return {
          ...list,
          products: list.products.filter((product) => product._id !== id),
          total: Math.max(0, list.total - 1),
        };
      });
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
    },
  });
}
