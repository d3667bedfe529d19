import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { CategoryListResponse } from '../../../shared/categories';
import { MAX_PAGE_SIZE } from '../../../shared/paging';
import {
  type CountInput,
  CountsResponse,
  PostStocktakeResponse,
  type StocktakeInput,
  type StocktakeLine,
  type StocktakeLinesQuery,
  StocktakeLinesResponse,
  StocktakeListResponse,
  type StocktakeQuery,
  StocktakeResponse,
} from '../../../shared/stocktakes';
import { api } from '../../lib/api';
import { idempotencyKeys } from '../../lib/idempotency';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

export const STOCKTAKES_PAGE_SIZE = 20;
/** Lines per page on the count screen and in the review's differences. */
export const LINES_PAGE_SIZE = 50;

const path = (id: string, action = '') => `/stocktakes/${encodeURIComponent(id)}${action}`;

/** The count sheet's CSV (DESIGN §18: Name, SKU, Barcode, Lot, Expiry, Counted), an API path. */
export const sheetCsvPath = (id: string) => `${path(id, '/lines')}?format=csv`;

/** One page of stocktakes, newest first; the page shown stays while the next one loads. */
export const stocktakePageQuery = (query: StocktakeQuery) =>
  queryOptions({
    queryKey: queryKeys.stocktakePage(query),
    queryFn: ({ signal }) => api(withQuery('/stocktakes', query), { schema: StocktakeListResponse, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** One stocktake (with its summary for an admin). */
export const stocktakeQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.stocktake(id),
    queryFn: ({ signal }) => api(path(id), { schema: StocktakeResponse, signal }),
  });

/** A page of a stocktake's lines: searched, counted or not, the differences only. */
export const stocktakeLinesQuery = (id: string, query: StocktakeLinesQuery) =>
  queryOptions({
    queryKey: queryKeys.stocktakeLines(id, query),
    queryFn: ({ signal }) =>
      api(withQuery(path(id, '/lines'), query), { schema: StocktakeLinesResponse, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** Every line of a stocktake, a page at a time (the printable sheet lists them all). */
export const stocktakeSheetQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.stocktakeSheet(id),
    queryFn: async ({ signal }) => {
      const lines: StocktakeLine[] = [];
      for (let page = 1; ; page++) {
        const answer = await api(withQuery(path(id, '/lines'), { page, pageSize: MAX_PAGE_SIZE }), {
          schema: StocktakeLinesResponse,
          signal,
        });
        lines.push(...answer.lines);
        if (answer.lines.length === 0 || lines.length >= answer.total) return lines;
      }
    },
  });

/** The categories a stocktake's scope may name. */
export const categoriesQuery = queryOptions({
  queryKey: queryKeys.categories,
  queryFn: ({ signal }) => api('/category', { schema: CategoryListResponse, signal }),
});

/** One key store per screen or dialog: a write retried after no answer keeps its key. */
export function useKeys() {
  return useRef(idempotencyKeys()).current;
}

/** A stocktake changed: shown at once, its lines and every list asked again. */
function useRefresh() {
  const queryClient = useQueryClient();
  return (id: string) => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.stocktake(id) });
    void queryClient.invalidateQueries({ queryKey: [...queryKeys.stocktakes, 'page'] });
  };
}

export function useCreateStocktake() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: StocktakeInput; key: string }) =>
      api('/stocktakes', { method: 'POST', body: input, schema: StocktakeResponse, idempotencyKey: key }),
    meta: { inlineErrors: true },
    onSuccess: (answer) => {
      queryClient.setQueryData(queryKeys.stocktake(answer.stocktake._id), answer);
      void queryClient.invalidateQueries({ queryKey: [...queryKeys.stocktakes, 'page'] });
    },
  });
}

/** Counts sent as JSON (a scan, a typed quantity) or a filled sheet as CSV; the lines follow. */
export function useCount(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ counts, sheet, key }: { counts?: CountInput[]; sheet?: Blob; key: string }) =>
      api(path(id, '/counts'), {
        method: 'POST',
        ...(sheet ? { file: { data: sheet, type: 'text/csv' } } : { body: { counts } }),
        schema: CountsResponse,
        idempotencyKey: key,
      }),
    meta: { inlineErrors: true },
    onSettled: () => refresh(id),
  });
}

/** Post (uncounted lines kept or zeroed) or cancel: stock moves, so the products follow too. */
export function usePostStocktake(id: string) {
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ uncounted, key }: { uncounted: 'keep' | 'zero'; key: string }) =>
      api(path(id, '/post'), {
        method: 'POST',
        body: { uncounted },
        schema: PostStocktakeResponse,
        idempotencyKey: key,
      }),
    meta: { inlineErrors: true },
    onSettled: () => {
      refresh(id);
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
    },
  });
}

export function useCancelStocktake(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ key }: { key: string }) =>
      api(path(id, '/cancel'), { method: 'POST', schema: StocktakeResponse, idempotencyKey: key }),
    meta: { inlineErrors: true },
    onSettled: () => refresh(id),
  });
}
