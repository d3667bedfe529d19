import type { Role } from '../../shared/roles';
import type { User } from '../../shared/users';
import { HOME_PATH } from './role-home';

/** Where the session lives in the browser (the token key is the observed client's). */
export const TOKEN_KEY = 'ims_token';
export const USER_KEY = 'ims_user';

export type Session = { token: string; user: User };

type Listener = () => void;
const listeners = new Set<Listener>();
let current: Session | null | undefined;
/** Why the last session ended: a 401 sends the user to /login rather than /home. */
let endedBy: 'logout' | 'expired' | null = null;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The stored user when it has the shape of the shared User (its text fields, a known role, its two
 * flags: missing ones, stored before they existed, read as active and not awaiting a new password),
 * with nothing else kept; else null. Written out rather than parsed with the User schema so the login
 * page loads without zod; session.test.ts holds the two to the same answers.
 */
export function storedUser(value: unknown): User | null {
  if (typeof value !== 'object' || value === null) return null;
  const { _id, name, email, address, role, active, mustChangePassword, location } = value as Record<
    string,
    unknown
  >;
  if (typeof _id !== 'string' || typeof name !== 'string') return null;
  if (typeof email !== 'string' || typeof address !== 'string') return null;
  // HOME_PATH has a key for every role and no other (its type says so).
  if (typeof role !== 'string' || !Object.hasOwn(HOME_PATH, role)) return null;
  if (active !== undefined && typeof active !== 'boolean') return null;
  if (mustChangePassword !== undefined && typeof mustChangePassword !== 'boolean') return null;
  return {
    _id,
    name,
    email,
    address,
    role: role as Role,
    active: active ?? true,
    mustChangePassword: mustChangePassword ?? false,
    location: storedLocation(location),
  };
}

/** The user's location as stored (DESIGN §17); anything else (a session stored before it): null. */
function storedLocation(value: unknown): User['location'] {
  if (typeof value !== 'object' || value === null) return null;
  const { _id, name } = value as Record<string, unknown>;
  return typeof _id === 'string' && typeof name === 'string' ? { _id, name } : null;
}

/** Reads the stored session; anything malformed counts as no session. */
function read(): Session | null {
  const store = storage();
  if (!store) return null;
  const token = store.getItem(TOKEN_KEY);
  const rawUser = store.getItem(USER_KEY);
  if (!token || !rawUser) return null;
  try {
    const user = storedUser(JSON.parse(rawUser));
    return user ? { token, user } : null;
  } catch {
    return null;
  }
}

function emit() {
  for (const listener of listeners) listener();
}

export function getSession(): Session | null {
  if (current === undefined) current = read();
  return current;
}

export function getToken(): string | null {
  return getSession()?.token ?? null;
}

export function sessionExpired(): boolean {
  return endedBy === 'expired';
}

export function setSession(session: Session): void {
  endedBy = null;
  const store = storage();
  store?.setItem(TOKEN_KEY, session.token);
  store?.setItem(USER_KEY, JSON.stringify(session.user));
  current = session;
  emit();
}

/** Replaces parts of the stored session (after a profile save: new name, maybe a new token). */
export function updateSession(change: { token?: string; user?: User }): void {
  const session = getSession();
  if (!session) return;
  setSession({ token: change.token ?? session.token, user: change.user ?? session.user });
}

export function clearSession(reason: 'logout' | 'expired' = 'logout'): void {
  endedBy = reason;
  const store = storage();
  store?.removeItem(TOKEN_KEY);
  store?.removeItem(USER_KEY);
  if (current === null) return;
  current = null;
  emit();
}

/**
 * The navigation state a screen hands to /logout when it has already signed out on the server
 * (Sign out everywhere): /logout then only ends the session here and shows the notice.
 */
export type SignedOutState = { signedOut: string };

/** The notice of a SignedOutState, or null when the state is anything else. */
export function signedOutNotice(state: unknown): string | null {
  const notice = (state as Partial<SignedOutState> | null)?.signedOut;
  return typeof notice === 'string' ? notice : null;
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Another tab signed in or out: follow it. */
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== null && event.key !== TOKEN_KEY && event.key !== USER_KEY) return;
    current = read();
    emit();
  });
}
