import { queryOptions, useQuery } from '@tanstack/react-query';
import { LocationListResponse } from '../../shared/locations';
import { api } from './api';
import { queryKeys } from './query-keys';

/**
 * The store's locations (DESIGN §17), read once for every screen that names or picks one (the
 * products' and stock page's pickers, the dashboard, the counter, transfers, purchasing).
 */
export const locationsQuery = queryOptions({
  queryKey: queryKeys.locations,
  queryFn: ({ signal }) => api('/locations', { schema: LocationListResponse, signal }),
  staleTime: 60_000,
});

export function useLocations() {
  return useQuery(locationsQuery);
}
