import { queryOptions, useQuery } from '@tanstack/react-query';
import { ProductChoicesResponse } from '../../shared/products';
import { api } from './api';
import { queryKeys } from './query-keys';

/**
 * The categories and suppliers a product can be given, fetched once for a screen rather than with
 * every page of products. It sits under the products key, so a change to categories, suppliers or
 * products refreshes it too.
 */
export const productChoicesQuery = queryOptions({
  queryKey: queryKeys.productChoices,
  queryFn: ({ signal }) => api('/products/choices', { schema: ProductChoicesResponse, signal }),
});

export function useProductChoices() {
  return useQuery(productChoicesQuery);
}
