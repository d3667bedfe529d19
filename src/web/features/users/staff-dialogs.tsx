import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { MAX, requiredText } from '../../../shared/common';
import { Role } from '../../../shared/roles';
import type { User } from '../../../shared/users';
import { buttonClass } from '../../components/button';
import { FormDialog } from '../../components/form-dialog';
import { Options, SelectField, TextField } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { applyServerFieldErrors, fieldProps } from '../../lib/form-errors';
import { ROLE_LABEL } from '../../lib/format';
import { notify } from '../../lib/notify';
import { locationOrDefault, UserLocationField } from './user-location-field';
import { useChangeUser } from './users-api';

const EditForm = z.object({
  name: requiredText(MAX.name, 'Name'),
  role: Role,
  location: z.string().nullable(),
});
type EditForm = z.infer<typeof EditForm>;

/** Edit a user's name and role; the roles offered are those the signed-in user may give. */
export function EditUserDialog({
  user,
  roles,
  onClose,
}: {
  user: User;
  roles: readonly Role[];
  onClose: () => void;
}) {
  const change = useChangeUser();
  const form = useForm<EditForm>({
    resolver: zodResolver(EditForm),
    defaultValues: { name: user.name, role: user.role, location: user.location?._id ?? null },
  });
  const field = fieldProps(form);
  const submit = form.handleSubmit(({ location, ...input }) =>
    change.mutate(
      // The location only when changed: an unchanged one that was since deactivated stays.
      { id: user._id, change: location === (user.location?._id ?? null) ? input : { ...input, location } },
      {
        onSuccess: ({ user: saved }) => {
          notify.success(`User ${saved.name} updated.`);
          onClose();
        },
        onError: (error) =>
          applyServerFieldErrors(error, ['name', 'role', 'location'] as const, form.setError),
      },
    ),
  );
  return (
    <FormDialog
      title={`Edit ${user.name}`}
      onClose={onClose}
      onSubmit={submit}
      saving={change}
      submitLabel="Save"
    >
      <TextField label="Name" autoComplete="off" {...field('name')} />
      <SelectField label="Role" {...field('role')}>
        <Options values={roles} labels={ROLE_LABEL} />
      </SelectField>
      <UserLocationField current={user.location} {...field('location', locationOrDefault)} />
      <p className="text-sm text-slate-500">Email: {user.email}</p>
    </FormDialog>
  );
}

/**
 * The temporary password of a reset, shown this once: it is kept nowhere, so closing the dialog
 * loses it (another reset makes a new one).
 */
export function TemporaryPasswordDialog({
  user,
  password,
  onClose,
}: {
  user: User;
  password: string;
  onClose: () => void;
}) {
  const doneRef = useRef<HTMLButtonElement>(null);
  const noteId = useId();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(password);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }
  return (
    <Modal title="Temporary password" onClose={onClose} describedBy={noteId} initialFocus={doneRef}>
      <p id={noteId} className="text-sm text-slate-600">
        Give this password to {user.name} ({user.email}). It is shown only now. They must change it when they
        next sign in.
      </p>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-base tracking-wide break-all text-slate-900 select-all">
          {password}
        </code>
        <button type="button" className={buttonClass('secondary')} onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p aria-live="polite" className="mt-2 min-h-5 text-sm text-slate-600">
        {copied === 'yes'
          ? 'Copied.'
          : copied === 'failed'
            ? 'Could not copy; select the password instead.'
            : ''}
      </p>
      <div className="mt-4 flex justify-end">
        <button ref={doneRef} type="button" className={buttonClass('primary')} onClick={onClose}>
          Done
        </button>
      </div>
    </Modal>
  );
}
