import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { STORE_MAX, type TaxRate, TaxRateInput } from '../../../shared/store';
import { buttonClass } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormError, TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { RowActions } from '../../components/row-actions';
import { Table, Td, Th } from '../../components/table';
import { errorMessage } from '../../lib/api';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { notify } from '../../lib/notify';
import { useDeleteTaxRate, useSaveTaxRate, useStoreSettings, useTaxRates } from './store-api';

/** Admin: the store's tax rates, with a side form for adding and editing (DESIGN §12). */
export function TaxRatesPage() {
  const list = useTaxRates();
  const store = useStoreSettings();
  const remove = useDeleteTaxRate();
  const [editing, setEditing] = useState<TaxRate | null>(null);
  const [deleting, setDeleting] = useState<TaxRate | null>(null);
  const defaultId = store.data?.store.defaultTaxRate?._id;

  return (
    <>
      <PageHeader title="Tax rates" />
      <div className="grid items-start gap-6 lg:grid-cols-[20rem_1fr]">
        <TaxRateForm key={editing?._id ?? 'new'} editing={editing} onDone={() => setEditing(null)} />
        <div className="min-w-0">
          <Table caption="Tax rates">
            <thead>
              <tr>
                <Th>Name</Th>
                <Th className="text-right">Rate</Th>
                <Th stickyEnd>Actions</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              <LoadState
                query={list}
                what="the tax rates"
                colSpan={3}
                isEmpty={(data) => data.taxRates.length === 0}
                empty="No tax rates yet. Add the rates your store charges."
              >
                {(data) =>
                  data.taxRates.map((rate) => (
                    <tr
                      key={rate._id}
                      className={editing?._id === rate._id ? 'bg-indigo-50' : 'hover:bg-slate-50'}
                    >
                      <Td className="font-medium break-words">
                        {rate.name}
                        {rate._id === defaultId ? (
                          <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-normal text-slate-600">
                            Store default
                          </span>
                        ) : null}
                      </Td>
                      <Td className="text-right tabular-nums">{rate.rate}%</Td>
                      <RowActions
                        name={rate.name}
                        onEdit={() => setEditing(rate)}
                        onDelete={() => setDeleting(rate)}
                      />
                    </tr>
                  ))
                }
              </LoadState>
            </tbody>
          </Table>
          <p className="mt-3 text-sm text-slate-600">
            Receipts and past sales keep the rate they were sold at; a change here applies to the next sale.
          </p>
        </div>
      </div>

      {deleting ? (
        <ConfirmDialog
          title="Delete tax rate?"
          message={`“${deleting.name}” will be deleted. A rate that products or the store's default still use cannot be deleted: give them another rate first.`}
          busy={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting._id, {
              onSuccess: () => {
                notify.success('Tax rate deleted.');
                if (editing?._id === deleting._id) setEditing(null);
              },
              onSettled: () => setDeleting(null),
            })
          }
        />
      ) : null}
    </>
  );
}

const FIELDS = ['name', 'rate'] as const;

/** The side form: adds a rate, or edits the one given. */
function TaxRateForm({ editing, onDone }: { editing: TaxRate | null; onDone: () => void }) {
  const save = useSaveTaxRate();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<{ name: string; rate: number }>({
    resolver: zodResolver(TaxRateInput),
    defaultValues: editing ? { name: editing.name, rate: editing.rate } : { name: '' },
  });

  // The page remounts this form (key) when the edited row changes; editing starts in the name box.
  useEffect(() => {
    if (editing) setFocus('name');
  }, [editing, setFocus]);

  const submit = handleSubmit((input) =>
    save.mutate(
      { id: editing?._id ?? null, input },
      {
        onSuccess: () => {
          notify.success(editing ? 'Tax rate updated.' : 'Tax rate added.');
          reset({ name: '' });
          onDone();
        },
        onError: (error) => applyServerFieldErrors(error, FIELDS, setError),
      },
    ),
  );

  return (
    <section
      aria-labelledby="tax-rate-form-title"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="tax-rate-form-title" className="mb-4 text-lg font-semibold text-slate-900">
        {editing ? 'Edit Tax Rate' : 'Add Tax Rate'}
      </h2>
      <form noValidate onSubmit={submit} className="space-y-4">
        <TextField
          label="Name"
          autoComplete="off"
          maxLength={STORE_MAX.taxRateName}
          hint="As receipts show it, e.g. Standard or Reduced."
          error={errors.name?.message}
          {...register('name')}
        />
        <TextField
          label="Rate (%)"
          type="number"
          inputMode="decimal"
          min={0}
          max={100}
          step="0.001"
          hint="A percent with up to 3 decimals, e.g. 8.875."
          error={errors.rate?.message}
          {...register('rate', { valueAsNumber: true })}
        />
        <FormError>{save.isError ? errorMessage(save.error) : null}</FormError>
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={buttonClass('primary')} disabled={save.isPending}>
            {save.isPending ? 'Saving...' : editing ? 'Save Changes' : 'Add Tax Rate'}
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
