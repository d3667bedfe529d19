import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Ok } from '../../../shared/common';
import { buttonClass } from '../../components/button';
import { FormError, TextField } from '../../components/form-field';
import { ApiRequestError, api, errorMessage, refusedAs } from '../../lib/api';
import { notify } from '../../lib/notify';
import { type PinForm, pinProblems } from './profile-rules';

const EMPTY: PinForm = { pin: '', repeat: '', currentPassword: '' };

/**
 * An admin's approval PIN (DESIGN §12): typed at a cashier's counter with the admin's email to
 * approve a discount above the store's limit or a sale above stock. Setting it needs the current
 * password; the server keeps only a hash and never answers the PIN.
 */
export function ApprovalPinSection() {
  const titleId = useId();
  const [form, setForm] = useState<PinForm>(EMPTY);
  const [problems, setProblems] = useState<Partial<Record<keyof PinForm, string>>>({});
  const refs = {
    pin: useRef<HTMLInputElement>(null),
    repeat: useRef<HTMLInputElement>(null),
    currentPassword: useRef<HTMLInputElement>(null),
  };

  const save = useMutation({
    mutationFn: (body: { pin: string; currentPassword: string }) =>
      api('/users/me/pin', { method: 'PUT', body, schema: Ok }),
    meta: { inlineErrors: true },
  });

  function field(name: keyof PinForm) {
    return {
      value: form[name],
      error: problems[name],
      disabled: save.isPending,
      onChange: (event: { target: { value: string } }) => {
        setForm((now) => ({ ...now, [name]: event.target.value }));
        setProblems((now) => ({ ...now, [name]: undefined }));
        if (save.isError) save.reset();
      },
    };
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const found = pinProblems(form);
    setProblems(found);
    const first = (['pin', 'repeat', 'currentPassword'] as const).find((name) => found[name]);
    if (first) {
      refs[first].current?.focus();
      return;
    }
    save.mutate(
      { pin: form.pin, currentPassword: form.currentPassword },
      {
        onSuccess: () => {
          setForm(EMPTY);
          notify.success('Your approval PIN is set.');
        },
        onError: (error) => {
          // "Your current password is wrong.": typed again in its place.
          if (refusedAs(error, 'WRONG_PASSWORD')) refs.currentPassword.current?.select();
        },
      },
    );
  }

  const failed = save.error && !(save.error instanceof ApiRequestError && save.error.status === 401);
  return (
    <section
      aria-labelledby={titleId}
      className="mt-6 max-w-xl rounded-lg border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id={titleId} className="text-base font-semibold text-slate-900">
        Approval PIN
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        At a cashier's counter, your email and this PIN approve a discount above the store's limit or a sale
        of more than the stock. 4 to 8 digits; setting it replaces the one you had.
      </p>
      <form noValidate onSubmit={submit} className="mt-4 space-y-4">
        <TextField
          ref={refs.pin}
          label="New PIN"
          type="password"
          inputMode="numeric"
          autoComplete="new-password"
          maxLength={8}
          {...field('pin')}
        />
        <TextField
          ref={refs.repeat}
          label="Repeat the PIN"
          type="password"
          inputMode="numeric"
          autoComplete="new-password"
          maxLength={8}
          {...field('repeat')}
        />
        <TextField
          ref={refs.currentPassword}
          label="Your password, to confirm"
          type="password"
          autoComplete="current-password"
          {...field('currentPassword')}
        />
        <FormError>
          {failed ? (
            <>
              <strong className="block font-semibold">The PIN was not set</strong>
              {errorMessage(save.error)}
            </>
          ) : null}
        </FormError>
        <button type="submit" className={buttonClass('primary')} disabled={save.isPending}>
          {save.isPending ? 'Setting PIN...' : 'Set PIN'}
        </button>
      </form>
    </section>
  );
}
