import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { signOut } from '../../lib/api';
import { notify } from '../../lib/notify';
import { clearSession, signedOutNotice } from '../../lib/session';

/**
 * Revokes the token on the server (waiting at most a couple of seconds), then clears the session
 * and the cached data here, whatever the server said, and goes to the login page. A screen that
 * has already signed out on the server (Sign out everywhere) comes here with the notice to show.
 */
export function LogoutPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { state } = useLocation();
  const started = useRef(false);
  useEffect(() => {
    // Once per visit, also when React runs the effect twice in development.
    if (started.current) return;
    started.current = true;
    const notice = signedOutNotice(state);
    void (async () => {
      if (notice === null) await signOut();
      clearSession('logout');
      queryClient.clear();
      if (notice) notify.success(notice);
      navigate('/login', { replace: true });
    })();
  }, [navigate, queryClient, state]);
  return (
    <p role="status" className="p-6 text-sm text-slate-600">
      Logging out...
    </p>
  );
}
