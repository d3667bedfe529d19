import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { type CreditAdjustmentInput, CreditAdjustmentResponse, CreditResponse } from '../../../shared/till';
import { api } from '../../lib/api';
import { idempotencyKeys } from '../../lib/idempotency';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

/** Entries of a customer's store credit shown at once; the counter reads the same first page. */
export const CREDIT_PAGE_SIZE = 10;

const path = (id: string) => `/customers/${encodeURIComponent(id)}/credit`;

/**
 * One page of a customer's store credit: the balance and the entries, newest first (DESIGN §13).
 * The counter asks the first page for the balance only, so it shares the customer page's cache
 * entry; a sale or refund (which may spend or give credit) refreshes it, being under the sales.
 */
export const creditQuery = (id: string, page = 1) =>
  queryOptions({
    queryKey: queryKeys.customerCredit(id, page),
    queryFn: ({ signal }) =>
      api(withQuery(path(id), { page, pageSize: CREDIT_PAGE_SIZE }), { schema: CreditResponse, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/**
 * Admins: gives (+) or takes (−) store credit with a note. The same adjustment sent again after no
 * answer carries the same Idempotency-Key, so it counts once; every page of the history refreshes.
 */
export function useAdjustCredit(id: string) {
  const queryClient = useQueryClient();
  const keys = useRef(idempotencyKeys()).current;
  return useMutation({
    mutationFn: (input: CreditAdjustmentInput) =>
      api(path(id), {
        method: 'POST',
        body: input,
        schema: CreditAdjustmentResponse,
        idempotencyKey: keys.keyFor(input),
      }),
    meta: { inlineErrors: true },
    onSettled: (_answer, failure) => {
      keys.settled(failure);
      void queryClient.invalidateQueries({ queryKey: ['sales', 'credit', id] });
      void queryClient.invalidateQueries({ queryKey: queryKeys.customer(id) });
    },
  });
}
