import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type LocationInput, LocationResponse, type LocationUpdate } from '../../../shared/locations';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

/**
 * Admins: a new location, or one changed, deactivated or reactivated (DESIGN §17). Every screen
 * that names a location reads the one list (useLocations), so each write refreshes it, and the
 * store settings and registers that name a location by its name.
 */
export function useSaveLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: LocationInput | LocationUpdate }) =>
      id === null
        ? api('/locations', { method: 'POST', body: input, schema: LocationResponse })
        : api(`/locations/${encodeURIComponent(id)}`, {
            method: 'PUT',
            body: input,
            schema: LocationResponse,
          }),
    meta: { inlineErrors: true },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.locations });
      void queryClient.invalidateQueries({ queryKey: queryKeys.registers });
      void queryClient.invalidateQueries({ queryKey: queryKeys.storeSettings });
    },
  });
}
