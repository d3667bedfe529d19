import { useSyncExternalStore } from 'react';
import { getSession, type Session, subscribeSession } from './session';

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
