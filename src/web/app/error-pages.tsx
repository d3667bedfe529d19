import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { buttonClass } from '../components/button';
import { useDocumentTitle } from '../lib/use-document-title';
import { useSession } from '../lib/use-session';
import { rootRedirect } from './navigation';

type CenteredProps = { code: string; title: string; text: string; inShell?: boolean };

function Centered({ code, title, text, inShell = false }: CenteredProps) {
  useDocumentTitle(title);
  const session = useSession();
  const back = rootRedirect(session);
  const Frame = inShell ? 'div' : 'main';
  return (
    <Frame className={`flex items-center justify-center px-4 ${inShell ? 'py-16' : 'min-h-dvh bg-slate-50'}`}>
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold text-indigo-600">{code}</p>
        <h1 className="mt-2 text-3xl font-bold text-slate-900">{title}</h1>
        <p className="mt-3 text-slate-600">{text}</p>
        <Link to={back} className={buttonClass('primary', 'md', 'mt-6')}>
          {session ? 'Back to your dashboard' : 'Back to the home page'}
        </Link>
      </div>
    </Frame>
  );
}

export function NotFoundPage({ inShell = false }: { inShell?: boolean }) {
  return (
    <Centered
      inShell={inShell}
      code="404"
      title="Page not found"
      text="There is no page at this address. It may have moved."
    />
  );
}

/** Shown when a screen fails to render or load: no stack trace, a way back. */
export function CrashPage({ inShell = false }: { inShell?: boolean }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage inShell={inShell} />;
  return (
    <Centered
      inShell={inShell}
      code="Error"
      title="Something went wrong"
      text="This page ran into an unexpected problem. Reload the page or go back and try again."
    />
  );
}

export function FullPageLoading() {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-slate-50">
      <p role="status" className="text-sm text-slate-600">
        Loading...
      </p>
    </div>
  );
}
