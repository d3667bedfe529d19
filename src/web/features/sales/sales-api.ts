import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CustomerDetailResponse,
  type CustomerInput,
  CustomerListResponse,
  CustomerResponse,
} from '../../../shared/customers';
import { LotsResponse } from '../../../shared/lots';
import { type Product, ProductListResponse, ProductResponse } from '../../../shared/products';
import {
  type ReviewInput,
  ReviewListResponse,
  type ReviewQuery,
  ReviewResponse,
  type SaleInput,
  SaleListResponse,
  type SaleQuery,
  SaleResponse,
} from '../../../shared/sales';
import type { StoreSettings } from '../../../shared/store';
import { api } from '../../lib/api';
import { ApiRequestError, refusedAs } from '../../lib/api-error';
import type { IdempotencyKeys } from '../../lib/idempotency';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

/** The store's settings as the counter needs them (DESIGN §12): one shared, cached read. */
export type CounterStore = StoreSettings;
export { rereadStoreSettings, storeSettingsQuery } from '../../lib/store-settings';

/** Matches offered at once by the counter's product and customer searches. */
export const MATCHES_SIZE = 10;

/** Only active products (DESIGN §22): an inactive one is never offered, not even to an admin here. */
const productsQuery = (search: string) => ({
  search,
  active: 'true' as const,
  page: 1,
  pageSize: MATCHES_SIZE,
});

/** Products whose name has every word typed, or whose SKU or barcode is the text exactly. */
export const productMatchesQuery = (search: string) => {
  const query = productsQuery(search);
  return queryOptions({
    queryKey: queryKeys.productPage(query),
    queryFn: ({ signal }) => api(withQuery('/products', query), { schema: ProductListResponse, signal }),
    placeholderData: keepPreviousData,
  });
};

/**
 * The product a scanned code names (GET /products/code/:code: its barcode or SKU, exactly, by
 * index), or undefined when no product has it. Looked up at once, outside the cache: each scan
 * reads the stock as it is now, and a failure is shown by the search box, not as a notification.
 */
export async function lookUpCode(code: string): Promise<Product | undefined> {
  try {
    const answer = await api(`/products/code/${encodeURIComponent(code)}`, { schema: ProductResponse });
    return answer.product;
  } catch (error) {
    if (error instanceof ApiRequestError && (error.status === 404 || error.status === 400)) return undefined;
    throw error;
  }
}

/** Products named by the text, when it was not a code (see lookUpCode). */
export function lookUpProducts(search: string): Promise<Product[]> {
  return api(withQuery('/products', productsQuery(search)), { schema: ProductListResponse }).then(
    (answer) => answer.products,
  );
}

/**
 * The products of the cart as they are now (after a refused sale, or a cart kept from earlier):
 * those the server answered, and the ids it no longer knows (404). A product that could not be
 * read for another reason is in neither list, so its line keeps what it had.
 */
export async function readProducts(ids: readonly string[]): Promise<{ products: Product[]; gone: string[] }> {
  const answers = await Promise.allSettled(
    ids.map((id) => api(`/products/${encodeURIComponent(id)}`, { schema: ProductResponse })),
  );
  const products: Product[] = [];
  const gone: string[] = [];
  answers.forEach((answer, at) => {
    if (answer.status === 'fulfilled') products.push(answer.value.product);
    else if (answer.reason instanceof ApiRequestError && answer.reason.status === 404)
      gone.push(ids[at] ?? '');
  });
  return { products, gone };
}

/**
 * A lot-tracked product's lots with their units (DESIGN §15), for the cart line's preview of which
 * lots the sale takes. Cached a while: a sale refreshes them (it refreshes the products).
 */
export const productLotsQuery = (productId: string) =>
  queryOptions({
    queryKey: queryKeys.productLots(productId),
    queryFn: ({ signal }) =>
      api(`/products/${encodeURIComponent(productId)}/lots`, { schema: LotsResponse, signal }),
    staleTime: 30_000,
  });

export const customerMatchesQuery = (search: string) => {
  const query = { search, page: 1, pageSize: MATCHES_SIZE };
  return queryOptions({
    queryKey: queryKeys.customerPage(query),
    queryFn: ({ signal }) => api(withQuery('/customers', query), { schema: CustomerListResponse, signal }),
    placeholderData: keepPreviousData,
  });
};

/**
 * A sale's receipt. The one a sale just answered is shown as it came, not asked for again; only a
 * return changes a receipt, so one read a while ago is read again.
 */
export const saleQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.sale(id),
    queryFn: ({ signal }) => api(`/sales/${encodeURIComponent(id)}`, { schema: SaleResponse, signal }),
    staleTime: 30_000,
  });

/** One page of the sales view: every sale for an admin, a seller's own for the others. */
export const salesPageQuery = (query: SaleQuery) =>
  queryOptions({
    queryKey: queryKeys.salePage(query),
    queryFn: ({ signal }) => api(withQuery('/sales', query), { schema: SaleListResponse, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** One page of the offline sales to review (DESIGN §21), open or reviewed; admins only. */
export const reviewPageQuery = (query: ReviewQuery) =>
  queryOptions({
    queryKey: queryKeys.saleReviewPage(query),
    queryFn: ({ signal }) => api(withQuery('/sales/review', query), { schema: ReviewListResponse, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/**
 * Closes an offline sale's review with what was done about it (keyed: a retry after no answer is
 * answered once). Once closed, or when it was closed already (REVIEW_CLOSED), the lists are read
 * again, so the sale moves from Open to Reviewed.
 */
export function useCloseReview() {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.saleReviews });
  return useMutation({
    mutationFn: ({ id, input, key }: { id: string; input: ReviewInput; key: string }) =>
      api(`/sales/${encodeURIComponent(id)}/review`, {
        method: 'POST',
        body: input,
        schema: ReviewResponse,
        idempotencyKey: key,
      }),
    meta: { inlineErrors: true },
    onSuccess: refresh,
    onError: (error) => {
      if (refusedAs(error, 'REVIEW_CLOSED')) refresh();
    },
  });
}

/** Quick add at the counter: name and phone. */
export function useAddCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CustomerInput) =>
      api('/customers', { method: 'POST', body: input, schema: CustomerResponse }),
    meta: { inlineErrors: true },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.customers }),
  });
}

/** The customer a refused quick add named (the same name and phone), to sell to them instead. */
export function useExistingCustomer() {
  return useMutation({
    mutationFn: async (id: string) =>
      (await api(`/customers/${encodeURIComponent(id)}`, { schema: CustomerDetailResponse })).customer,
    meta: { inlineErrors: true },
  });
}

/**
 * Completes a sale. A retry of the same sale (after no answer) carries the same Idempotency-Key,
 * so the server makes it once; the counter hands in its keys to keep an unanswered one over a
 * reload. The receipt is remembered, and every list a sale changes refreshes.
 */
export function useCompleteSale(keys: IdempotencyKeys) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SaleInput) =>
      api('/sales', {
        method: 'POST',
        body: input,
        schema: SaleResponse,
        // The key is judged on the sale without the PIN: an unanswered submit is kept in the
        // browser (counter-drafts.ts), and a manager's PIN must not be.
        idempotencyKey: keys.keyFor(
          input.approval ? { ...input, approval: { email: input.approval.email } } : input,
        ),
      }),
    meta: { inlineErrors: true },
    onSuccess: (answer) => {
      keys.settled();
      queryClient.setQueryData(queryKeys.sale(answer.sale._id), answer);
    },
    onError: (error) => keys.settled(error),
    onSettled: () => {
      for (const queryKey of [
        queryKeys.products,
        queryKeys.orders,
        queryKeys.dashboard,
        queryKeys.customers,
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
      // The lists of sales; a receipt (the one just answered included) is not changed by a sale.
      void queryClient.invalidateQueries({
        queryKey: queryKeys.sales,
        predicate: (query) => query.queryKey[1] !== 'one',
      });
    },
  });
}
