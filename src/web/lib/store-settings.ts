import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { StoreSettingsResponse, TaxRateListResponse } from '../../shared/store';
import { api } from './api';
import { formatMoney } from './format';
import { queryKeys } from './query-keys';

/** The store changes seldom (an admin's save refreshes it at once), so a read stays fresh a while. */
const STORE_FRESH_MS = 5 * 60_000;

/** The store's settings (DESIGN §12), one cached read shared by every screen. */
export const storeSettingsQuery = queryOptions({
  queryKey: queryKeys.storeSettings,
  queryFn: ({ signal }) => api('/settings/store', { schema: StoreSettingsResponse, signal }),
  staleTime: STORE_FRESH_MS,
});

export function useStoreSettings() {
  return useQuery(storeSettingsQuery);
}

/**
 * Reads the store's settings again into the one cached read, for a screen that must not price
 * with old ones (the counter). Quietly: a failed read keeps what is there, with no notification
 * every time while the network is down.
 */
export async function rereadStoreSettings(client: QueryClient): Promise<void> {
  const answer = await api('/settings/store', { schema: StoreSettingsResponse }).catch(() => null);
  if (answer) client.setQueryData(storeSettingsQuery.queryKey, answer);
}

/** The tax rates, by name: the product form's choices and the admin's list. */
export const taxRatesQuery = queryOptions({
  queryKey: queryKeys.taxRates,
  queryFn: ({ signal }) => api('/tax-rates', { schema: TaxRateListResponse, signal }),
  staleTime: STORE_FRESH_MS,
});

export function useTaxRates() {
  return useQuery(taxRatesQuery);
}

/** The store's currency; USD (the store's own default) until its settings have loaded. */
export function useCurrency(): string {
  return useStoreSettings().data?.store.currency ?? 'USD';
}

/** A money formatter in the store's currency: `const money = useMoney(); money(12.5)`. */
export function useMoney(): (value: number) => string {
  const currency = useCurrency();
  return useCallback((value: number) => formatMoney(value, currency), [currency]);
}
