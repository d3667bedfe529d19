import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ProductResponse } from '../../../shared/products';
import {
  type AdjustInput,
  type CountInput,
  MovementListResponse,
  MovementResponse,
  StockCheckResponse,
} from '../../../shared/stock';
import { api } from '../../lib/api';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

export const MOVEMENTS_PAGE_SIZE = 20;

export function useProduct(id: string) {
  return useQuery({
    queryKey: queryKeys.product(id),
    queryFn: ({ signal }) => api(`/products/${encodeURIComponent(id)}`, { schema: ProductResponse, signal }),
  });
}

export function useMovements(id: string, page: number) {
  return useQuery({
    queryKey: queryKeys.movements(id, page),
    queryFn: ({ signal }) =>
      api(
        withQuery(`/products/${encodeURIComponent(id)}/movements`, { page, pageSize: MOVEMENTS_PAGE_SIZE }),
        {
          schema: MovementListResponse,
          signal,
        },
      ),
    placeholderData: keepPreviousData,
  });
}

/** Adjust or count: both answer the product and the movement, and both change every stock shown. */
export function useStockChange(id: string, kind: 'adjust' | 'count') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: AdjustInput | CountInput; key: string }) =>
      api(`/products/${encodeURIComponent(id)}/${kind}`, {
        method: 'POST',
        body: input,
        schema: MovementResponse,
        idempotencyKey: key,
      }),
    meta: { inlineErrors: true },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
    },
  });
}

export function useStockCheck() {
  return useMutation({
    mutationFn: () => api('/stock/check', { schema: StockCheckResponse }),
  });
}
