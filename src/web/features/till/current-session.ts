import { useQuery } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { type RegisterSession, SessionListResponse } from '../../../shared/till';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';

/** Where this device remembers which register (till) it sells on. */
const REGISTER_KEY = 'ims.till.register';
const listeners = new Set<() => void>();

function readRegister(): string | null {
  try {
    return window.localStorage.getItem(REGISTER_KEY);
  } catch {
    return null;
  }
}

/** This device's register: chosen once, kept across reloads (DESIGN §13). */
export function useDeviceRegister(): [string | null, (id: string | null) => void] {
  const register = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    readRegister,
    () => null,
  );
  const choose = useCallback((id: string | null) => {
    try {
      if (id === null) window.localStorage.removeItem(REGISTER_KEY);
      else window.localStorage.setItem(REGISTER_KEY, id);
    } catch {
      // Private browsing: the choice lasts until the page is left.
    }
    for (const listener of listeners) listener();
  }, []);
  return [register, choose];
}

/**
 * The open session of this device's register, if any: what the counter sells in, what a cash
 * refund pays out of. `session` is null when the register has none open (or none is chosen).
 */
export function useCurrentSession(): {
  registerId: string | null;
  session: RegisterSession | null;
  isLoading: boolean;
  isError: boolean;
  /** Why the session could not be read, for the screen's sentence. */
  error: unknown;
  refetch: () => void;
} {
  const [registerId] = useDeviceRegister();
  const query = useQuery({
    queryKey: queryKeys.openSession(registerId ?? ''),
    enabled: registerId !== null,
    queryFn: ({ signal }) =>
      api(
        `/register-sessions?register=${encodeURIComponent(registerId ?? '')}&status=open&page=1&pageSize=1`,
        {
          schema: SessionListResponse,
          signal,
        },
      ),
  });
  return {
    registerId,
    session: query.data?.sessions[0] ?? null,
    isLoading: registerId !== null && query.isPending,
    isError: query.isError,
    error: query.error,
    refetch: () => void query.refetch(),
  };
}
