import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { AccountsResponse } from '../../../shared/accounting';
import {
  type AllocateInput,
  type Bill,
  type BillInput,
  BillListResponse,
  type BillQuery,
  BillResponse,
  PAYABLE_STATUSES,
  type SupplierPaymentInput,
  SupplierPaymentListResponse,
  SupplierPaymentResponse,
} from '../../../shared/bills';
import { Message } from '../../../shared/common';
import { MAX_PAGE_SIZE } from '../../../shared/paging';
import { PurchaseOrderResponse } from '../../../shared/purchasing';
import { SupplierListResponse } from '../../../shared/suppliers';
import { SessionListResponse } from '../../../shared/till';
import { ApiRequestError, api } from '../../lib/api';
import { idempotencyKeys } from '../../lib/idempotency';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

/**
 * Suppliers' bills and payments (DESIGN §20). Every write here moves the books (2000, 2100, 1400,
 * the bank or a drawer) and what a purchase order has billed, so each one refreshes those too.
 */

export const BILLS_PAGE_SIZE = 20;

const billPath = (id: string, action = '') => `/bills/${encodeURIComponent(id)}${action}`;

/** One page of bills, overdue first; the page shown stays while the next one loads. */
export const billPageQuery = (query: BillQuery) =>
  queryOptions({
    queryKey: queryKeys.billPage(query),
    queryFn: ({ signal }) => api(withQuery('/bills', query), { schema: BillListResponse, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** One bill with its lines and the payments allocated to it. */
export const billQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.bill(id),
    queryFn: ({ signal }) => api(billPath(id), { schema: BillResponse, signal }),
    staleTime: 0,
  });

/**
 * A supplier's bills that are owed (posted or part paid), most overdue first: the two statuses
 * asked side by side, a page of the most the server gives each.
 */
export const payableBillsQuery = (supplier: string) =>
  queryOptions({
    queryKey: [...queryKeys.bills, 'payable', supplier] as const,
    queryFn: async ({ signal }) => {
      const answers = await Promise.all(
        PAYABLE_STATUSES.map((status) =>
          api(withQuery('/bills', { supplier, status, pageSize: MAX_PAGE_SIZE }), {
            schema: BillListResponse,
            signal,
          }),
        ),
      );
      const bills = answers.flatMap((answer) => answer.bills).sort(owedFirst);
      const total = answers.reduce((sum, answer) => sum + answer.total, 0);
      return { bills, total };
    },
    staleTime: 0,
  });

/** The list's order: most days overdue first, then the earliest due, then the oldest bill. */
export function owedFirst(a: Bill, b: Bill): number {
  return (
    b.overdueDays - a.overdueDays ||
    a.dueDate.localeCompare(b.dueDate) ||
    a.date.localeCompare(b.date) ||
    a.number.localeCompare(b.number)
  );
}

/** A supplier's payments with some of their amount not allocated yet: the credit they hold. */
export const creditPaymentsQuery = (supplier: string) =>
  queryOptions({
    queryKey: queryKeys.supplierPayments(supplier),
    queryFn: ({ signal }) =>
      api(withQuery('/supplier-payments', { supplier, unallocated: 'true', pageSize: MAX_PAGE_SIZE }), {
        schema: SupplierPaymentListResponse,
        signal,
      }),
    staleTime: 0,
  });

/** The suppliers (the same read as the Suppliers screen's). */
export const suppliersQuery = queryOptions({
  queryKey: queryKeys.suppliers,
  queryFn: ({ signal }) => api('/supplier', { schema: SupplierListResponse, signal }),
});

/** The chart of accounts, under the books' key: a bill line's account is picked from it. */
export const accountsQuery = queryOptions({
  queryKey: ['accounting', '/accounting/accounts'] as const,
  queryFn: ({ signal }) => api('/accounting/accounts', { schema: AccountsResponse, signal }),
  staleTime: 0,
});

/** The tills open now: cash for a supplier may come out of one of their drawers. */
export const openSessionsQuery = queryOptions({
  queryKey: [...queryKeys.sessions, 'open-for-payments'] as const,
  queryFn: ({ signal }) =>
    api(withQuery('/register-sessions', { status: 'open', pageSize: MAX_PAGE_SIZE }), {
      schema: SessionListResponse,
      signal,
    }),
  staleTime: 0,
});

/** A purchase order, to bill what it received and has not billed (read fresh: its `billed` moves). */
export const purchaseOrderQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.purchaseOrder(id),
    queryFn: ({ signal }) =>
      api(`/purchase-orders/${encodeURIComponent(id)}`, { schema: PurchaseOrderResponse, signal }),
    staleTime: 0,
  });

/** One key store per screen or dialog: a write retried after no answer keeps its key. */
export function useKeys() {
  return useRef(idempotencyKeys()).current;
}

/** What a bill or a payment changes: the bills, the purchase orders' billed units, the books, the drawers. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    for (const queryKey of [queryKeys.bills, queryKeys.purchaseOrders, ['accounting'], queryKeys.sessions])
      void queryClient.invalidateQueries({ queryKey });
  };
}

/** A bill as the server answered it: shown at once, and the rest asked again. */
function useRemember() {
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  return (bill: Bill) => {
    queryClient.setQueryData(queryKeys.bill(bill._id), { success: true as const, bill });
    refresh();
  };
}

/** After a 409 (someone changed the bill meanwhile) the bill is asked again as it is now. */
function useRefreshOn409() {
  const queryClient = useQueryClient();
  return (error: unknown, id: string | null) => {
    if (id && error instanceof ApiRequestError && error.status === 409)
      void queryClient.invalidateQueries({ queryKey: queryKeys.bill(id) });
  };
}

/** A new draft (keyed: a retry is answered once), or a draft's content replaced. */
export function useSaveBill() {
  const remember = useRemember();
  const refresh = useRefreshOn409();
  return useMutation({
    mutationFn: ({ id, input, key }: { id: string | null; input: BillInput; key: string }) =>
      id
        ? api(billPath(id), { method: 'PUT', body: input, schema: BillResponse })
        : api('/bills', { method: 'POST', body: input, schema: BillResponse, idempotencyKey: key }),
    meta: { inlineErrors: true },
    onSuccess: (answer) => remember(answer.bill),
    onError: (error, { id }) => refresh(error, id),
  });
}

/** Posts a draft (its entry dated the bill's date) or voids a posted bill with nothing paid. */
export function useBillAction(action: 'post' | 'void') {
  const remember = useRemember();
  const refresh = useRefreshOn409();
  return useMutation({
    mutationFn: ({ id, key }: { id: string; key: string }) =>
      api(billPath(id, `/${action}`), { method: 'POST', schema: BillResponse, idempotencyKey: key }),
    meta: { inlineErrors: true },
    onSuccess: (answer) => remember(answer.bill),
    onError: (error, { id }) => refresh(error, id),
  });
}

/** Deletes a draft (nothing was posted for it). */
export function useDeleteBill() {
  const queryClient = useQueryClient();
  const refresh = useRefreshOn409();
  return useMutation({
    mutationFn: (id: string) => api(billPath(id), { method: 'DELETE', schema: Message }),
    meta: { inlineErrors: true },
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: queryKeys.bill(id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.bills });
    },
    onError: (error, id) => refresh(error, id),
  });
}

/** Pays a supplier, allocating the payment to bills; what is not allocated stays as their credit. */
export function usePaySupplier() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ input, key }: { input: SupplierPaymentInput; key: string }) =>
      api('/supplier-payments', {
        method: 'POST',
        body: input,
        schema: SupplierPaymentResponse,
        idempotencyKey: key,
      }),
    meta: { inlineErrors: true },
    onSettled: refresh,
  });
}

/** Allocates a payment's credit to open bills of its supplier. */
export function useAllocate() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, input, key }: { id: string; input: AllocateInput; key: string }) =>
      api(`/supplier-payments/${encodeURIComponent(id)}/allocate`, {
        method: 'POST',
        body: input,
        schema: SupplierPaymentResponse,
        idempotencyKey: key,
      }),
    meta: { inlineErrors: true },
    onSettled: refresh,
  });
}
