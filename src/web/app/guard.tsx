import { Navigate, Outlet } from 'react-router';
import type { Role } from '../../shared/roles';
import { sessionExpired } from '../lib/session';
import { SignedInContext } from '../lib/signed-in';
import { useSession } from '../lib/use-session';
import { guardDecision, rootRedirect } from './navigation';

/** Lets through only the allowed roles; the redirect replaces the history entry. */
export function RequireRole({ roles }: { roles: readonly Role[] }) {
  const session = useSession();
  const decision = guardDecision(session, roles);
  if (!decision.allow) {
    // A session that ended on a 401 goes to the login page, not the landing page.
    const to = !session && sessionExpired() ? '/login' : decision.redirectTo;
    return <Navigate to={to} replace />;
  }
  return (
    <SignedInContext value={session?.user ?? null}>
      <Outlet />
    </SignedInContext>
  );
}

/** `/`: each role to its dashboard, a visitor to /home. */
export function RootRedirect() {
  const session = useSession();
  return <Navigate to={rootRedirect(session)} replace />;
}
