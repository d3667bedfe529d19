import { zodResolver } from '@hookform/resolvers/zod';
import { type BaseSyntheticEvent, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { Category } from '../../../shared/categories';
import type { Named } from '../../../shared/common';
import type { LotRef } from '../../../shared/lots';
import { type Product, ProductInput } from '../../../shared/products';
import { type TaxRate, taxRateLabel } from '../../../shared/store';
import { buttonClass } from '../../components/button';
import { FormDialog } from '../../components/form-dialog';
import { NamedOptions, SelectField, TextAreaField, TextField } from '../../components/form-field';
import { type NewLotErrors, NewLotFields } from '../../components/new-lot-fields';
import { itemPath } from '../../lib/admin-paths';
import { ApiRequestError, errorMessage, refusedAs } from '../../lib/api';
import { applyServerFieldErrors, fieldProps } from '../../lib/form-errors';
import { type NewLotDraft, newLotOf } from '../../lib/new-lot';
import { notify } from '../../lib/notify';
import { useStoreSettings, useTaxRates } from '../../lib/store-settings';
import { useSaveProduct } from './products-api';

const FIELDS = [
  'name',
  'description',
  'price',
  'stock',
  'category',
  'supplier',
  'cost',
  'reorderPoint',
  'reorderQuantity',
  'sku',
  'barcode',
  'taxRate',
  'tracking',
  'brand',
  'active',
] as const;

/** What an empty required number box asks for; the shared rule's "must be a number" is for junk. */
const REQUIRED_NUMBER = { price: 'Enter a price.', stock: 'Enter the stock.' } as const;

const checkProduct = zodResolver(ProductInput);

/**
 * The shared rules, with the sentence for an empty Price or Stock box: a number box that is
 * empty reaches the rules as NaN, which they call "not a number", true but not what the admin
 * needs to read.
 */
const resolver: typeof checkProduct = async (values, context, options) => {
  const result = await checkProduct(values, context, options);
  for (const field of ['price', 'stock'] as const) {
    const error = result.errors[field];
    if (error && Number.isNaN(values[field])) error.message = REQUIRED_NUMBER[field];
  }
  return result;
};

/** The tax rate select: empty is null (the store's default), anything else a rate's id. */
const rateOrDefault = { setValueAs: (value: unknown) => (value === '' || value == null ? null : value) };

/** An optional number field: empty is null (none), anything else a number for the schema to check. */
const optionalNumber = {
  setValueAs: (value: unknown) => (value === '' || value === null ? null : Number(value)),
};

type Props = {
  product: Product | null;
  categories: readonly Category[];
  suppliers: readonly Named[];
  onClose: () => void;
};

/** The stock now that a STOCK_CHANGED refusal names. */
export function changedStock(error: unknown): number | null {
  return refusedAs(error, 'STOCK_CHANGED') ? (error.stock ?? null) : null;
}

/** The code field a SKU_TAKEN or BARCODE_TAKEN refusal is about. */
export function takenCode(error: unknown): 'sku' | 'barcode' | null {
  if (refusedAs(error, 'SKU_TAKEN')) return 'sku';
  if (refusedAs(error, 'BARCODE_TAKEN')) return 'barcode';
  return null;
}

const NO_LOT: NewLotDraft = { number: '', expiresOn: '', noExpiry: false };

/** The server's sentences about the lot (details at `lot.number`, `lot.expiresOn`), by field. */
function lotFieldErrors(error: unknown): NewLotErrors {
  const found: NewLotErrors = {};
  if (!(error instanceof ApiRequestError)) return found;
  for (const detail of error.details) {
    const [head, field] = detail.path.split(/[./]/).filter(Boolean).slice(-2);
    if (head !== 'lot') continue;
    if (field === 'number') found.number ??= detail.message;
    if (field === 'expiresOn') found.expiresOn ??= detail.message;
  }
  return found;
}

/** A number box for money (cents at most) and one for a count of units, never below zero. */
const MONEY_BOX = { type: 'number', inputMode: 'decimal', min: 0, step: '0.01' } as const;
const COUNT_BOX = { type: 'number', inputMode: 'numeric', min: 0, step: 1 } as const;

/** What a scanner or a keyboard types into a code field, untouched by the phone's keyboard. */
const CODE_INPUT = {
  autoComplete: 'off',
  autoCapitalize: 'none',
  autoCorrect: 'off',
  spellCheck: false,
} as const;

/**
 * Add or edit a product; edit mode when a product is given. An edit sends the stock the form
 * showed (`expectedStock`), so sales made meanwhile are never undone: when the stock moved and
 * the form's stock was changed too, the admin chooses which number stands (DESIGN §8).
 */
export function ProductFormModal({ product, categories, suppliers, onClose }: Props) {
  const editing = product !== null;
  const save = useSaveProduct();
  const [expectedStock, setExpectedStock] = useState(product?.stock);
  const stale = changedStock(save.error);
  const taken = takenCode(save.error);
  /** The stock the refused save sent: the admin's own number. */
  const mine = save.variables?.input.stock;
  const taxRates = useTaxRates();
  const store = useStoreSettings();
  const form = useForm({
    resolver,
    defaultValues: product
      ? {
          name: product.name,
          description: product.description,
          price: product.price,
          stock: product.stock,
          category: product.category._id,
          supplier: product.supplier._id,
          cost: product.cost,
          reorderPoint: product.reorderPointFromStore ? null : product.reorderPoint,
          reorderQuantity: product.reorderQuantity,
          sku: product.sku ?? '',
          barcode: product.barcode ?? '',
          taxRate: product.taxRateDefault ? null : (product.taxRate?._id ?? null),
          tracking: product.tracking,
          brand: product.brand ?? '',
          active: product.active,
        }
      : {
          name: '',
          description: '',
          category: '',
          supplier: '',
          cost: null,
          reorderPoint: null,
          reorderQuantity: null,
          sku: '',
          barcode: '',
          taxRate: null,
          tracking: 'none' as const,
          brand: '',
          active: true,
        },
  });
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    formState: { errors },
  } = form;
  const field = fieldProps(form);
  // DESIGN §15: a lot-tracked product's stock lives in lots. Stock that becomes lot-tracked here
  // (a new product's opening stock, or the stock there is when tracking is turned on) names its lot.
  const tracking = watch('tracking');
  const stock = watch('stock');
  const lotTracked = product?.tracking === 'lot';
  const needsLot = tracking === 'lot' && !lotTracked && Number.isFinite(stock) && stock > 0;
  const [lotDraft, setLotDraft] = useState<NewLotDraft>(NO_LOT);
  const [lotErrors, setLotErrors] = useState<NewLotErrors>({});

  /** The form's lot, checked with the rest: its faults are shown with the other fields' at once. */
  const send = (expected: number | undefined) => (event?: BaseSyntheticEvent) => {
    const named = needsLot ? newLotOf(lotDraft) : null;
    setLotErrors(named?.errors ?? {});
    return handleSubmit((checked) => {
      if (named && !named.lot) return;
      const lot: LotRef | undefined = named?.lot;
      // An empty Brand box is none (null), so an edit can take a brand away.
      const input = { ...checked, brand: checked.brand?.trim() ? checked.brand : null, lot };
      save.mutate(
        { id: product?._id ?? null, input: editing ? { ...input, expectedStock: expected } : input },
        {
          onSuccess: () => {
            notify.success(editing ? 'Product updated.' : 'Product added.');
            onClose();
          },
          onError: (error) => {
            applyServerFieldErrors(error, FIELDS, setError);
            setLotErrors(lotFieldErrors(error));
            // A code another product has: said next to its field, which takes the focus.
            const code = takenCode(error);
            if (code) setError(code, { type: 'server', message: errorMessage(error) }, { shouldFocus: true });
          },
        },
      );
    })(event);
  };
  const submit = send(expectedStock);

  /** Take the stock as it is now and let the admin save again. */
  function keepCurrent(current: number) {
    setValue('stock', current);
    setExpectedStock(current);
    save.reset();
  }

  /** The admin's number stands: it is saved as a count against the stock as it is now. */
  function chooseMine(current: number) {
    setExpectedStock(current);
    void send(current)();
  }

  return (
    <FormDialog
      title={editing ? 'Edit Product' : 'Add New Product'}
      onClose={onClose}
      onSubmit={submit}
      saving={save}
      showError={stale === null && !taken}
      submitLabel={editing ? 'Update Product' : 'Add Product'}
      size="lg"
    >
      {product?.item ? (
        // DESIGN §22: a variant is named by its item and its values, so it is renamed there.
        <div className="space-y-1">
          <TextField
            label="Name"
            readOnly
            hint="A variant is named by its item and its values."
            {...field('name')}
          />
          <Link to={itemPath(product.item._id)} className="text-sm text-indigo-700 underline">
            Edit item
          </Link>
        </div>
      ) : (
        <TextField label="Name" autoComplete="off" {...field('name')} />
      )}
      <TextAreaField label="Description" {...field('description')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Brand" autoComplete="off" hint="Optional." {...field('brand')} />
        <label className="flex items-center gap-2 self-end pb-2 text-sm text-slate-800">
          <input type="checkbox" className="size-4" {...register('active')} />
          Active
          <span className="text-xs text-slate-500">(inactive: not offered or sold, history kept)</span>
        </label>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Price" {...MONEY_BOX} {...field('price', { valueAsNumber: true })} />
        <TextField
          label="Stock"
          {...COUNT_BOX}
          readOnly={lotTracked}
          hint={lotTracked ? 'Stock changes on the Stock page, by lot.' : undefined}
          {...field('stock', { valueAsNumber: true })}
        />
        <RecordSelect noun="category" page="Categories" items={categories} {...field('category')} />
        <RecordSelect noun="supplier" page="Suppliers" items={suppliers} {...field('supplier')} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="SKU" {...CODE_INPUT} hint="Your own product code. Empty: none." {...field('sku')} />
        <TextField
          label="Barcode"
          {...CODE_INPUT}
          hint="Scan it here or type it. Empty: none."
          error={errors.barcode?.message}
          // A scanner ends the code with Enter, which would otherwise save the form half filled.
          onKeyDown={(event) => event.key === 'Enter' && event.preventDefault()}
          {...register('barcode')}
        />
      </div>
      <fieldset className="space-y-2" aria-describedby="tracking-hint">
        <legend className="text-sm font-medium text-slate-700">Stock tracking</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input type="radio" value="none" className="size-4" {...register('tracking')} />
            None
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input type="radio" value="lot" className="size-4" {...register('tracking')} />
            By lot — number and expiry
          </label>
        </div>
        {errors.tracking?.message ? (
          <p id="tracking-hint" className="text-sm text-red-600">
            {errors.tracking.message}
          </p>
        ) : (
          <p id="tracking-hint" className="text-xs text-slate-500">
            {lotTracked && tracking === 'none'
              ? 'Tracking can be turned off once every lot is at 0.'
              : 'By lot: units added name their lot and expiry, and sales take the earliest expiry first.'}
          </p>
        )}
      </fieldset>
      {needsLot ? (
        <NewLotFields
          legend={editing ? 'Lot for the stock there is' : 'Opening lot'}
          hint={`The ${stock} ${stock === 1 ? 'unit' : 'units'} in stock go into this lot.`}
          draft={lotDraft}
          errors={lotErrors}
          onChange={(draft, field) => {
            setLotDraft(draft);
            setLotErrors(({ [field]: _gone, ...rest }) => rest);
          }}
        />
      ) : null}
      <TaxRateSelect
        rates={taxRates.data?.taxRates}
        own={product && !product.taxRateDefault ? product.taxRate : null}
        storeDefault={store.data?.store.defaultTaxRate}
        {...field('taxRate', rateOrDefault)}
      />
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-2 text-sm font-medium text-slate-700">Restocking</legend>
        <TextField
          label="Cost"
          {...MONEY_BOX}
          hint="What one unit costs to buy. Receiving averages it."
          {...field('cost', optionalNumber)}
        />
        <TextField
          label="Reorder point"
          {...COUNT_BOX}
          placeholder={product?.reorderPointFromStore ? String(product.reorderPoint) : undefined}
          hint={
            product?.reorderPointFromStore
              ? `Empty: the store's default (${product.reorderPoint}).`
              : "Empty: the store's default."
          }
          {...field('reorderPoint', optionalNumber)}
        />
        <TextField
          label="Reorder quantity"
          {...COUNT_BOX}
          min={1}
          hint="Empty: twice the reorder point, less stock and what is on order."
          {...field('reorderQuantity', optionalNumber)}
        />
      </fieldset>
      {stale !== null ? (
        <div
          role="alert"
          className="space-y-3 rounded-md bg-amber-50 p-3 text-sm text-amber-950 ring-1 ring-amber-200"
        >
          <p>
            {errorMessage(save.error)}. The stock is now <strong>{stale}</strong>
            {mine === undefined ? '.' : `; you entered ${mine}.`} Nothing was saved: choose which stands.
          </p>
          {/* Neither choice is the default: both are an admin's deliberate decision. */}
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              onClick={() => keepCurrent(stale)}
            >
              Keep {stale}
            </button>
            <button
              type="button"
              className={buttonClass('secondary', 'sm')}
              onClick={() => chooseMine(stale)}
            >
              Use my value
            </button>
          </div>
        </div>
      ) : null}
    </FormDialog>
  );
}

type RecordSelectProps = Omit<Parameters<typeof SelectField>[0], 'label' | 'children' | 'hint'> & {
  /** What is chosen, as the sentences say it: "category". */
  noun: string;
  /** The page where one is added: "Categories". */
  page: string;
  items: readonly Named[];
};

/** A product's category or supplier: a required choice, and where to add one when there is none. */
function RecordSelect({ noun, page, items, error, ...field }: RecordSelectProps) {
  return (
    <SelectField
      label={noun.charAt(0).toUpperCase() + noun.slice(1)}
      error={error && `Choose a ${noun}.`}
      hint={items.length === 0 ? `Add a ${noun} first, on the ${page} page.` : undefined}
      {...field}
    >
      <option value="">{`Select ${noun}`}</option>
      <NamedOptions items={items} />
    </SelectField>
  );
}

type TaxRateSelectProps = Omit<Parameters<typeof SelectField>[0], 'label' | 'children'> & {
  /** The rates to choose from; undefined while they load. */
  rates: readonly TaxRate[] | undefined;
  /** The product's own rate: a choice even before the list has loaded, so the form keeps it. */
  own: TaxRate | null;
  /** The store's default rate (null: no tax); undefined while the store loads. */
  storeDefault: TaxRate | null | undefined;
};

/** "Store default (Standard 8.875%)", then every rate: the product's tax rate (DESIGN §12). */
function TaxRateSelect({ rates, own, storeDefault, ...field }: TaxRateSelectProps) {
  const choices = [...(rates ?? [])];
  if (own && !choices.some((rate) => rate._id === own._id)) choices.push(own);
  const fallback =
    storeDefault === undefined
      ? 'Store default'
      : `Store default (${storeDefault ? taxRateLabel(storeDefault) : 'no tax'})`;
  return (
    <SelectField
      label="Tax rate"
      hint="What the till adds or includes for this product. The store default follows the store settings."
      {...field}
    >
      <option value="">{fallback}</option>
      {choices.map((rate) => (
        <option key={rate._id} value={rate._id}>
          {taxRateLabel(rate)}
        </option>
      ))}
    </SelectField>
  );
}
