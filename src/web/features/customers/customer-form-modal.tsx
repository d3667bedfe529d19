import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { type Customer, CustomerInput } from '../../../shared/customers';
import { buttonClass } from '../../components/button';
import { FormDialog } from '../../components/form-dialog';
import { TextAreaField, TextField } from '../../components/form-field';
import { refusedAs } from '../../lib/api';
import { customerPath } from '../../lib/area-paths';
import { applyServerFieldErrors, fieldProps } from '../../lib/form-errors';
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
  const duplicate = refusedAs(save.error, 'CUSTOMER_TAKEN') ? save.error.existing : undefined;
  const form = useForm({
    resolver: zodResolver(CustomerInput),
    defaultValues: {
      name: customer?.name ?? '',
      phone: customer?.phone ?? '',
      email: customer?.email ?? '',
      address: customer?.address ?? '',
      note: customer?.note ?? '',
    },
  });
  const field = fieldProps(form);

  const submit = form.handleSubmit((input) =>
    save.mutate(
      { id: customer?._id ?? null, input },
      {
        onSuccess: (answer) => {
          notify.success(editing ? 'Customer updated.' : 'Customer added.');
          onSaved?.(answer.customer);
          onClose();
        },
        onError: (error) => applyServerFieldErrors(error, FIELDS, form.setError),
      },
    ),
  );

  return (
    <FormDialog
      title={editing ? 'Edit Customer' : 'Add Customer'}
      onClose={onClose}
      onSubmit={submit}
      saving={save}
      remedy={
        duplicate ? (
          <Link
            to={customerPath(me.role, duplicate._id)}
            onClick={onClose}
            className={`${buttonClass('secondary')} w-full sm:w-auto`}
          >
            {editing ? `Open ${duplicate.name}` : `Use ${duplicate.name}`}
          </Link>
        ) : null
      }
      submitLabel={editing ? 'Save Changes' : 'Add Customer'}
    >
      <TextField label="Name" autoComplete="off" {...field('name')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Phone" type="tel" autoComplete="off" {...field('phone')} />
        <TextField label="Email" type="email" autoComplete="off" {...field('email')} />
      </div>
      <TextField label="Address" autoComplete="off" {...field('address')} />
      <TextAreaField
        label="Note"
        hint="For the staff only: preferences, delivery details."
        {...field('note')}
      />
    </FormDialog>
  );
}
