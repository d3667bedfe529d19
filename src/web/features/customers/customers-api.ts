import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { Message } from '../../../shared/common';
import {
  CustomerDetailResponse,
  type CustomerInput,
  CustomerListResponse,
  type CustomerQuery,
  CustomerResponse,
} from '../../../shared/customers';
import { SaleListResponse, type SaleQuery } from '../../../shared/sales';
import { api } from '../../lib/api';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

/** Purchases shown at once on a customer's page. */
export const PURCHASES_PAGE_SIZE = 20;

type CustomerDetail = z.infer<typeof CustomerDetailResponse>;

const path = (id: string) => `/customers/${encodeURIComponent(id)}`;

/** One page of customers; the page shown stays while the next one loads. */
export const customerPageQuery = (query: CustomerQuery) =>
  queryOptions({
    queryKey: queryKeys.customerPage(query),
    queryFn: ({ signal }) => api(withQuery('/customers', query), { schema: CustomerListResponse, signal }),
    placeholderData: keepPreviousData,
  });

/** A customer with what they bought; asked again each time, since sales and returns change it. */
export const customerQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.customer(id),
    queryFn: ({ signal }) => api(path(id), { schema: CustomerDetailResponse, signal }),
    staleTime: 0,
  });

/** One page of a customer's sales, newest first. */
export const customerSalesQuery = (id: string, page: number) => {
  const query: SaleQuery = { customer: id, page, pageSize: PURCHASES_PAGE_SIZE };
  return queryOptions({
    queryKey: queryKeys.customerSales(id, query),
    queryFn: ({ signal }) => api(withQuery('/sales', query), { schema: SaleListResponse, signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
};

/** Adds a customer (anyone who sells) or, with an id, edits one (admins). */
export function useSaveCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: CustomerInput }) =>
      id
        ? api(path(id), { method: 'PUT', body: input, schema: CustomerResponse })
        : api('/customers', { method: 'POST', body: input, schema: CustomerResponse }),
    meta: { inlineErrors: true },
    onSuccess: ({ customer }) => {
      queryClient.setQueryData(queryKeys.customer(customer._id), (detail: CustomerDetail | undefined) =>
        detail ? { ...detail, customer } : detail,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.customers });
    },
  });
}

/** Admins: deletes a customer; their sales keep the name they were sold under. */
export function useDeleteCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(path(id), { method: 'DELETE', schema: Message }),
    onSuccess: (_answer, id) => {
      // The row leaves at once; the refetch then fills the page up again from the next one.
      queryClient.setQueriesData<CustomerListResponse>({ queryKey: queryKeys.customerPages }, (list) => {
        if (!list?.customers.some((customer) => customer._id === id)) return list;
        return {
          ...list,
          customers: list.customers.filter((customer) => customer._id !== id),
          total: Math.max(0, list.total - 1),
        };
      });
      queryClient.removeQueries({ queryKey: queryKeys.customer(id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.customerPages });
    },
  });
}
