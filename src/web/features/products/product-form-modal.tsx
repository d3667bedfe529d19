import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { Category } from '../../../shared/categories';
import type { Named } from '../../../shared/common';
import { type Product, ProductInput } from '../../../shared/products';
import { buttonClass } from '../../components/button';
import { FormError, SelectField, TextAreaField, TextField } from '../../components/form-field';
import { Modal } from '../../components/modal';
import { errorMessage } from '../../lib/api';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { notify } from '../../lib/notify';
import { useSaveProduct } from './products-api';

const FIELDS = ['name', 'description', 'price', 'stock', 'category', 'supplier'] as const;

type Props = {
  product: Product | null;
  categories: readonly Category[];
  suppliers: readonly Named[];
  onClose: () => void;
};

/** Add or edit a product; edit mode when a product is given. */
export function ProductFormModal({ product, categories, suppliers, onClose }: Props) {
  const editing = product !== null;
  const save = useSaveProduct();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(ProductInput),
    defaultValues: product
      ? {
          name: product.name,
          description: product.description,
          price: product.price,
          stock: product.stock,
          category: product.category._id,
          supplier: product.supplier._id,
        }
      : { name: '', description: '', category: '', supplier: '' },
  });

  const submit = handleSubmit((input) =>
    save.mutate(
      { id: product?._id ?? null, input },
      {
        onSuccess: () => {
          notify.success(editing ? 'Product updated.' : 'Product added.');
          onClose();
        },
        onError: (error) => applyServerFieldErrors(error, FIELDS, setError),
      },
    ),
  );

  return (
    <Modal
      title={editing ? 'Edit Product' : 'Add New Product'}
      onClose={() => !save.isPending && onClose()}
      size="lg"
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        <TextField label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
        <TextAreaField label="Description" error={errors.description?.message} {...register('description')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Price"
            type="number"
            inputMode="decimal"
            min={0}
            step="0.01"
            error={errors.price?.message}
            {...register('price', { valueAsNumber: true })}
          />
          <TextField
            label="Stock"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            error={errors.stock?.message}
            {...register('stock', { valueAsNumber: true })}
          />
          <SelectField
            label="Category"
            error={errors.category?.message && 'Choose a category.'}
            hint={categories.length === 0 ? 'Add a category first, on the Categories page.' : undefined}
            {...register('category')}
          >
            <option value="">Select category</option>
            {categories.map((category) => (
              <option key={category._id} value={category._id}>
                {category.name}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Supplier"
            error={errors.supplier?.message && 'Choose a supplier.'}
            hint={suppliers.length === 0 ? 'Add a supplier first, on the Suppliers page.' : undefined}
            {...register('supplier')}
          >
            <option value="">Select supplier</option>
            {suppliers.map((supplier) => (
              <option key={supplier._id} value={supplier._id}>
                {supplier.name}
              </option>
            ))}
          </SelectField>
        </div>
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
            {save.isPending ? 'Saving...' : editing ? 'Update Product' : 'Add Product'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
