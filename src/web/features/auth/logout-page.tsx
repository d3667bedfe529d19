import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { clearSession } from '../../lib/session';

/** Clears the session and the cached data, then goes to the login page. */
export function LogoutPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    clearSession('logout');
    queryClient.clear();
    navigate('/login', { replace: true });
  }, [navigate, queryClient]);
  return (
    <p role="status" className="p-6 text-sm text-slate-600">
      Logging out...
    </p>
  );
}
