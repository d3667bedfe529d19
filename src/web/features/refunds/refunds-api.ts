import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { refundDue, toCents } from '../../../shared/money';
import { type Sale, SaleResponse } from '../../../shared/sales';
import { type PaymentMethod, type RefundInput, RefundResponse } from '../../../shared/till';
import { api } from '../../lib/api';
import { ApiRequestError } from '../../lib/api-error';
import type { IdempotencyKeys } from '../../lib/idempotency';
import { queryKeys } from '../../lib/query-keys';

type SaleLine = Sale['lines'][number];

/**
 * The receipt a number names (GET /sales/by-number/:number), or null when there is none: a
 * number nobody sold under is an answer the refund screen shows in its own words, not a failure
 * to notify. Kept under the sales, so a refund (or any sale) refreshes it.
 */
export const saleByNumberQuery = (number: number) =>
  queryOptions({
    queryKey: [...queryKeys.sales, 'by-number', number] as const,
    queryFn: async ({ signal }) => {
      try {
        return (await api(`/sales/by-number/${number}`, { schema: SaleResponse, signal })).sale;
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 404) return null;
        throw error;
      }
    },
    staleTime: 0,
  });

/** A refund's receipt. A refund never changes once made, so one read lasts. */
export const refundQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.refund(id),
    queryFn: ({ signal }) => api(`/refunds/${encodeURIComponent(id)}`, { schema: RefundResponse, signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The units of a line that may still come back: sold less what came back already. */
export function leftOf(line: SaleLine): number {
  return Math.max(0, line.quantity - line.returnedQuantity);
}

/**
 * What refunding `quantity` more units of a line gives back, in cents: the server's own rule
 * (refundDue, DESIGN §12's pro rata), so the preview is what the refund will be, to the cent.
 */
export function lineRefundCents(line: SaleLine, quantity: number): bigint {
  if (quantity <= 0) return 0n;
  return refundDue(
    toCents(line.total),
    line.quantity,
    line.returnedQuantity + quantity,
    toCents(line.returnedTotal),
  );
}

/**
 * How the money may go back (DESIGN §13): the sale's own payment methods, in the order it was
 * paid, and store credit when the sale has a customer still on file.
 */
export function refundMethods(sale: Sale): PaymentMethod[] {
  const methods: PaymentMethod[] = [];
  for (const payment of sale.payments) {
    if (!methods.includes(payment.method)) methods.push(payment.method);
  }
  // A sale listing no payments (made before split payments) was paid by its one method.
  if (methods.length === 0 && sale.payment.method !== 'split') methods.push(sale.payment.method);
  if (sale.customer?._id && !methods.includes('storeCredit')) methods.push('storeCredit');
  return methods;
}

/**
 * Makes a refund. A retry of the same refund (after no answer) carries the same Idempotency-Key,
 * so the server makes it once. The refund's receipt is remembered, and everything a refund
 * changes refreshes: the sale, its lists and session, stock, orders, the customer's credit.
 */
export function useMakeRefund(saleId: string, keys: IdempotencyKeys) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RefundInput) =>
      api(`/sales/${encodeURIComponent(saleId)}/refunds`, {
        method: 'POST',
        body: input,
        schema: RefundResponse,
        idempotencyKey: keys.keyFor(input),
      }),
    meta: { inlineErrors: true },
    onSuccess: (answer) => {
      keys.settled();
      queryClient.setQueryData(queryKeys.refund(answer.refund._id), answer);
    },
    onError: (error) => keys.settled(error),
    onSettled: () => {
      // The sales (this sale's receipt, its lists, its session, the customer's credit), but not
      // the refunds' receipts under them: a refund never changes.
      void queryClient.invalidateQueries({
        queryKey: queryKeys.sales,
        predicate: (query) => query.queryKey[1] !== 'refunds',
      });
      for (const queryKey of [
        queryKeys.products,
        queryKeys.orders,
        queryKeys.dashboard,
        queryKeys.customers,
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
