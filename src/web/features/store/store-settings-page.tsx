import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import {
  STORE_MAX,
  type StoreSettings,
  StoreSettingsInput,
  type TaxRate,
  taxRateLabel,
} from '../../../shared/store';
import { buttonClass } from '../../components/button';
import { FormError, NamedOptions, SelectField, TextAreaField, TextField } from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { errorMessage } from '../../lib/api';
import { applyServerFieldErrors, fieldProps } from '../../lib/form-errors';
import { formatMoney } from '../../lib/format';
import { useLocations } from '../../lib/locations';
import { notify } from '../../lib/notify';
import { useSaveStoreSettings, useStoreSettings, useTaxRates } from './store-api';

const FIELDS = [
  'name',
  'address',
  'phone',
  'taxNumber',
  'currency',
  'receiptFooter',
  'pricesIncludeTax',
  'defaultTaxRate',
  'maxDiscountPercent',
  'defaultLocation',
  'offlineHours',
] as const;

/** Admin: the store's details (on every receipt) and its money rules (DESIGN §12). */
export function StoreSettingsPage() {
  const store = useStoreSettings();
  const rates = useTaxRates();
  return (
    <>
      <PageHeader title="Store settings" />
      <LoadState
        query={store}
        what="the store settings"
        retry={() => {
          void store.refetch();
          void rates.refetch();
        }}
      >
        {({ store: settings }) => (
          <StoreSettingsForm
            settings={settings}
            rates={rates.data?.taxRates}
            ratesFailed={rates.isError ? errorMessage(rates.error) : null}
          />
        )}
      </LoadState>
    </>
  );
}

const defaultsOf = (settings: StoreSettings) => ({
  name: settings.name,
  address: settings.address,
  phone: settings.phone,
  taxNumber: settings.taxNumber,
  currency: settings.currency,
  receiptFooter: settings.receiptFooter,
  pricesIncludeTax: settings.pricesIncludeTax,
  defaultTaxRate: settings.defaultTaxRate?._id ?? null,
  maxDiscountPercent: settings.maxDiscountPercent,
  defaultLocation: settings.defaultLocation._id,
  offlineHours: settings.offlineHours,
});

/** The default tax rate select: empty is null (no tax), anything else a rate's id. */
const rateOrNone = { setValueAs: (value: unknown) => (value === '' || value == null ? null : value) };

function StoreSettingsForm({
  settings,
  rates,
  ratesFailed,
}: {
  settings: StoreSettings;
  rates: readonly TaxRate[] | undefined;
  ratesFailed: string | null;
}) {
  const save = useSaveStoreSettings();
  const locations = useLocations();
  const form = useForm({ resolver: zodResolver(StoreSettingsInput), defaultValues: defaultsOf(settings) });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isDirty },
  } = form;
  const field = fieldProps(form);

  // The current default is a choice even before (or without) the list of rates.
  const choices = [...(rates ?? [])];
  const current = settings.defaultTaxRate;
  if (current && !choices.some((rate) => rate._id === current._id)) choices.push(current);
  // Active locations, and the current default even before (or without) the list.
  const places = (locations.data?.locations ?? []).filter(
    (location) => location.active || location._id === settings.defaultLocation._id,
  );
  if (!places.some((location) => location._id === settings.defaultLocation._id))
    places.push({ ...settings.defaultLocation, kind: 'store', address: '', active: true });
  const currency = watch('currency');
  const example = (() => {
    try {
      return /^[A-Z]{3}$/.test(currency ?? '') ? formatMoney(1234.5, currency) : null;
    } catch {
      return null;
    }
  })();

  const submit = handleSubmit((input) =>
    save.mutate(input, {
      onSuccess: (answer) => {
        notify.success('Store settings saved.');
        reset(defaultsOf(answer.store));
      },
      onError: (error) => applyServerFieldErrors(error, FIELDS, setError),
    }),
  );

  return (
    <form noValidate onSubmit={submit} className="max-w-3xl space-y-6">
      <section
        aria-labelledby="store-details-title"
        className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      >
        <h2 id="store-details-title" className="text-lg font-semibold text-slate-900">
          Details on receipts
        </h2>
        <TextField
          label="Store name"
          autoComplete="organization"
          maxLength={STORE_MAX.name}
          {...field('name')}
        />
        <TextAreaField label="Address" rows={2} {...field('address')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Phone" type="tel" autoComplete="tel" {...field('phone')} />
          <TextField
            label="Tax number"
            autoComplete="off"
            maxLength={STORE_MAX.taxNumber}
            hint="Your VAT, GST or sales tax registration, as receipts show it."
            {...field('taxNumber')}
          />
        </div>
        <TextAreaField
          label="Receipt footer"
          rows={3}
          hint={`Printed at the end of every receipt; up to ${STORE_MAX.receiptFooter} characters.`}
          {...field('receiptFooter')}
        />
      </section>

      <section
        aria-labelledby="store-money-title"
        className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      >
        <h2 id="store-money-title" className="text-lg font-semibold text-slate-900">
          Money and tax
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Currency"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={3}
            hint={
              example
                ? `An ISO 4217 code. Every screen writes money like ${example}.`
                : 'An ISO 4217 code, such as USD, EUR or GBP.'
            }
            {...field('currency', {
              setValueAs: (value: unknown) =>
                typeof value === 'string' ? value.trim().toUpperCase() : value,
            })}
          />
          <TextField
            label="Maximum discount (%)"
            type="number"
            inputMode="decimal"
            min={0}
            max={100}
            step="0.01"
            hint="The most a salesperson may give without a manager's approval. Admins are not limited."
            {...field('maxDiscountPercent', { valueAsNumber: true })}
          />
          <TextField
            label="Offline selling (hours)"
            type="number"
            inputMode="numeric"
            min={1}
            max={168}
            step="1"
            hint="How long a counter keeps selling without the network, and how old an offline sale may be when it is sent (1–168)."
            {...field('offlineHours', { valueAsNumber: true })}
          />
          <SelectField
            label="Default tax rate"
            hint={
              ratesFailed
                ? `The tax rates could not be loaded: ${ratesFailed}`
                : 'The rate of every product without its own. Add rates on the Tax rates page.'
            }
            {...field('defaultTaxRate', rateOrNone)}
          >
            <option value="">No tax</option>
            {choices.map((rate) => (
              <option key={rate._id} value={rate._id}>
                {taxRateLabel(rate)}
              </option>
            ))}
          </SelectField>
          <div className="space-y-1 self-center">
            <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
              <input
                type="checkbox"
                className="size-4 rounded border-slate-300"
                aria-describedby="prices-include-tax-hint"
                {...register('pricesIncludeTax')}
              />
              Prices include tax
            </label>
            <p id="prices-include-tax-hint" className="text-xs text-slate-500">
              On: a product's price is what the customer pays. Off: the till adds the tax.
            </p>
            {errors.pricesIncludeTax?.message ? (
              <p className="text-sm text-red-600">{errors.pricesIncludeTax.message}</p>
            ) : null}
          </div>
        </div>
      </section>

      <section
        aria-labelledby="store-stock-title"
        className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      >
        <h2 id="store-stock-title" className="text-lg font-semibold text-slate-900">
          Stock
        </h2>
        <SelectField
          label="Default location"
          hint={
            locations.isError
              ? `The locations could not be loaded: ${errorMessage(locations.error)}`
              : 'Where a sale, receipt or adjustment that names no location takes or puts stock. Add places on the Locations page.'
          }
          {...field('defaultLocation')}
        >
          <NamedOptions items={places} />
        </SelectField>
      </section>

      <FormError>{save.isError ? errorMessage(save.error) : null}</FormError>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass('primary')} disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save settings'}
        </button>
        <button
          type="button"
          className={buttonClass('secondary')}
          disabled={save.isPending || !isDirty}
          onClick={() => {
            save.reset();
            reset(defaultsOf(settings));
          }}
        >
          Undo changes
        </button>
      </div>
    </form>
  );
}
