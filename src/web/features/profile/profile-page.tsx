import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ProfileInput, ProfileResponse, type User, UserResponse } from '../../../shared/users';
import { buttonClass } from '../../components/button';
import { FormError, TextField } from '../../components/form-field';
import { PageHeader } from '../../components/page-header';
import { Loading } from '../../components/spinner';
import { ApiRequestError, api, errorMessage } from '../../lib/api';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { ROLE_LABEL } from '../../lib/format';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { updateSession } from '../../lib/session';
import { useSignedInUser } from '../../lib/signed-in';
import { type ProfileForm, profileUpdateBody } from './profile-rules';

const FIELDS = ['name', 'email', 'address', 'password'] as const;

function formValues(user: User): Required<ProfileForm> {
  return { name: user.name, email: user.email, address: user.address, password: '' };
}

/** Profile: read-only until Edit Profile; an empty password keeps the current one. */
export function ProfilePage() {
  const me = useSignedInUser();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);

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

  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(ProfileInput), defaultValues: formValues(me) });

  const loaded = profile.data?.user;
  useEffect(() => {
    if (loaded) reset(formValues(loaded));
  }, [loaded, reset]);

  function cancel() {
    reset(formValues(loaded ?? me));
    save.reset();
    setEditing(false);
  }

  const submit = handleSubmit((form) =>
    save.mutate(form, {
      onSuccess: ({ user, token }) => {
        // A password change answers with a fresh token; the old one no longer works.
        updateSession({ user, token });
        queryClient.setQueryData(queryKeys.user(me._id), { success: true as const, user });
        reset(formValues(user));
        setEditing(false);
        notify.success(token ? 'Profile and password updated.' : 'Profile updated.');
      },
      onError: (error) => applyServerFieldErrors(error, FIELDS, setError),
    }),
  );

  const saveError =
    save.isError && !(save.error instanceof ApiRequestError && save.error.status === 401) ? save.error : null;

  return (
    <>
      <PageHeader title="Profile" />
      <div className="max-w-xl rounded-lg border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        {profile.isPending ? <Loading /> : null}
        <form noValidate onSubmit={submit} className="space-y-4">
          <TextField
            label="Name"
            readOnly={!editing}
            autoComplete="name"
            error={errors.name?.message}
            {...register('name')}
          />
          <TextField
            label="Email"
            type="email"
            readOnly={!editing}
            autoComplete="email"
            error={errors.email?.message}
            {...register('email')}
          />
          <TextField
            label="Address"
            readOnly={!editing}
            autoComplete="street-address"
            error={errors.address?.message}
            {...register('address')}
          />
          {editing ? (
            <TextField
              label="Password"
              type="password"
              autoComplete="new-password"
              placeholder="Enter new password (optional)"
              hint="Leave empty to keep your current password."
              error={errors.password?.message}
              {...register('password')}
            />
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
    </>
  );
}
