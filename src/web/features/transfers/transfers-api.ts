import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { ProductResponse } from '../../../shared/products';
import {
  type ReceiveTransferInput,
  type Transfer,
  type TransferInput,
  TransferListResponse,
  type TransferQuery,
  TransferResponse,
} from '../../../shared/transfers';
import { ApiRequestError, api, errorMessage, refusedAs } from '../../lib/api';
import { withElsewhere } from '../../lib/api-error';
import { idempotencyKeys } from '../../lib/idempotency';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

export const TRANSFERS_PAGE_SIZE = 20;

const path = (id: string, action = '') => `/transfers/${encodeURIComponent(id)}${action}`;

/** One page of transfers, newest first; the page shown stays while the next one loads. */
export const transferPageQuery = (query: TransferQuery) =>
  queryOptions({
    queryKey: queryKeys.transferPage(query),
    queryFn: ({ signal }) => api(withQuery('/transfers', query), { schema: TransferListResponse, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const transferQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.transfer(id),
    queryFn: ({ signal }) => api(path(id), { schema: TransferResponse, signal }),
  });

/** One product as it is now: the form's prefilled line and a draft's lines need its tracking. */
export const productQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.product(id),
    queryFn: ({ signal }) => api(`/products/${encodeURIComponent(id)}`, { schema: ProductResponse, signal }),
  });

/** One key store per screen or dialog: a write retried after no answer keeps its key. */
export function useKeys() {
  return useRef(idempotencyKeys()).current;
}

/**
 * The server's sentence for a refused step; a line short at `from` adds where else the product is
 * held ("12 at Stockroom"), so the admin knows which transfer to make instead.
 */
export function refusalText(error: unknown): string {
  return refusedAs(error, 'SHORT_AT_LOCATION')
    ? withElsewhere(errorMessage(error), error)
    : errorMessage(error);
}

/** A changed transfer: shown at once, and every list of transfers asked again. */
function useRemember() {
  const queryClient = useQueryClient();
  return (transfer: Transfer) => {
    queryClient.setQueryData(queryKeys.transfer(transfer._id), { success: true as const, transfer });
    void queryClient.invalidateQueries({ queryKey: [...queryKeys.transfers, 'page'] });
  };
}

/**
 * After a refusal the transfer is fetched as it is now (someone else sent or received it); an
 * inactive location also refreshes the locations, so the pickers stop offering it.
 */
function useRefreshOnRefusal() {
  const queryClient = useQueryClient();
  return (error: unknown, id: string | null) => {
    if (id && error instanceof ApiRequestError && error.status === 409)
      void queryClient.invalidateQueries({ queryKey: queryKeys.transfer(id) });
    if (refusedAs(error, 'LOCATION_INACTIVE'))
      void queryClient.invalidateQueries({ queryKey: queryKeys.locations });
  };
}

/** Creates a draft (keyed: the server answers a retry once) or replaces a draft's content. */
export function useSaveTransfer() {
  const remember = useRemember();
  const refresh = useRefreshOnRefusal();
  return useMutation({
    mutationFn: ({ id, input, key }: { id: string | null; input: TransferInput; key: string }) =>
      id
        ? api(path(id), { method: 'PUT', body: input, schema: TransferResponse, idempotencyKey: key })
        : api('/transfers', { method: 'POST', body: input, schema: TransferResponse, idempotencyKey: key }),
    meta: { inlineErrors: true },
    onSuccess: (answer) => remember(answer.transfer),
    onError: (error, { id }) => refresh(error, id),
  });
}

/**
 * A step that moves stock or ends the transfer: send, receive, cancel (close once sent). Each
 * moves units in or out of a location, so every product list follows.
 */
function useStep<Body>(action: 'send' | 'receive' | 'cancel') {
  const queryClient = useQueryClient();
  const remember = useRemember();
  const refresh = useRefreshOnRefusal();
  return useMutation({
    mutationFn: ({ id, body, key }: { id: string; body?: Body; key: string }) =>
      api(path(id, `/${action}`), { method: 'POST', body, schema: TransferResponse, idempotencyKey: key }),
    meta: { inlineErrors: true },
    onSuccess: (answer) => remember(answer.transfer),
    onError: (error, { id }) => refresh(error, id),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: [...queryKeys.transfers, 'page'] });
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
    },
  });
}

export const useSendTransfer = () => useStep<undefined>('send');
export const useReceiveTransfer = () => useStep<ReceiveTransferInput>('receive');
export const useCancelTransfer = () => useStep<undefined>('cancel');
