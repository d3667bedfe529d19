import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { type Customer, CustomerInput } from '../../../shared/customers';
import { buttonClass } from '../../components/button';
import { FormError, TextAreaField, TextField } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { ApiRequestError, errorMessage } from '../../lib/api';
import { customerPath } from '../../lib/area-paths';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { notify } from '../../lib/notify';
import { useSignedInUser } from '../../lib/signed-in';
import { useSaveCustomer } from './customers-api';

const FIELDS = ['name', 'phone', 'email', 'address', 'note'] as const;

/**
 * Add a customer, or edit one when a customer is given; `onSaved` hears the saved customer. A
 * customer of the same name and phone as another is refused by the server; the form then offers
 * the other one's page.
 */
export function CustomerFormModal({
  customer,
  onClose,
  onSaved,
}: {
  customer: Customer | null;
  onClose: () => void;
  onSaved?: (customer: Customer) => void;
}) {
  const editing = customer !== null;
  const me = useSignedInUser();
  const save = useSaveCustomer();
  const duplicate =
    save.error instanceof ApiRequestError && save.error.status === 409 ? save.error.existing : undefined;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(CustomerInput),
    defaultValues: {
      name: customer?.name ?? '',
      phone: customer?.phone ?? '',
      email: customer?.email ?? '',
      address: customer?.address ?? '',
      note: customer?.note ?? '',
    },
  });

  const submit = handleSubmit((input) =>
    save.mutate(
      { id: customer?._id ?? null, input },
      {
        onSuccess: (answer) => {
          notify.success(editing ? 'Customer updated.' : 'Customer added.');
          onSaved?.(answer.customer);
          onClose();
        },
        onError: (error) => applyServerFieldErrors(error, FIELDS, setError),
      },
    ),
  );

  return (
    <Modal title={editing ? 'Edit Customer' : 'Add Customer'} onClose={() => !save.isPending && onClose()}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <TextField label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Phone"
            type="tel"
            autoComplete="off"
            error={errors.phone?.message}
            {...register('phone')}
          />
          <TextField
            label="Email"
            type="email"
            autoComplete="off"
            error={errors.email?.message}
            {...register('email')}
          />
        </div>
        <TextField
          label="Address"
          autoComplete="off"
          error={errors.address?.message}
          {...register('address')}
        />
        <TextAreaField
          label="Note"
          hint="For the staff only: preferences, delivery details."
          error={errors.note?.message}
          {...register('note')}
        />
        <FormError>{save.isError ? errorMessage(save.error) : null}</FormError>
        {duplicate ? (
          <Link
            to={customerPath(me.role, duplicate._id)}
            onClick={onClose}
            className={`${buttonClass('secondary')} w-full sm:w-auto`}
          >
            {editing ? `Open ${duplicate.name}` : `Use ${duplicate.name}`}
          </Link>
        ) : null}
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            className={buttonClass('secondary')}
            onClick={onClose}
            disabled={save.isPending}
          >
            Cancel
          </button>
          <button type="submit" className={buttonClass('primary')} disabled={save.isPending}>
            {save.isPending ? 'Saving...' : editing ? 'Save Changes' : 'Add Customer'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
