import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type ExpiringQuery, ExpiringResponse, TraceResponse } from '../../../shared/lots';
import { api } from '../../lib/api';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

/** One page of the lots expiring within `days` (expired ones too), soonest first. */
export const expiringQuery = (query: ExpiringQuery) =>
  queryOptions({
    queryKey: queryKeys.expiringLots(query),
    queryFn: ({ signal }) => api(withQuery('/lots/expiring', query), { schema: ExpiringResponse, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** Every movement of one lot, oldest first: who got its units (DESIGN §15). */
export const lotTraceQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.lotTrace(id),
    queryFn: ({ signal }) => api(`/lots/${encodeURIComponent(id)}/trace`, { schema: TraceResponse, signal }),
    staleTime: 0,
  });
