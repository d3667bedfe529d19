import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { Ok } from '../../../shared/common';
import {
  type ItemInput,
  ItemListResponse,
  type ItemQuery,
  ItemResponse,
  type ItemUpdateInput,
  type VariantInput,
} from '../../../shared/items';
import { api } from '../../lib/api';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

export const ITEMS_PAGE_SIZE = 20;

const path = (id: string, action = '') => `/items/${encodeURIComponent(id)}${action}`;

/** One page of items by name, each with its variants; the page shown stays while the next loads. */
export const itemPageQuery = (query: ItemQuery) =>
  queryOptions({
    queryKey: queryKeys.itemPage(query),
    queryFn: ({ signal }) => api(withQuery('/items', query), { schema: ItemListResponse, signal }),
    placeholderData: keepPreviousData,
  });

/** One item with its options and variants. */
export const itemQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.item(id),
    queryFn: ({ signal }) => api(path(id), { schema: ItemResponse, signal }),
  });

/** What a save sends: a new item at once with its variants, or an edit and the variants it adds. */
export type ItemSave =
  | { id: null; input: ItemInput }
  | { id: string; input: ItemUpdateInput; variants: VariantInput[] };

/**
 * A new item is one POST /items; an edit is PUT /items/:id, then one POST …/variants per new
 * combination, in order (a refusal stops there: the variants before it are made, and the item is
 * read again so the screen shows them).
 */
export function useSaveItem() {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.products });
  return useMutation({
    mutationFn: async (save: ItemSave) => {
      if (save.id === null) return api('/items', { method: 'POST', body: save.input, schema: ItemResponse });
      const answer = await api(path(save.id), { method: 'PUT', body: save.input, schema: ItemResponse });
      for (const variant of save.variants)
        await api(path(save.id, '/variants'), { method: 'POST', body: variant, schema: Ok });
      return answer;
    },
    meta: { inlineErrors: true },
    onSettled: refresh,
  });
}
