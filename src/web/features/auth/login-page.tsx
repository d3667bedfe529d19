import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { LoginInput, LoginResponse } from '../../../shared/auth';
import { buttonClass } from '../../components/button';
import { TextField } from '../../components/form-field';
import { Icon } from '../../components/icon';
import { ApiRequestError, api, GENERIC_ERROR } from '../../lib/api';
import { homePathFor } from '../../lib/role-home';
import { setSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSession } from '../../lib/use-session';

/** The server's sentence when it sent one, else the spec's generic text. */
export function loginErrorText(error: unknown): string {
  return error instanceof ApiRequestError && error.status > 0 && error.message
    ? error.message
    : GENERIC_ERROR;
}

export function LoginPage() {
  useDocumentTitle('Login');
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Two fields need no form library; the login page stays small.
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof LoginInput, string>>>({});

  const login = useMutation({
    mutationFn: (input: LoginInput) =>
      api('/auth/login', { method: 'POST', body: input, schema: LoginResponse, signedIn: false }),
    meta: { inlineErrors: true },
    onSuccess: ({ token, user }) => {
      queryClient.clear();
      setSession({ token, user });
      navigate(homePathFor(user.role), { replace: true });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = LoginInput.safeParse(values);
    if (!parsed.success) {
      const found: Partial<Record<keyof LoginInput, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof LoginInput;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    login.mutate(parsed.data);
  }

  if (session && !login.isPending && !login.isSuccess) {
    return <Navigate to={homePathFor(session.user.role)} replace />;
  }

  return (
    <main className="flex min-h-dvh items-center justify-center bg-gradient-to-br from-slate-100 to-indigo-100 px-4 py-10">
      <div className="w-full max-w-md">
        <div className="mb-6 flex flex-col items-center text-center">
          <span className="mb-3 flex size-12 items-center justify-center rounded-xl bg-indigo-600 text-white">
            <Icon name="box" className="size-7" />
          </span>
          <h1 className="text-2xl font-bold text-slate-900">Retail Sales Management System</h1>
          <p className="mt-1 text-sm text-slate-600">Log in to Inventory MS</p>
        </div>
        <form noValidate onSubmit={submit} className="space-y-4 rounded-xl bg-white p-6 shadow-lg sm:p-8">
          <TextField
            label="Email"
            type="email"
            autoComplete="username"
            value={values.email}
            onChange={(event) => setValues({ ...values, email: event.target.value })}
            error={errors.email}
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            value={values.password}
            onChange={(event) => setValues({ ...values, password: event.target.value })}
            error={errors.password}
          />
          {login.isError ? (
            <p role="alert" className="text-sm font-medium text-red-600">
              {loginErrorText(login.error)}
            </p>
          ) : null}
          <button type="submit" disabled={login.isPending} className={buttonClass('primary', 'md', 'w-full')}>
            {login.isPending ? 'Logging in...' : 'Login'}
          </button>
        </form>
        <p className="mt-6 text-center text-sm text-slate-600">
          <Link to="/home" className="font-medium text-indigo-700 hover:underline">
            Back to the home page
          </Link>
        </p>
      </div>
    </main>
  );
}
