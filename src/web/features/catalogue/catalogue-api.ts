import { keepPreviousData, type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { ProductListResponse, type ProductQuery } from '../../../shared/products';
import { api } from '../../lib/api';
import { pageIn } from '../../lib/list-address';
import { PAGE_SIZE, withQuery } from '../../lib/paging';
import { productChoicesQuery } from '../../lib/product-choices';
import { queryKeys } from '../../lib/query-keys';
import { storeSettingsQuery } from '../../lib/store-settings';

/** The page of products the catalogue shows at an address (`?q=pen&category=c1&page=2`). */
export function catalogueQueryAt(params: URLSearchParams): ProductQuery {
  return {
    search: (params.get('q') ?? '').trim() || undefined,
    category: params.get('category') || undefined,
    page: pageIn(params),
    pageSize: PAGE_SIZE,
  };
}

/**
 * One page of the products to order. (Features do not import each other, so this small query
 * sits here as well as in the admin's products feature; both share the products key.)
 */
export function cataloguePageQuery(query: ProductQuery) {
  return queryOptions({
    queryKey: queryKeys.productPage(query),
    queryFn: ({ signal }) => api(withQuery('/products', query), { schema: ProductListResponse, signal }),
    // A failed load is shown with Try again, not asked again on arrival: the route asked already.
    retryOnMount: false,
  });
}

/** The page shown stays on screen while the next one loads. */
export function useCataloguePage(query: ProductQuery) {
  return useQuery({ ...cataloguePageQuery(query), placeholderData: keepPreviousData });
}

/**
 * Everything the catalogue shows at `url`, asked for while its code is still on the way (the
 * route calls this): the page of products, the categories to filter by and the store's currency.
 */
export function prefetchCatalogue(client: QueryClient, url: URL) {
  void client.prefetchQuery(cataloguePageQuery(catalogueQueryAt(url.searchParams)));
  void client.prefetchQuery(productChoicesQuery);
  void client.prefetchQuery(storeSettingsQuery);
}
