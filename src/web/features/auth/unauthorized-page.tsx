import { Link } from 'react-router';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSession } from '../../lib/use-session';

export function UnauthorizedPage() {
  useDocumentTitle('Unauthorized');
  const session = useSession();
  return (
    <main className="flex min-h-dvh items-center justify-center bg-slate-50 px-4">
      <div className="max-w-md text-center">
        <h1 className="text-3xl font-bold text-slate-900">Unauthorized...</h1>
        <p className="mt-3 text-slate-600">Your account does not have access to that page.</p>
        <Link
          to={session ? '/' : '/login'}
          className="mt-6 inline-block font-medium text-indigo-700 hover:underline"
        >
          {session ? 'Back to your dashboard' : 'Go to the login page'}
        </Link>
      </div>
    </main>
  );
}
