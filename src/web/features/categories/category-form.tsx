import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { type Category, CategoryInput } from '../../../shared/categories';
import { buttonClass } from '../../components/button';
import { FormError, TextAreaField, TextField } from '../../components/form-field';
import { errorMessage } from '../../lib/api';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { notify } from '../../lib/notify';
import { useSaveCategory } from './categories-api';

const FIELDS = ['formCategory', 'formDescription'] as const;

/** The side form: adds a category, or edits the one given. */
export function CategoryForm({ editing, onDone }: { editing: Category | null; onDone: () => void }) {
  const save = useSaveCategory();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(CategoryInput),
    defaultValues: { formCategory: editing?.name ?? '', formDescription: editing?.description ?? '' },
  });

  // The page remounts this form (key) when the edited row changes; editing starts in the name box.
  useEffect(() => {
    if (editing) setFocus('formCategory');
  }, [editing, setFocus]);

  const submit = handleSubmit((input) =>
    save.mutate(
      { id: editing?._id ?? null, input },
      {
        onSuccess: () => {
          notify.success(editing ? 'Category updated.' : 'Category added.');
          reset({ formCategory: '', formDescription: '' });
          onDone();
        },
        onError: (error) => applyServerFieldErrors(error, FIELDS, setError),
      },
    ),
  );

  return (
    <section
      aria-labelledby="category-form-title"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="category-form-title" className="mb-4 text-lg font-semibold text-slate-900">
        {editing ? 'Edit Category' : 'Add New Category'}
      </h2>
      <form noValidate onSubmit={submit} className="space-y-4">
        <TextField
          label="Name"
          autoComplete="off"
          error={errors.formCategory?.message}
          {...register('formCategory')}
        />
        <TextAreaField
          label="Description"
          error={errors.formDescription?.message}
          {...register('formDescription')}
        />
        <FormError>{save.isError ? errorMessage(save.error) : null}</FormError>
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={buttonClass('primary')} disabled={save.isPending}>
            {save.isPending ? 'Saving...' : editing ? 'Save Changes' : 'Add Category'}
          </button>
          {editing ? (
            <button
              type="button"
              className={buttonClass('secondary')}
              onClick={onDone}
              disabled={save.isPending}
            >
              Cancel
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
