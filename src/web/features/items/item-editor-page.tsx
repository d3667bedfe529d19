import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import type { Named } from '../../../shared/common';
import { type Item, ItemInput, ItemUpdateInput, MAX_OPTIONS, VariantInput } from '../../../shared/items';
import { taxRateLabel } from '../../../shared/store';
import { buttonClass } from '../../components/button';
import {
  controlClass,
  FormError,
  NamedOptions,
  SelectField,
  TextAreaField,
  TextField,
} from '../../components/form-field';
import { LoadState } from '../../components/load-state';
import { PageHeader } from '../../components/page-header';
import { Table, Td, Th } from '../../components/table';
import { ITEMS_PATH, stockPath } from '../../lib/admin-paths';
import { ApiRequestError, errorMessage, refusedAs } from '../../lib/api';
import { notify } from '../../lib/notify';
import { useProductChoices } from '../../lib/product-choices';
import { useMoney, useTaxRates } from '../../lib/store-settings';
import { useDocumentTitle } from '../../lib/use-document-title';
import {
  type Combination,
  combinationLabel,
  combinations,
  draftOf,
  emptyRow,
  existingByKey,
  newId,
  type OptionDraft,
  optionsInput,
  type RowDraft,
  type RowField,
  variantInputOf,
} from './item-draft';
import { itemQuery, useSaveItem } from './items-api';

/** Admin: a new item (`/items/new`) or one item's editor (`/items/:id`), DESIGN §22. */
export function ItemEditorPage() {
  const { id } = useParams();
  const choices = useProductChoices();
  const item = useQuery({ ...itemQuery(id ?? ''), enabled: id !== undefined });
  useDocumentTitle(id ? 'Edit item' : 'New item');
  return (
    <>
      <PageHeader title={id ? 'Edit item' : 'New item'}>
        <Link to={ITEMS_PATH} className={buttonClass('secondary')}>
          Back to Items
        </Link>
      </PageHeader>
      {id === undefined ? (
        <LoadState query={choices} what="the categories and suppliers">
          {({ categories, suppliers }) => (
            <ItemForm item={null} categories={categories} suppliers={suppliers} />
          )}
        </LoadState>
      ) : (
        // The item and the choices load together, and one Try again asks again for whichever failed.
        <LoadState
          query={{
            data: item.data && choices.data ? { ...item.data, ...choices.data } : undefined,
            error: item.error ?? choices.error,
            isError: item.isError || choices.isError,
            isFetching: item.isFetching || choices.isFetching,
            refetch: () => {
              if (item.isError) void item.refetch();
              if (choices.isError) void choices.refetch();
            },
          }}
          what={item.isError ? 'the item' : 'the categories and suppliers'}
          missing="This item does not exist."
        >
          {({ item: loaded, categories, suppliers }) => (
            <ItemForm key={loaded._id} item={loaded} categories={categories} suppliers={suppliers} />
          )}
        </LoadState>
      )}
    </>
  );
}

type Fields = { name: string; description: string; category: string; supplier: string; brand: string };
/** Messages by field: `name`, `options`, `row:<key>:<field>`. */
type Errors = Record<string, string>;

const NUMBER_BOX = { type: 'number', inputMode: 'decimal', min: 0, step: '0.01' } as const;
const CODE_INPUT = {
  autoComplete: 'off',
  autoCapitalize: 'none',
  autoCorrect: 'off',
  spellCheck: false,
} as const;

/** Where a refusal is said: beside the options, beside the matrix, or at the foot of the form. */
function refusalPlace(error: unknown): 'options' | 'matrix' | 'form' {
  if (refusedAs(error, 'OPTION_VALUE_IN_USE', 'ITEM_OPTIONS_FIXED')) return 'options';
  if (refusedAs(error, 'VARIANT_EXISTS', 'SKU_TAKEN', 'BARCODE_TAKEN')) return 'matrix';
  return 'form';
}

/** A zod issue's first message per place: `variants.2.price` goes to the row the variant came of. */
function issuesOf(error: z.ZodError, rowKeys: readonly string[]): Errors {
  const found: Errors = {};
  for (const issue of error.issues) {
    const [head, index, field] = issue.path.map(String);
    let place = head ?? 'form';
    if (head === 'variants' && index !== undefined) {
      const key = rowKeys[Number(index)];
      place = key === undefined ? 'matrix' : `row:${key}:${field ?? 'price'}`;
    } else if (head === 'options') place = 'options';
    found[place] ??= field === 'price' && issue.message.includes('number') ? 'Enter a price.' : issue.message;
  }
  return found;
}

function ItemForm({
  item,
  categories,
  suppliers,
}: {
  item: Item | null;
  categories: readonly Named[];
  suppliers: readonly Named[];
}) {
  const navigate = useNavigate();
  const save = useSaveItem();
  const money = useMoney();
  const taxRates = useTaxRates();
  const [fields, setFields] = useState<Fields>({
    name: item?.name ?? '',
    description: item?.description ?? '',
    category: item?.category._id ?? '',
    supplier: item?.supplier._id ?? '',
    brand: item?.brand ?? '',
  });
  const [options, setOptions] = useState<OptionDraft[]>(() => (item ? draftOf(item) : []));
  const [rows, setRows] = useState<Record<string, RowDraft>>({});
  const [errors, setErrors] = useState<Errors>({});
  const editing = item !== null;
  // DESIGN §22: once an item has variants its options stay (their values may change).
  const optionsFixed = editing && item.variants.length > 0;
  const existing = existingByKey(item?.variants ?? [], options);
  const matrix = combinations(options);
  const rowOf = (key: string) => rows[key] ?? emptyRow(!editing);
  const setRow = (key: string, change: Partial<RowDraft>) => {
    setRows((now) => ({ ...now, [key]: { ...(now[key] ?? emptyRow(!editing)), ...change } }));
    setErrors(({ matrix: _gone, ...rest }) => rest);
  };
  const setField = (name: keyof Fields, value: string) => {
    setFields((now) => ({ ...now, [name]: value }));
    setErrors(({ [name]: _gone, ...rest }) => rest);
  };
  const changeOptions = (change: (now: OptionDraft[]) => OptionDraft[]) => {
    setOptions(change);
    setErrors(({ options: _gone, ...rest }) => rest);
  };

  /** The new combinations to make, in the matrix's order. */
  const toMake: Combination[] = matrix.filter(
    (combination) => !existing.has(combination.key) && rowOf(combination.key).include,
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    save.reset();
    const base = {
      name: fields.name,
      description: fields.description,
      category: fields.category,
      supplier: fields.supplier,
      brand: fields.brand.trim() === '' ? null : fields.brand,
      options: optionsInput(options),
    };
    const variants = toMake.map((combination) => variantInputOf(rowOf(combination.key), combination, true));
    const keys = toMake.map((combination) => combination.key);
    const found: Errors = {};
    if (!fields.category) found.category = 'Choose a category.';
    if (!fields.supplier) found.supplier = 'Choose a supplier.';
    if (item === null) {
      const checked = ItemInput.safeParse({ ...base, variants });
      if (!checked.success) Object.assign(found, { ...issuesOf(checked.error, keys), ...found });
      if (variants.length === 0)
        found.matrix ??= 'Keep at least one combination: an item is sold as its variants.';
      if (Object.keys(found).length > 0) return setErrors(found);
      save.mutate(
        { id: null, input: { ...base, variants } },
        { onSuccess: () => done('Item created.'), onError: (error) => setErrors(serverErrors(error)) },
      );
      return;
    }
    const checked = ItemUpdateInput.safeParse(base);
    if (!checked.success) Object.assign(found, { ...issuesOf(checked.error, keys), ...found });
    variants.forEach((variant, index) => {
      const one = VariantInput.safeParse(variant);
      if (!one.success)
        for (const issue of one.error.issues) {
          const field = String(issue.path[0] ?? 'price');
          found[`row:${keys[index]}:${field}`] ??=
            field === 'price' && issue.message.includes('number') ? 'Enter a price.' : issue.message;
        }
    });
    if (Object.keys(found).length > 0) return setErrors(found);
    save.mutate(
      { id: item._id, input: base, variants },
      { onSuccess: () => done('Item saved.'), onError: (error) => setErrors(serverErrors(error)) },
    );
  }

  function done(message: string) {
    notify.success(message);
    void navigate(ITEMS_PATH);
  }

  /** The server's field sentences by place (a refusal's sentence is said by `refusalPlace`). */
  function serverErrors(error: unknown): Errors {
    const found: Errors = {};
    if (!(error instanceof ApiRequestError)) return found;
    for (const detail of error.details) {
      const [head] = detail.path.split(/[./]/).filter(Boolean);
      if (head && ['name', 'description', 'category', 'supplier', 'brand'].includes(head))
        found[head] ??= detail.message;
    }
    return found;
  }

  const refusal = save.isError ? refusalPlace(save.error) : null;
  const refused = save.isError ? errorMessage(save.error) : '';
  const optionNames = options.map((option, index) => option.name.trim() || `Option ${index + 1}`);

  return (
    <form noValidate onSubmit={submit} className="space-y-6" aria-label={editing ? 'Edit item' : 'New item'}>
      <section className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2">
        <TextField
          label="Name"
          autoComplete="off"
          value={fields.name}
          error={errors.name}
          onChange={(event) => setField('name', event.target.value)}
        />
        <TextField
          label="Brand"
          autoComplete="off"
          hint="Optional."
          value={fields.brand}
          error={errors.brand}
          onChange={(event) => setField('brand', event.target.value)}
        />
        <div className="sm:col-span-2">
          <TextAreaField
            label="Description"
            value={fields.description}
            error={errors.description}
            onChange={(event) => setField('description', event.target.value)}
          />
        </div>
        <SelectField
          label="Category"
          value={fields.category}
          error={errors.category}
          onChange={(event) => setField('category', event.target.value)}
        >
          <option value="">Select category</option>
          <NamedOptions items={categories} />
        </SelectField>
        <SelectField
          label="Supplier"
          value={fields.supplier}
          error={errors.supplier}
          onChange={(event) => setField('supplier', event.target.value)}
        >
          <option value="">Select supplier</option>
          <NamedOptions items={suppliers} />
        </SelectField>
      </section>

      <fieldset className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <legend className="px-1 text-sm font-semibold text-slate-800">Options</legend>
        <p className="text-xs text-slate-500">
          Up to {MAX_OPTIONS}, such as Size or Colour. Type a value and press Enter to add it.
          {optionsFixed ? ' This item has variants: its options stay, their values may change.' : ''}
        </p>
        {options.map((option, index) => (
          <OptionEditor
            key={option.id}
            option={option}
            label={optionNames[index] ?? `Option ${index + 1}`}
            number={index + 1}
            fixed={optionsFixed}
            inUse={(valueId) => [...existing.keys()].some((key) => key.split('|').includes(valueId))}
            onChange={(next) => changeOptions((now) => now.map((one) => (one.id === option.id ? next : one)))}
            onRemove={() => changeOptions((now) => now.filter((one) => one.id !== option.id))}
          />
        ))}
        <button
          type="button"
          className={buttonClass('secondary', 'sm')}
          disabled={options.length >= MAX_OPTIONS || optionsFixed}
          onClick={() => changeOptions((now) => [...now, { id: newId(), name: '', values: [] }])}
        >
          Add option
        </button>
        <FormError>{errors.options}</FormError>
        {refusal === 'options' ? <FormError>{refused}</FormError> : null}
      </fieldset>

      <section className="space-y-2">
        <h2 className="text-base font-semibold text-slate-900">Variants</h2>
        <p className="text-xs text-slate-500">
          One row per combination of the values. A combination you do not sell can be left out.
        </p>
        <Table caption="Variants">
          <thead>
            <tr>
              <Th>Variant</Th>
              <Th>SKU</Th>
              <Th>Barcode</Th>
              <Th>Price</Th>
              <Th>Cost</Th>
              <Th>Stock</Th>
              <Th>Tax rate</Th>
              <Th>Leave out</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {matrix.map((combination) => {
              const label = combinationLabel(combination);
              const made = existing.get(combination.key);
              if (made)
                return (
                  <tr key={combination.key}>
                    <th scope="row" className="px-3 py-2.5 text-left font-medium text-slate-900 sm:px-4">
                      {label}
                    </th>
                    <Td>{made.sku ?? '—'}</Td>
                    <Td>{made.barcode ?? '—'}</Td>
                    <Td className="tabular-nums">{money(made.price)}</Td>
                    <Td className="tabular-nums">{made.cost == null ? '—' : money(made.cost)}</Td>
                    <Td className="tabular-nums">
                      <Link
                        to={stockPath(made._id)}
                        className="text-indigo-700 hover:underline"
                        aria-label={`Stock of ${label}: ${made.stock}`}
                      >
                        {made.stock}
                      </Link>
                    </Td>
                    <Td>
                      {made.taxRateDefault || !made.taxRate ? 'Store default' : taxRateLabel(made.taxRate)}
                    </Td>
                    <Td className="text-xs text-slate-500">{made.active ? 'Made' : 'Made, inactive'}</Td>
                  </tr>
                );
              const row = rowOf(combination.key);
              if (editing && !row.include)
                return (
                  <tr key={combination.key}>
                    <th scope="row" className="px-3 py-2.5 text-left font-medium text-slate-500 sm:px-4">
                      {label}
                    </th>
                    <td className="px-3 py-2.5 text-sm text-slate-500 sm:px-4" colSpan={6}>
                      Not made.
                    </td>
                    <Td>
                      <button
                        type="button"
                        className={buttonClass('secondary', 'sm')}
                        aria-label={`Add variant ${label}`}
                        onClick={() => setRow(combination.key, { include: true })}
                      >
                        Add variant
                      </button>
                    </Td>
                  </tr>
                );
              return (
                <MatrixRow
                  key={combination.key}
                  label={label}
                  row={row}
                  errors={errors}
                  rowKey={combination.key}
                  taxRates={taxRates.data?.taxRates ?? []}
                  onChange={(change) => setRow(combination.key, change)}
                />
              );
            })}
          </tbody>
        </Table>
        <FormError>{errors.matrix}</FormError>
        {refusal === 'matrix' ? <FormError>{refused}</FormError> : null}
      </section>

      {refusal === 'form' ? <FormError>{refused}</FormError> : null}
      <div className="flex gap-2">
        <button type="submit" className={buttonClass('primary')} disabled={save.isPending}>
          {save.isPending ? 'Saving...' : editing ? 'Save item' : 'Create item'}
        </button>
        <Link to={ITEMS_PATH} className={buttonClass('secondary')}>
          Cancel
        </Link>
      </div>
    </form>
  );
}

/** A new combination's boxes: SKU, barcode, price, cost, opening stock, tax rate, and Leave out. */
function MatrixRow({
  label,
  row,
  rowKey,
  errors,
  taxRates,
  onChange,
}: {
  label: string;
  row: RowDraft;
  rowKey: string;
  errors: Errors;
  taxRates: readonly { _id: string; name: string; rate: number }[];
  onChange: (change: Partial<RowDraft>) => void;
}) {
  const off = !row.include;
  const box = (field: RowField, name: string, extra: object = {}) => {
    const error = errors[`row:${rowKey}:${field}`];
    return (
      <div>
        <input
          aria-label={`${name} of ${label}`}
          aria-invalid={error ? true : undefined}
          title={error}
          disabled={off}
          value={row[field]}
          onChange={(event) => onChange({ [field]: event.target.value })}
          // A scanner ends a barcode with Enter, which must not save the form half filled.
          onKeyDown={(event) => event.key === 'Enter' && event.preventDefault()}
          className={`${controlClass(error)} min-w-20`}
          {...extra}
        />
        {error ? <p className="mt-1 text-xs text-red-600">{error}</p> : null}
      </div>
    );
  };
  return (
    <tr className={off ? 'bg-slate-50 text-slate-400' : undefined}>
      <th scope="row" className="px-3 py-2.5 text-left font-medium text-slate-900 sm:px-4">
        {label}
      </th>
      <Td>{box('sku', 'SKU', CODE_INPUT)}</Td>
      <Td>{box('barcode', 'Barcode', CODE_INPUT)}</Td>
      <Td>{box('price', 'Price', NUMBER_BOX)}</Td>
      <Td>{box('cost', 'Cost', NUMBER_BOX)}</Td>
      <Td>{box('stock', 'Stock', { ...NUMBER_BOX, step: 1, inputMode: 'numeric' })}</Td>
      <Td>
        <select
          aria-label={`Tax rate of ${label}`}
          disabled={off}
          value={row.taxRate}
          onChange={(event) => onChange({ taxRate: event.target.value })}
          className={controlClass()}
        >
          <option value="">Store default</option>
          {taxRates.map((rate) => (
            <option key={rate._id} value={rate._id}>
              {taxRateLabel(rate)}
            </option>
          ))}
        </select>
      </Td>
      <Td>
        <input
          type="checkbox"
          className="size-4"
          aria-label={`Leave out ${label}`}
          checked={off}
          onChange={(event) => onChange({ include: !event.target.checked })}
        />
      </Td>
    </tr>
  );
}

/** An option: its name, its values as chips (each renamable and removable), and a box that adds one. */
function OptionEditor({
  option,
  label,
  number,
  fixed,
  inUse,
  onChange,
  onRemove,
}: {
  option: OptionDraft;
  label: string;
  number: number;
  fixed: boolean;
  inUse: (valueId: string) => boolean;
  onChange: (next: OptionDraft) => void;
  onRemove: () => void;
}) {
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState('');
  const hintId = useId();

  function addValue() {
    const text = typed.trim();
    if (!text) return;
    if (option.values.some((value) => value.text.trim().toLowerCase() === text.toLowerCase())) {
      setProblem(`${label} has ${text} already.`);
      return;
    }
    onChange({ ...option, values: [...option.values, { id: newId(), text }] });
    setTyped('');
    setProblem('');
  }

  function onKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    addValue();
  }

  return (
    <div className="space-y-2 rounded-md border border-slate-200 p-3">
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <TextField
            label={`Option ${number} name`}
            placeholder="Size"
            autoComplete="off"
            value={option.name}
            onChange={(event) => onChange({ ...option, name: event.target.value })}
            onKeyDown={(event) => event.key === 'Enter' && event.preventDefault()}
          />
        </div>
        <button
          type="button"
          className={buttonClass('ghost', 'sm')}
          disabled={fixed}
          aria-label={`Remove option ${label}`}
          onClick={onRemove}
        >
          Remove option
        </button>
      </div>
      <ul aria-label={`Values of ${label}`} className="flex flex-wrap gap-2">
        {option.values.map((value, index) => {
          const used = inUse(value.id);
          return (
            <li
              key={value.id}
              className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-1 pl-2"
            >
              <input
                aria-label={`${label} value ${index + 1}`}
                value={value.text}
                size={Math.max(3, value.text.length)}
                onChange={(event) =>
                  onChange({
                    ...option,
                    values: option.values.map((one) =>
                      one.id === value.id ? { ...one, text: event.target.value } : one,
                    ),
                  })
                }
                onKeyDown={(event) => event.key === 'Enter' && event.preventDefault()}
                className="rounded border-0 bg-transparent px-1 text-sm text-indigo-900 focus:bg-white"
              />
              <button
                type="button"
                className="rounded-full px-1.5 text-indigo-700 hover:bg-indigo-100 disabled:opacity-40"
                aria-label={`Remove ${value.text || 'value'} from ${label}`}
                title={used ? 'A variant has this value.' : undefined}
                disabled={used}
                onClick={() =>
                  onChange({ ...option, values: option.values.filter((one) => one.id !== value.id) })
                }
              >
                ×
              </button>
            </li>
          );
        })}
      </ul>
      <div className="flex items-end gap-2">
        <div className="w-56">
          <TextField
            label={`New value for ${label}`}
            placeholder={`Another ${label.toLowerCase()}`}
            autoComplete="off"
            value={typed}
            error={problem || undefined}
            aria-describedby={hintId}
            onChange={(event) => {
              setTyped(event.target.value);
              setProblem('');
            }}
            onKeyDown={onKey}
          />
        </div>
        <button type="button" className={buttonClass('secondary', 'sm')} onClick={addValue}>
          Add value
        </button>
        <span id={hintId} className="sr-only">
          Press Enter to add the value.
        </span>
      </div>
    </div>
  );
}
