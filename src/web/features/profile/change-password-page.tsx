import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, Navigate } from 'react-router';
import { z } from 'zod';
import { Password, ProfileResponse } from '../../../shared/users';
import { buttonClass } from '../../components/button';
import { FormError, TextField } from '../../components/form-field';
import { Icon } from '../../components/icon';
import { ApiRequestError, api, errorMessage, refusedAs } from '../../lib/api';
import { fieldProps } from '../../lib/form-errors';
import { homePathFor } from '../../lib/role-home';
import { updateSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSession } from '../../lib/use-session';

/** The new-password form: the temporary password, a new one (not the same), typed twice. */
export const NewPasswordForm = z
  .object({
    currentPassword: z.string().min(1, { error: 'Enter the temporary password you signed in with.' }),
    password: Password,
    confirm: z.string(),
  })
  .superRefine((form, context) => {
    if (form.confirm !== form.password)
      context.addIssue({ code: 'custom', path: ['confirm'], message: 'The two new passwords differ.' });
  });
type NewPasswordForm = z.infer<typeof NewPasswordForm>;

/**
 * After an admin reset the password (DESIGN §16): the one screen a user sees until they choose
 * a new password; then on to their home. The server answers nothing else meanwhile.
 */
export function ChangePasswordPage() {
  useDocumentTitle('Choose a new password');
  const session = useSession();
  const queryClient = useQueryClient();
  const form = useForm<NewPasswordForm>({
    resolver: zodResolver(NewPasswordForm),
    defaultValues: { currentPassword: '', password: '', confirm: '' },
  });
  const { handleSubmit, setFocus } = form;
  const field = fieldProps(form);
  const save = useMutation({
    mutationFn: ({ user, form }: { user: NonNullable<typeof session>['user']; form: NewPasswordForm }) =>
      api(`/users/${encodeURIComponent(user._id)}`, {
        method: 'PUT',
        body: {
          name: user.name,
          email: user.email,
          address: user.address,
          password: form.password,
          currentPassword: form.currentPassword,
        },
        schema: ProfileResponse,
      }),
    meta: { inlineErrors: true },
  });

  if (!session) return <Navigate to="/login" replace />;
  if (!session.user.mustChangePassword) return <Navigate to={homePathFor(session.user.role)} replace />;
  const { user } = session;

  const submit = handleSubmit((form) =>
    save.mutate(
      { user, form },
      {
        onSuccess: (answer) => {
          queryClient.clear();
          // The answer clears the flag and carries a fresh token: the guard lets them home.
          updateSession({ user: answer.user, token: answer.token });
        },
        onError: (error) => {
          if (refusedAs(error, 'WRONG_PASSWORD')) setFocus('currentPassword', { shouldSelect: true });
        },
      },
    ),
  );
  const failure = save.error && !(save.error instanceof ApiRequestError && save.error.status === 401);

  return (
    <main className="flex min-h-dvh items-center justify-center bg-gradient-to-br from-slate-100 to-indigo-100 px-4 py-10">
      <div className="w-full max-w-md">
        <div className="mb-6 flex flex-col items-center text-center">
          <span className="mb-3 flex size-12 items-center justify-center rounded-xl bg-indigo-600 text-white">
            <Icon name="box" className="size-7" />
          </span>
          <h1 className="text-2xl font-bold text-slate-900">Choose a new password</h1>
          <p className="mt-1 text-sm text-slate-600">
            Your password was reset, {user.name}. Choose your own before you continue.
          </p>
        </div>
        <form noValidate onSubmit={submit} className="space-y-4 rounded-xl bg-white p-6 shadow-lg sm:p-8">
          <TextField
            label="Temporary password"
            type="password"
            autoComplete="current-password"
            autoFocus
            {...field('currentPassword')}
          />
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters, not the temporary one."
            {...field('password')}
          />
          <TextField
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            {...field('confirm')}
          />
          <FormError>{failure ? errorMessage(save.error) : null}</FormError>
          <button type="submit" disabled={save.isPending} className={buttonClass('primary', 'md', 'w-full')}>
            {save.isPending ? 'Saving...' : 'Save new password'}
          </button>
        </form>
        <p className="mt-6 text-center text-sm text-slate-600">
          <Link to="/logout" className="font-medium text-indigo-700 hover:underline">
            Sign out
          </Link>
        </p>
      </div>
    </main>
  );
}
