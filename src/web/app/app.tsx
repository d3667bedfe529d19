import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { Notifications } from '../components/notifications';
import { onUnauthorized } from '../lib/api';
import { isOffline, subscribeReach } from '../lib/connection';
import { notify } from '../lib/notify';
import { createQueryClient } from '../lib/query-client';
import { clearSession, getSession } from '../lib/session';
import { appRoutes } from './routes';
import { UpdateNotice } from './update-notice';

const queryClient = createQueryClient();

// Back in reach of the server (DESIGN §21): what failed while it was away is read again at once,
// rather than a screen showing its error until someone presses Try again.
let wasOffline = isOffline();
subscribeReach(() => {
  const offline = isOffline();
  if (wasOffline && !offline)
    void queryClient.refetchQueries({ type: 'active', predicate: (query) => query.state.status === 'error' });
  wasOffline = offline;
});
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
      <Notifications navigate={(to) => void router.navigate(to)}>
        <UpdateNotice />
      </Notifications>
    </QueryClientProvider>
  );
}
