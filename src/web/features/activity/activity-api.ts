import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { AuditActorsResponse, AuditListResponse, type AuditQuery } from '../../../shared/audit';
import { api } from '../../lib/api';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

/**
 * One page of the audit log. Any screen's change adds entries, so the log is asked again each
 * time the screen opens (staleTime 0); the page shown stays while the next one loads.
 */
export const auditPageQuery = (query: AuditQuery) =>
  queryOptions({
    queryKey: queryKeys.auditPage(query),
    queryFn: ({ signal }) => api(withQuery('/audit', query), { schema: AuditListResponse, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** Everyone who appears in the log as the one who acted, for the "who" filter. */
export const auditActorsQuery = () =>
  queryOptions({
    queryKey: queryKeys.auditActors,
    queryFn: ({ signal }) => api('/audit/actors', { schema: AuditActorsResponse, signal }),
    staleTime: 0,
  });
