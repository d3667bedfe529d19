import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { Role } from '../../../shared/roles';
import { UserInput } from '../../../shared/users';
import { buttonClass } from '../../components/button';
import { FormError, Options, SelectField, TextField } from '../../components/form-field';
import { errorMessage } from '../../lib/api';
import { applyServerFieldErrors, fieldProps } from '../../lib/form-errors';
import { ROLE_LABEL } from '../../lib/format';
import { notify } from '../../lib/notify';
import { locationOrDefault, UserLocationField } from './user-location-field';
import { useAddUser } from './users-api';

const FIELDS = ['name', 'email', 'password', 'address', 'role', 'location'] as const;

/** 'Add New User', offering only the roles the signed-in user may create. */
export function UserForm({ roles }: { roles: readonly Role[] }) {
  const add = useAddUser();
  const form = useForm({
    resolver: zodResolver(UserInput),
    defaultValues: { name: '', email: '', password: '', address: '' },
  });
  const field = fieldProps(form);

  const submit = form.handleSubmit((input) =>
    add.mutate(input, {
      onSuccess: ({ user }) => {
        notify.success(`User ${user.name} added.`);
        form.reset();
      },
      onError: (error) => applyServerFieldErrors(error, FIELDS, form.setError),
    }),
  );

  return (
    <section
      aria-labelledby="user-form-title"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="user-form-title" className="mb-4 text-lg font-semibold text-slate-900">
        Add New User
      </h2>
      {/* Beside the table (wide screens) one column; above it, the fields side by side. */}
      <form
        noValidate
        onSubmit={submit}
        className="grid items-start gap-4 sm:grid-cols-2 xl:grid-cols-3 min-[1680px]:grid-cols-1"
      >
        <TextField label="Name" autoComplete="off" {...field('name')} />
        <TextField label="Email" type="email" autoComplete="off" {...field('email')} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          {...field('password')}
        />
        <TextField label="Address" autoComplete="off" {...field('address')} />
        <SelectField label="Role" {...field('role')}>
          <option value="">Select Role</option>
          <Options values={roles} labels={ROLE_LABEL} />
        </SelectField>
        <UserLocationField {...field('location', locationOrDefault)} />
        <div className="empty:hidden sm:col-span-full">
          <FormError>{add.isError ? errorMessage(add.error) : null}</FormError>
        </div>
        <button
          type="submit"
          className={buttonClass(
            'primary',
            'md',
            'w-full self-end sm:col-start-2 xl:col-start-3 min-[1680px]:col-start-1',
          )}
          disabled={add.isPending}
        >
          {add.isPending ? 'Adding...' : 'Add User'}
        </button>
      </form>
    </section>
  );
}
