import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router';
import { landingPathFor } from '../../lib/role-home';
import { setSession } from '../../lib/session';
import { useSession } from '../../lib/use-session';
import { LoginForm } from './login-form';

/** /login inside the app (after a logout, an expired session or a link). */
export function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Signed in, here or in another tab: on to the role's dashboard (or first a new password).
  if (session) return <Navigate to={landingPathFor(session.user)} replace />;
  return (
    <LoginForm
      onSignedIn={({ token, user }) => {
        queryClient.clear();
        setSession({ token, user });
      }}
      onHome={() => navigate('/home')}
    />
  );
}
