import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { type Supplier, SupplierInput } from '../../../shared/suppliers';
import { FormDialog } from '../../components/form-dialog';
import { TextField } from '../../components/form-field';
import { applyServerFieldErrors, fieldProps } from '../../lib/form-errors';
import { notify } from '../../lib/notify';
import { useSaveSupplier } from './suppliers-api';

const FIELDS = ['name', 'email', 'phone', 'address'] as const;

/** Add or edit a supplier; edit mode when a supplier is given. */
export function SupplierFormModal({ supplier, onClose }: { supplier: Supplier | null; onClose: () => void }) {
  const editing = supplier !== null;
  const save = useSaveSupplier();
  const form = useForm({
    resolver: zodResolver(SupplierInput),
    defaultValues: {
      name: supplier?.name ?? '',
      email: supplier?.email ?? '',
      phone: supplier?.phone ?? '',
      address: supplier?.address ?? '',
    },
  });
  const field = fieldProps(form);

  const submit = form.handleSubmit((input) =>
    save.mutate(
      { id: supplier?._id ?? null, input },
      {
        onSuccess: () => {
          notify.success(editing ? 'Supplier updated.' : 'Supplier added.');
          onClose();
        },
        onError: (error) => applyServerFieldErrors(error, FIELDS, form.setError),
      },
    ),
  );

  return (
    <FormDialog
      title={editing ? 'Edit Supplier' : 'Add New Supplier'}
      onClose={onClose}
      onSubmit={submit}
      saving={save}
      submitLabel={editing ? 'Save Changes' : 'Add Supplier'}
    >
      <TextField label="Name" autoComplete="off" {...field('name')} />
      <TextField label="Email" type="email" autoComplete="off" {...field('email')} />
      <TextField label="Phone" type="tel" autoComplete="off" {...field('phone')} />
      <TextField label="Address" autoComplete="off" {...field('address')} />
    </FormDialog>
  );
}
