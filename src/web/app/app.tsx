import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { Notifications } from '../components/notifications';
import { onUnauthorized } from '../lib/api';
import { notify } from '../lib/notify';
import { createQueryClient } from '../lib/query-client';
import { clearSession, getSession } from '../lib/session';
import { appRoutes } from './routes';

const queryClient = createQueryClient();
/** Created when the app's code arrives (app/start.tsx), at the address of that moment. */
export const router = createBrowserRouter(appRoutes(queryClient));

// Any 401 means the token is gone or expired: forget it and ask for a new login.
onUnauthorized(() => {
  if (!getSession()) return;
  clearSession('expired');
  notify.error('Your session has ended. Please log in again.');
  void router.navigate('/login', { replace: true });
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Notifications navigate={(to) => void router.navigate(to)} />
    </QueryClientProvider>
  );
}
