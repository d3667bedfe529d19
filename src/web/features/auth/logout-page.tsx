import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { signOut } from '../../lib/api';
import { salesCount } from '../../lib/format';
import { notify } from '../../lib/notify';
import { homePathFor } from '../../lib/role-home';
import { clearSession, getSession, signedOutNotice } from '../../lib/session';
import { count } from '../offline/queue';

/** "1 sale", "3 sales". */

/**
 * Revokes the token on the server (waiting at most a couple of seconds), then clears the session
 * and the cached data here, whatever the server said, and goes to the login page. A screen that
 * has already signed out on the server (Sign out everywhere) comes here with the notice to show.
 * With sales made offline still on this device (DESIGN §21), it asks first: they are never
 * dropped, and are sent at the seller's next sign-in here.
 */
export function LogoutPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { state } = useLocation();
  const started = useRef(false);
  const [unsent, setUnsent] = useState<number | null>(null);
  const [leaving, setLeaving] = useState(false);
  const notice = signedOutNotice(state);

  useEffect(() => {
    // Once per visit, also when React runs the effect twice in development.
    if (started.current) return;
    started.current = true;
    const user = getSession()?.user;
    // Signed out elsewhere already: nothing to ask, the session here is over.
    if (notice !== null || !user) {
      setLeaving(true);
      return;
    }
    count(user._id)
      .catch(() => 0)
      .then((waiting) => {
        if (waiting > 0) setUnsent(waiting);
        else setLeaving(true);
      });
  }, [notice]);

  useEffect(() => {
    if (!leaving) return;
    void (async () => {
      if (notice === null) await signOut();
      clearSession('logout');
      queryClient.clear();
      if (notice) notify.success(notice);
      navigate('/login', { replace: true });
    })();
  }, [leaving, navigate, notice, queryClient]);

  if (unsent !== null && !leaving) {
    const role = getSession()?.user.role;
    return (
      <ConfirmDialog
        title="Sign out with unsent sales?"
        message={`${salesCount(unsent)} made offline ${unsent === 1 ? 'is' : 'are'} still on this device, not yet sent to the server. ${unsent === 1 ? 'It stays' : 'They stay'} here and ${unsent === 1 ? 'is' : 'are'} sent when you sign in again on this device.`}
        confirmLabel="Sign out"
        cancelLabel="Stay signed in"
        busyLabel="Signing out..."
        onConfirm={() => setLeaving(true)}
        onCancel={() => navigate(role ? homePathFor(role) : '/', { replace: true })}
      />
    );
  }
  return (
    <p role="status" className="p-6 text-sm text-slate-600">
      Logging out...
    </p>
  );
}
