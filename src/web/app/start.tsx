import { StrictMode, useEffect } from 'react';
import type { Root } from 'react-dom/client';
import { LoginForm } from '../features/auth/login-form';
import { landingPathFor } from '../lib/role-home';
import { getSession, setSession } from '../lib/session';
import { useSession } from '../lib/use-session';

let app: Promise<typeof import('./app')> | undefined;

/** The app (router, data layer, every screen's route), fetched once, when first needed. */
export function loadApp() {
  app ??= import('./app');
  return app;
}

/** Shows the app at the address, or after moving to `to` (the page shown until then stays). */
export async function startApp(root: Root, to?: { path: string; replace: boolean }) {
  const { App, router } = await loadApp();
  if (to) await router.navigate(to.path, { replace: to.replace });
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

/** Hands the page to the app at `path`; if its code cannot be fetched, the browser goes there. */
function enterApp(root: Root, path: string, replace: boolean) {
  startApp(root, { path, replace }).catch(() =>
    replace ? window.location.replace(path) : window.location.assign(path),
  );
}

/**
 * /login opened directly: the form alone, without the router and the data layer, so the first
 * page most people open shows after the smallest download. The app loads while they type and
 * takes the page over once they are signed in (or leave for the home page).
 */
function FirstLogin({ root }: { root: Root }) {
  const session = useSession();
  useEffect(() => {
    if (session) enterApp(root, landingPathFor(session.user), true);
  }, [root, session]);
  return (
    <LoginForm
      onSignedIn={({ token, user }) => setSession({ token, user })}
      onHome={() => enterApp(root, '/home', false)}
      onStart={() => void loadApp().catch(() => {})}
    />
  );
}

/** Starts the page at the address the browser opened. */
export function start(root: Root) {
  if (/^\/login\/?$/.test(window.location.pathname) && !getSession()) {
    root.render(
      <StrictMode>
        <FirstLogin root={root} />
      </StrictMode>,
    );
  } else void startApp(root);
}
