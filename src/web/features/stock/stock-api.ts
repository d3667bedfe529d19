import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ProductLocationsResponse } from '../../../shared/locations';
import { LotsResponse } from '../../../shared/lots';
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

/** One product as it is now (its stock and reorder point). */
export const productQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.product(id),
    queryFn: ({ signal }) => api(`/products/${encodeURIComponent(id)}`, { schema: ProductResponse, signal }),
  });

/**
 * A lot-tracked product's lots with their units (DESIGN §15). Asked again each time the screen
 * opens, as the movements are: every sale changes them.
 */
export const lotsQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.productLots(id),
    queryFn: ({ signal }) =>
      api(`/products/${encodeURIComponent(id)}/lots`, { schema: LotsResponse, signal }),
    staleTime: 0,
  });

/** A product's stock at each location and its units in transit (DESIGN §17); asked anew on opening. */
export const productLocationsQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.productLocations(id),
    queryFn: ({ signal }) =>
      api(`/products/${encodeURIComponent(id)}/stock`, { schema: ProductLocationsResponse, signal }),
    staleTime: 0,
  });

/**
 * One page of a product's movements, newest first. Every sale adds one, so the page is asked again
 * each time the screen opens; the page shown stays while the next one loads.
 */
export const movementsQuery = (id: string, page: number) =>
  queryOptions({
    queryKey: queryKeys.movements(id, page),
    queryFn: ({ signal }) =>
      api(
        withQuery(`/products/${encodeURIComponent(id)}/movements`, { page, pageSize: MOVEMENTS_PAGE_SIZE }),
        { schema: MovementListResponse, signal },
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/**
 * Adjust or count, sent with the submit's Idempotency-Key. Both answer the product and the
 * movement, and both change every stock shown (lists, this product, its movements, the dashboard).
 */
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

/** The stock check is run on demand (it reads every product's ledger), not on opening the page. */
export function useStockCheck() {
  return useMutation({
    mutationFn: () => api('/stock/check', { schema: StockCheckResponse }),
    meta: { inlineErrors: true },
  });
}
