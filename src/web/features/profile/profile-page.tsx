import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { LogoutInput } from '../../../shared/auth';
import { Message } from '../../../shared/common';
import { ProfileInput, ProfileResponse, type User, UserResponse } from '../../../shared/users';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormError, TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { ApiRequestError, api, errorMessage, refusedAs } from '../../lib/api';
import { applyServerFieldErrors, fieldProps } from '../../lib/form-errors';
import { ROLE_LABEL } from '../../lib/format';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { type SignedOutState, updateSession } from '../../lib/session';
import { useSignedInUser } from '../../lib/signed-in';
import { ApprovalPinSection } from './approval-pin';
import {
  CURRENT_PASSWORD_NEEDED,
  needsCurrentPassword,
  type ProfileForm,
  profileUpdateBody,
} from './profile-rules';

const FIELDS = ['name', 'email', 'address', 'password', 'currentPassword'] as const;

function formValues(user: User): Required<ProfileForm> {
  return { name: user.name, email: user.email, address: user.address, password: '', currentPassword: '' };
}

/** A 401 sends the user to the login page instead; anything else is shown where it happened. */
function shownError(error: unknown): unknown {
  return error && !(error instanceof ApiRequestError && error.status === 401) ? error : null;
}

/**
 * Profile: read-only until Edit Profile; an empty password keeps the current one, and a new
 * password or email needs the current password. Also signs out every session of the account.
 */
export function ProfilePage() {
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const sessionsId = useId();
  const [editing, setEditing] = useState(false);
  const [confirmingSignOut, setConfirmingSignOut] = useState(false);

  const profile = useQuery({
    queryKey: queryKeys.user(me._id),
    queryFn: ({ signal }) => api(`/users/${encodeURIComponent(me._id)}`, { schema: UserResponse, signal }),
  });

  const save = useMutation({
    mutationFn: (form: ProfileForm) =>
      api(`/users/${encodeURIComponent(me._id)}`, {
        method: 'PUT',
        body: profileUpdateBody(form),
        schema: ProfileResponse,
      }),
    meta: { inlineErrors: true },
  });

  const signOutEverywhere = useMutation({
    mutationFn: () =>
      api('/auth/logout', {
        method: 'POST',
        body: { everywhere: true } satisfies LogoutInput,
        schema: Message,
      }),
    meta: { inlineErrors: true },
  });

  const form = useForm({ resolver: zodResolver(ProfileInput), defaultValues: formValues(me) });
  const { handleSubmit, reset, setError, setFocus, watch } = form;
  const field = fieldProps(form);

  const loaded = profile.data?.user;
  const storedEmail = loaded?.email ?? me.email;
  const currentPasswordNeeded = needsCurrentPassword(
    { email: watch('email'), password: watch('password') },
    storedEmail,
  );
  useEffect(() => {
    if (loaded) reset(formValues(loaded));
  }, [loaded, reset]);

  function cancel() {
    reset(formValues(loaded ?? me));
    save.reset();
    setEditing(false);
  }

  const submit = handleSubmit((form) => {
    if (!form.currentPassword && needsCurrentPassword(form, storedEmail)) {
      setError(
        'currentPassword',
        { type: 'required', message: CURRENT_PASSWORD_NEEDED },
        { shouldFocus: true },
      );
      return;
    }
    save.mutate(form, {
      onSuccess: ({ user, token }) => {
        // A password change answers with a fresh token; the old one no longer works.
        updateSession({ user, token });
        queryClient.setQueryData(queryKeys.user(me._id), { success: true as const, user });
        reset(formValues(user));
        setEditing(false);
        notify.success(token ? 'Profile and password updated.' : 'Profile updated.');
      },
      onError: (error) => {
        applyServerFieldErrors(error, FIELDS, setError);
        // "Your current password is wrong.": the alert says so; typing again replaces it.
        if (refusedAs(error, 'WRONG_PASSWORD')) {
          setFocus('currentPassword', { shouldSelect: true });
        }
      },
    });
  });

  function confirmSignOutEverywhere() {
    signOutEverywhere.mutate(undefined, {
      // The server has ended every session; /logout ends this one here and says so.
      onSuccess: ({ message }) => {
        const state: SignedOutState = { signedOut: message };
        navigate('/logout', { replace: true, state });
      },
      onError: () => setConfirmingSignOut(false),
    });
  }

  const saveError = shownError(save.error);
  const signOutError = shownError(signOutEverywhere.error);

  return (
    <>
      <PageHeader title="Profile" />
      <div className="max-w-xl rounded-lg border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        {/* The form shows the signed-in account meanwhile; a failure is said above it, with Try again. */}
        <LoadState query={profile} what="your profile">
          {() => null}
        </LoadState>
        <form noValidate onSubmit={submit} className="space-y-4">
          <TextField label="Name" readOnly={!editing} autoComplete="name" {...field('name')} />
          <TextField
            label="Email"
            type="email"
            readOnly={!editing}
            autoComplete="email"
            {...field('email')}
          />
          <TextField
            label="Address"
            readOnly={!editing}
            autoComplete="street-address"
            {...field('address')}
          />
          {editing ? (
            <>
              <TextField
                label="Password"
                type="password"
                autoComplete="new-password"
                placeholder="Enter new password (optional)"
                hint="Leave empty to keep your current password."
                {...field('password')}
              />
              <TextField
                label="Current password"
                type="password"
                autoComplete="current-password"
                aria-required={currentPasswordNeeded}
                hint={
                  currentPasswordNeeded
                    ? 'Needed to save a new password or email.'
                    : 'Needed only to change your password or email.'
                }
                {...field('currentPassword')}
              />
            </>
          ) : (
            <p className="text-sm text-slate-500">
              Role: <span className="font-medium text-slate-700">{ROLE_LABEL[me.role]}</span>
            </p>
          )}
          <FormError>
            {saveError ? (
              <>
                <strong className="block font-semibold">Failed to update user information</strong>
                {errorMessage(saveError)}
              </>
            ) : null}
          </FormError>
          <div className="flex flex-wrap gap-2 pt-2">
            {editing ? (
              <>
                <button key="save" type="submit" className={buttonClass('primary')} disabled={save.isPending}>
                  {save.isPending ? 'Saving...' : 'Save Changes'}
                </button>
                <button
                  type="button"
                  className={buttonClass('secondary')}
                  onClick={cancel}
                  disabled={save.isPending}
                >
                  Cancel
                </button>
              </>
            ) : (
              <button
                key="edit"
                type="button"
                className={buttonClass('primary')}
                onClick={(event) => {
                  // The Save button appears in this place; the click must not submit the form.
                  event.preventDefault();
                  setEditing(true);
                }}
                disabled={profile.isPending}
              >
                Edit Profile
              </button>
            )}
          </div>
        </form>
      </div>

      {/* Only admins approve at the counter (DESIGN §12); the server refuses the others too. */}
      {me.role === 'admin' ? <ApprovalPinSection /> : null}

      <section
        aria-labelledby={sessionsId}
        className="mt-6 max-w-xl rounded-lg border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
      >
        <h2 id={sessionsId} className="text-base font-semibold text-slate-900">
          Sessions
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Signed in on a device you no longer use or trust? Sign out on every device and browser, this one
          included.
        </p>
        {signOutError ? (
          <div className="mt-3">
            <FormError>
              <strong className="block font-semibold">Could not sign out everywhere</strong>
              {errorMessage(signOutError)}
            </FormError>
          </div>
        ) : null}
        <button
          type="button"
          className={buttonClass('secondary', 'md', 'mt-4')}
          onClick={() => {
            signOutEverywhere.reset();
            setConfirmingSignOut(true);
          }}
        >
          Sign out everywhere
        </button>
      </section>

      {confirmingSignOut ? (
        <ConfirmDialog
          title="Sign out everywhere?"
          message="Every session of your account ends at once, on every device and browser, this one included. You will need to log in again."
          confirmLabel="Sign out everywhere"
          busyLabel="Signing out..."
          busy={signOutEverywhere.isPending}
          onCancel={() => setConfirmingSignOut(false)}
          onConfirm={confirmSignOutEverywhere}
        />
      ) : null}
    </>
  );
}
