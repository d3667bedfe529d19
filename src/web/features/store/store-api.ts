import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Ok } from '../../../shared/common';
import {
  type StoreSettingsInput,
  StoreSettingsResponse,
  type TaxRateInput,
  type TaxRateListResponse,
  TaxRateResponse,
} from '../../../shared/store';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

/** The reads (useStoreSettings, useTaxRates) live in lib/store-settings: every screen writes money. */
export { useStoreSettings, useTaxRates } from '../../lib/store-settings';

export function useSaveStoreSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StoreSettingsInput) =>
      api('/settings/store', { method: 'PUT', body: input, schema: StoreSettingsResponse }),
    meta: { inlineErrors: true },
    onSuccess: (answer) => {
      // Every screen's money follows the new currency at once.
      queryClient.setQueryData(queryKeys.storeSettings, answer);
      // A new default rate is the rate in force of every product without its own.
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
    },
  });
}

export function useSaveTaxRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: TaxRateInput }) =>
      id
        ? api(`/tax-rates/${encodeURIComponent(id)}`, { method: 'PUT', body: input, schema: TaxRateResponse })
        : api('/tax-rates', { method: 'POST', body: input, schema: TaxRateResponse }),
    meta: { inlineErrors: true },
    onSuccess: () => {
      // The store's default and the products' rates in force carry the rate's name and percent.
      void queryClient.invalidateQueries({ queryKey: queryKeys.storeSettings });
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
    },
  });
}

export function useDeleteTaxRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/tax-rates/${encodeURIComponent(id)}`, { method: 'DELETE', schema: Ok }),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<TaxRateListResponse>(queryKeys.taxRates, (list) =>
        list ? { ...list, taxRates: list.taxRates.filter((rate) => rate._id !== id) } : list,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.taxRates });
    },
  });
}
