import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ProductListResponse, type ProductQuery } from '../../../shared/products';
import { api } from '../../lib/api';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

/**
 * One page of the products to order. The page shown stays on screen while the next one loads.
 * (Features do not import each other, so this small query sits here as well as in the admin's
 * products feature; both share the products key.)
 */
export function useCataloguePage(query: ProductQuery) {
  return useQuery({
    queryKey: queryKeys.productPage(query),
    queryFn: ({ signal }) => api(withQuery('/products', query), { schema: ProductListResponse, signal }),
    placeholderData: keepPreviousData,
  });
}
