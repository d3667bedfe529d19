import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type ImportCheckInput,
  type ImportFormat,
  type ImportListQuery,
  ImportListResponse,
  ImportMappingResponse,
  ImportResponse,
  type ImportRowsQuery,
  ImportRowsResponse,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
} from '../../../shared/imports';
import { ApiRequestError, api } from '../../lib/api';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';
import { formatBytes, importFileName } from './import-file';

/** How often an import being applied is asked for its progress. */
export const PROGRESS_POLL_MS = 1_000;
/** Checked rows shown per page. */
export const IMPORT_ROWS_PAGE_SIZE = 50;

const TOO_LARGE = `The file is larger than an import takes (${formatBytes(MAX_IMPORT_BYTES)} or ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows): split it into smaller files.`;

const path = (id: string, action = '') => `/imports/${encodeURIComponent(id)}${action}`;

/** One import; asked again every second while it is being applied. */
export const importQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.catalogueImport(id),
    queryFn: ({ signal }) => api(path(id), { schema: ImportResponse, signal }),
    refetchInterval: (query) => (query.state.data?.import.status === 'applying' ? PROGRESS_POLL_MS : false),
    staleTime: 0,
  });

/** How often the recent imports are asked again while one of them is being applied. */
export const LIST_POLL_MS = 2_000;
/** Recent imports shown per page on the upload step. */
export const IMPORT_LIST_PAGE_SIZE = 10;

/** The imports, newest first; asked again every 2 s while any of those shown is being applied. */
export const importListQuery = (query: ImportListQuery) =>
  queryOptions({
    queryKey: queryKeys.importList(query),
    queryFn: ({ signal }) => api(withQuery('/imports', query), { schema: ImportListResponse, signal }),
    refetchInterval: (q) =>
      q.state.data?.imports.some((item) => item.status === 'applying') ? LIST_POLL_MS : false,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** One page of the dry run's rows; the page shown stays while the next one loads. */
export const importRowsQuery = (id: string, query: ImportRowsQuery) =>
  queryOptions({
    queryKey: queryKeys.importRows(id, query),
    queryFn: ({ signal }) => api(withQuery(path(id, '/rows'), query), { schema: ImportRowsResponse, signal }),
    placeholderData: keepPreviousData,
  });

/** DESIGN §22: asks the mapping another layout suggests for the import's columns (nothing is written). */
export function useSuggestMapping(id: string) {
  return useMutation({
    mutationFn: (format: ImportFormat) =>
      api(withQuery(path(id, '/mapping'), { format }), { schema: ImportMappingResponse }),
    meta: { inlineErrors: true },
  });
}

/** The failed rows as the file had them, plus an Error column (the CSV button adds format=csv). */
export const importErrorsPath = (id: string) => path(id, '/errors');

/** The answer to a write: the import as it now is, shown at once. */
function useRemember() {
  const queryClient = useQueryClient();
  return (answer: ImportResponse) => {
    queryClient.setQueryData(queryKeys.catalogueImport(answer.import._id), answer);
  };
}

/** Sends the file as it is, with its Content-Type; the server answers the new import. */
export function useUploadImport() {
  const remember = useRemember();
  return useMutation({
    mutationFn: async ({ file, type }: { file: File; type: string }) => {
      try {
        return await api(withQuery('/imports/products', { fileName: importFileName(file.name) }), {
          method: 'POST',
          file: { data: file, type },
          schema: ImportResponse,
        });
      } catch (error) {
        // A limit met before the app could answer (a proxy's 413) comes without our sentence.
        if (error instanceof ApiRequestError && error.status === 413 && error.withoutSentence)
          throw new ApiRequestError(TOO_LARGE, 413);
        throw error;
      }
    },
    meta: { inlineErrors: true },
    onSuccess: remember,
  });
}

/** The dry run: nothing is written; the summary comes back and the rows are asked again. */
export function useCheckImport(id: string) {
  const remember = useRemember();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ImportCheckInput) =>
      api(path(id, '/check'), { method: 'POST', body: input, schema: ImportResponse }),
    meta: { inlineErrors: true },
    onSuccess: (answer) => {
      remember(answer);
      void queryClient.invalidateQueries({ queryKey: [...queryKeys.catalogueImport(id), 'rows'] });
    },
  });
}

/** Starts writing the checked rows in the background; the import then says how far it is. */
export function useApplyImport(id: string) {
  const remember = useRemember();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(path(id, '/apply'), { method: 'POST', schema: ImportResponse }),
    meta: { inlineErrors: true },
    onSuccess: remember,
    // A second apply (409, from another tab perhaps): show the import as it is now.
    onError: () => void queryClient.invalidateQueries({ queryKey: queryKeys.catalogueImport(id) }),
  });
}

/** Once an import has written products, every list of them is asked again. */
export function useProductsChanged() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.products });
    void queryClient.invalidateQueries({ queryKey: queryKeys.categories });
    void queryClient.invalidateQueries({ queryKey: queryKeys.suppliers });
    void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
  };
}
