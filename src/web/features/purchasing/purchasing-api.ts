import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import {
  type DraftFromSuggestionsInput,
  DraftPurchaseOrdersResponse,
  type PurchaseOrder,
  type PurchaseOrderInput,
  PurchaseOrderListResponse,
  type PurchaseOrderQuery,
  PurchaseOrderResponse,
  type ReceiveInput,
  ReorderSuggestionsResponse,
} from '../../../shared/purchasing';
import { SupplierListResponse } from '../../../shared/suppliers';
import { ApiRequestError, api } from '../../lib/api';
import { idempotencyKeys } from '../../lib/idempotency';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

export const PURCHASE_ORDERS_PAGE_SIZE = 20;

const path = (id: string, action = '') => `/purchase-orders/${encodeURIComponent(id)}${action}`;

/** One page of purchase orders, newest first; the page shown stays while the next one loads. */
export const purchaseOrderPageQuery = (query: PurchaseOrderQuery) =>
  queryOptions({
    queryKey: queryKeys.purchaseOrderPage(query),
    queryFn: ({ signal }) =>
      api(withQuery('/purchase-orders', query), { schema: PurchaseOrderListResponse, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const purchaseOrderQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.purchaseOrder(id),
    queryFn: ({ signal }) => api(path(id), { schema: PurchaseOrderResponse, signal }),
  });

/**
 * Every sale and receipt changes them, so they are asked again each time the screen opens. With
 * a location's id, judged there, with transfer suggestions (DESIGN §17); '' for the whole store.
 */
export const reorderSuggestionsQuery = (location = '') =>
  queryOptions({
    queryKey: [...queryKeys.reorderSuggestions, { location }],
    queryFn: ({ signal }) =>
      api(withQuery('/reorder-suggestions', { location: location || undefined }), {
        schema: ReorderSuggestionsResponse,
        signal,
      }),
    staleTime: 0,
  });

/** The suppliers with their addresses, for the printable purchase order. */
export const suppliersQuery = () =>
  queryOptions({
    queryKey: queryKeys.suppliers,
    queryFn: ({ signal }) => api('/supplier', { schema: SupplierListResponse, signal }),
  });

/** One key store per screen or dialog: a write retried after no answer keeps its key. */
export function useKeys() {
  return useRef(idempotencyKeys()).current;
}

/** A changed purchase order: shown at once, and the lists and suggestions asked again. */
function useRemember() {
  const queryClient = useQueryClient();
  return (purchaseOrder: PurchaseOrder) => {
    queryClient.setQueryData(queryKeys.purchaseOrder(purchaseOrder._id), {
      success: true as const,
      purchaseOrder,
    });
    void queryClient.invalidateQueries({ queryKey: [...queryKeys.purchaseOrders, 'page'] });
    void queryClient.invalidateQueries({ queryKey: queryKeys.reorderSuggestions });
  };
}

/** After a refusal (409: someone else changed it) the purchase order is fetched as it is now. */
function useRefreshOn409() {
  const queryClient = useQueryClient();
  return (error: unknown, id: string | null) => {
    if (id && error instanceof ApiRequestError && error.status === 409)
      void queryClient.invalidateQueries({ queryKey: queryKeys.purchaseOrder(id) });
  };
}

/** Creates a draft (keyed, the server answers a retry once) or replaces a draft's content. */
export function useSavePurchaseOrder() {
  const remember = useRemember();
  const refresh = useRefreshOn409();
  return useMutation({
    mutationFn: ({ id, input, key }: { id: string | null; input: PurchaseOrderInput; key: string }) =>
      id
        ? api(path(id), { method: 'PUT', body: input, schema: PurchaseOrderResponse })
        : api('/purchase-orders', {
            method: 'POST',
            body: input,
            schema: PurchaseOrderResponse,
            idempotencyKey: key,
          }),
    meta: { inlineErrors: true },
    onSuccess: (answer) => remember(answer.purchaseOrder),
    onError: (error, { id }) => refresh(error, id),
  });
}

/** Draft → ordered, or cancel (closed once something was received). */
export function useChangeStatus(action: 'order' | 'cancel') {
  const remember = useRemember();
  const refresh = useRefreshOn409();
  return useMutation({
    mutationFn: ({ id, key }: { id: string; key: string }) =>
      api(path(id, `/${action}`), { method: 'POST', schema: PurchaseOrderResponse, idempotencyKey: key }),
    meta: { inlineErrors: true },
    onSuccess: (answer) => remember(answer.purchaseOrder),
    onError: (error, { id }) => refresh(error, id),
  });
}

/** Receiving adds stock and changes costs: every product list and the dashboard follow. */
export function useReceive(id: string) {
  const queryClient = useQueryClient();
  const remember = useRemember();
  const refresh = useRefreshOn409();
  return useMutation({
    mutationFn: ({ input, key }: { input: ReceiveInput; key: string }) =>
      api(path(id, '/receive'), {
        method: 'POST',
        body: input,
        schema: PurchaseOrderResponse,
        idempotencyKey: key,
      }),
    meta: { inlineErrors: true },
    onSuccess: (answer) => remember(answer.purchaseOrder),
    onError: (error) => refresh(error, id),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
    },
  });
}

export function useDraftFromSuggestions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: DraftFromSuggestionsInput; key: string }) =>
      api('/reorder-suggestions/draft', {
        method: 'POST',
        body: input,
        schema: DraftPurchaseOrdersResponse,
        idempotencyKey: key,
      }),
    meta: { inlineErrors: true },
    // The suggestions name each supplier's draft: asked again after a draft, or a refusal naming one.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.purchaseOrders });
      void queryClient.invalidateQueries({ queryKey: queryKeys.reorderSuggestions });
    },
  });
}
