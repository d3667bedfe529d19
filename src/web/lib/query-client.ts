import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiRequestError, errorMessage } from './api';
import { notify } from './notify';

function isClientError(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status >= 400 && error.status < 500;
}

/** A 401 is handled by sending the user to the login page, not by a notification. */
function report(error: unknown) {
  if (error instanceof ApiRequestError && error.status === 401) return;
  notify.error(errorMessage(error));
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: report }),
    mutationCache: new MutationCache({
      // Forms show their errors next to their fields; they opt out with meta.inlineErrors.
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.inlineErrors) return;
        report(error);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) => !isClientError(error) && failures < 1,
      },
      mutations: { retry: false },
    },
  });
}
