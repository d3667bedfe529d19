import { type FormEvent, type MouseEvent, useEffect, useRef, useState } from 'react';
import type { LoginResponse } from '../../../shared/auth';
import { PRODUCT_NAME } from '../../../shared/product';
import { buttonClass } from '../../components/button';
import { TextField } from '../../components/form-field';
import { Icon } from '../../components/icon';
import { ApiRequestError, GENERIC_ERROR } from '../../lib/api-error';
import { useDocumentTitle } from '../../lib/use-document-title';
import { checkLogin, type LoginErrors } from './login-rules';

// The call and the answer's schema (zod with it) come once the visitor starts on the form, not
// with the page: the login page is most people's first download.
const loadAuthApi = () => import('./auth-api');

/** The server's sentence when it sent one, else the spec's generic text. */
export function loginErrorText(error: unknown): string {
  return error instanceof ApiRequestError && error.status > 0 && error.message
    ? error.message
    : GENERIC_ERROR;
}

/** A plain left click, which this tab may follow itself (not one that opens another tab). */
function plainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

type LoginFormProps = {
  /** The server accepted the credentials. */
  onSignedIn: (answer: LoginResponse) => void;
  /** "Back to the home page" was followed in this tab. */
  onHome: () => void;
  /** The visitor started on the form: the moment to fetch what comes after it. */
  onStart?: () => void;
};

/**
 * The login form, free of the router and the data layer, so the page can show before they load
 * (app/start.tsx); the login route wraps it too.
 */
export function LoginForm({ onSignedIn, onHome, onStart }: LoginFormProps) {
  useDocumentTitle('Login');
  // Two fields need no form library; the login page stays small.
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const started = useRef(false);
  const email = useRef<HTMLInputElement>(null);
  // The visitor came to sign in: the cursor waits in Email. Focus alone does not count as
  // starting on the form (that fetches the rest of the app); a key or a press does.
  useEffect(() => {
    email.current?.focus();
  }, []);

  function start() {
    if (started.current) return;
    started.current = true;
    void loadAuthApi().catch(() => {});
    onStart?.();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    const checked = checkLogin(values);
    if (!checked.success) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setFailure(null);
    setPending(true);
    try {
      const { logIn } = await loadAuthApi();
      // Stays "Logging in..." until the dashboard replaces the page.
      onSignedIn(await logIn(checked.data));
    } catch (error) {
      setFailure(loginErrorText(error));
      setPending(false);
    }
  }

  return (
    <main className="flex min-h-dvh items-center justify-center bg-gradient-to-br from-slate-100 to-indigo-100 px-4 py-10">
      <div className="w-full max-w-md">
        <div className="mb-6 flex flex-col items-center text-center">
          <span className="mb-3 flex size-12 items-center justify-center rounded-xl bg-indigo-600 text-white">
            <Icon name="box" className="size-7" />
          </span>
          <h1 className="text-2xl font-bold text-slate-900">{PRODUCT_NAME}</h1>
          <p className="mt-1 text-sm text-slate-600">Retail sales management: log in to your store</p>
        </div>
        <form
          noValidate
          onSubmit={submit}
          onKeyDown={start}
          onPointerDown={start}
          onInput={start}
          className="space-y-4 rounded-xl bg-white p-6 shadow-lg sm:p-8"
        >
          <TextField
            ref={email}
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
          {failure ? (
            <p role="alert" className="text-sm font-medium text-red-600">
              {failure}
            </p>
          ) : null}
          <button type="submit" disabled={pending} className={buttonClass('primary', 'md', 'w-full')}>
            {pending ? 'Logging in...' : 'Login'}
          </button>
        </form>
        <p className="mt-6 text-center text-sm text-slate-600">
          <a
            href="/home"
            onClick={(event) => {
              if (!plainClick(event)) return;
              event.preventDefault();
              onHome();
            }}
            className="font-medium text-indigo-700 hover:underline"
          >
            Back to the home page
          </a>
        </p>
      </div>
    </main>
  );
}
