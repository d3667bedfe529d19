import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { type Supplier, SupplierInput } from '../../../shared/suppliers';
import { buttonClass } from '../../components/button';
import { FormError, TextField } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { errorMessage } from '../../lib/api';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { notify } from '../../lib/notify';
import { useSaveSupplier } from './suppliers-api';

const FIELDS = ['name', 'email', 'phone', 'address'] as const;

/** Add or edit a supplier; edit mode when a supplier is given. */
export function SupplierFormModal({ supplier, onClose }: { supplier: Supplier | null; onClose: () => void }) {
  const editing = supplier !== null;
  const save = useSaveSupplier();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(SupplierInput),
    defaultValues: {
      name: supplier?.name ?? '',
      email: supplier?.email ?? '',
      phone: supplier?.phone ?? '',
      address: supplier?.address ?? '',
    },
  });

  const submit = handleSubmit((input) =>
    save.mutate(
      { id: supplier?._id ?? null, input },
      {
        onSuccess: () => {
          notify.success(editing ? 'Supplier updated.' : 'Supplier added.');
          onClose();
        },
        onError: (error) => applyServerFieldErrors(error, FIELDS, setError),
      },
    ),
  );

  return (
    <Modal
      title={editing ? 'Edit Supplier' : 'Add New Supplier'}
      onClose={() => !save.isPending && onClose()}
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        <TextField label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          error={errors.email?.message}
          {...register('email')}
        />
        <TextField
          label="Phone"
          type="tel"
          autoComplete="off"
          error={errors.phone?.message}
          {...register('phone')}
        />
        <TextField
          label="Address"
          autoComplete="off"
          error={errors.address?.message}
          {...register('address')}
        />
        <FormError>{save.isError ? errorMessage(save.error) : null}</FormError>
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
            {save.isPending ? 'Saving...' : editing ? 'Save Changes' : 'Add Supplier'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
