import { useId, useState } from 'react';
import {
  IMPORT_FIELD_HEADER,
  IMPORT_FIELDS,
  type Import,
  type ImportField,
  type ImportFormat,
  type ImportMapping,
  type ImportOptions,
  type MatchBy,
  STOCK_AT,
  type StockMode,
  stockAtLocation,
} from '../../../shared/imports';
import { buttonClass } from '../../components/button';
import { FormError, SelectField } from '../../components/form-field';
import { Table, Td, Th } from '../../components/table';
import { errorMessage } from '../../lib/api';
import { formatCount } from '../../lib/format';
import { useLocations } from '../../lib/locations';
import { counted, StepHeading, useSlow } from './import-parts';
import { useCheckImport, useSuggestMapping } from './imports-api';

const DEFAULT_OPTIONS: ImportOptions = {
  matchBy: 'sku',
  createMissing: { categories: false, suppliers: false },
  stock: 'set',
};

const MATCH_BY: readonly { value: MatchBy; label: string }[] = [
  { value: 'sku', label: 'SKU' },
  { value: 'barcode', label: 'Barcode' },
  { value: 'name', label: 'Name' },
];

const STOCK_MODES: readonly { value: StockMode; label: string; explained: string }[] = [
  {
    value: 'set',
    label: 'Set',
    explained: "The file's number becomes the stock, as after a count (of the row's Lot when it has one).",
  },
  {
    value: 'add',
    label: 'Add',
    explained: "The file's number is added to the stock (into the row's Lot), as for a delivery.",
  },
  { value: 'ignore', label: 'Ignore', explained: 'Stock stays as it is; new products start at 0.' },
];

/** DESIGN §22: the layouts a file may be read in, and what each does with its rows. */
const FORMATS: readonly { value: ImportFormat; label: string; explained: string }[] = [
  {
    value: 'generic',
    label: 'Generic spreadsheet',
    explained:
      'A column per field, as the products CSV has them; a row with an Item and option values is a variant.',
  },
  {
    value: 'shopify',
    label: 'Shopify products export',
    explained:
      "Rows grouped by Handle into an item and its variants; rows holding only an image are skipped; Variant Taxable FALSE is 'No tax'.",
  },
  {
    value: 'square',
    label: 'Square item library',
    explained:
      "Rows grouped by Item Name into an item and its variations; each location's quantity goes to the location of that name; Archived Y is inactive.",
  },
];

/**
 * The mapping the import starts from: the guess (or the last check's), kept to columns the file
 * has: its fields, and the `stock@<location id>` keys of a location's stock column (DESIGN §17).
 */
function startingMapping(item: Pick<Import, 'mapping' | 'columns'>): ImportMapping {
  const mapping: ImportMapping = {};
  for (const [key, column] of Object.entries(item.mapping)) {
    const known = (IMPORT_FIELDS as readonly string[]).includes(key) || stockAtLocation(key) !== undefined;
    if (known && item.columns.includes(column)) mapping[key as ImportField] = column;
  }
  return mapping;
}

/** How a mapping key reads: its field's header, or "Stock at <location>" for a location's column. */
function keyLabel(key: string, locationName: (id: string) => string): string {
  const location = stockAtLocation(key);
  return location === undefined
    ? IMPORT_FIELD_HEADER[key as ImportField]
    : `Stock at ${locationName(location)}`;
}

/** What stops the check before it is sent (the server refuses the same things with a 400). */
function mappingProblems(
  mapping: ImportMapping,
  matchBy: MatchBy,
  locationName: (id: string) => string,
): string[] {
  const problems: string[] = [];
  const keysOf = new Map<string, string[]>();
  for (const [key, column] of Object.entries(mapping)) {
    if (column === undefined) continue;
    keysOf.set(column, [...(keysOf.get(column) ?? []), key]);
  }
  for (const [column, keys] of keysOf) {
    if (keys.length > 1)
      problems.push(
        `The column “${column}” is chosen for ${keys.map((key) => keyLabel(key, locationName)).join(' and ')}: a column serves one field.`,
      );
  }
  if (mapping[matchBy] === undefined)
    problems.push(
      `Matching by ${IMPORT_FIELD_HEADER[matchBy]} needs a column for ${IMPORT_FIELD_HEADER[matchBy]}.`,
    );
  return problems;
}

/** Step 2: which column holds which field, how rows find their products, and the dry run. */
export function MappingStep({
  item,
  focus,
  onChecked,
}: {
  item: Import;
  focus: boolean;
  onChecked: () => void;
}) {
  const ids = useId();
  const check = useCheckImport(item._id);
  const slow = useSlow(check.isPending);
  const locations = useLocations();
  const [mapping, setMapping] = useState<ImportMapping>(() => startingMapping(item));
  const [options, setOptions] = useState<ImportOptions>(() => item.options ?? DEFAULT_OPTIONS);
  const [format, setFormat] = useState<ImportFormat>(() => item.options?.format ?? item.format);
  // DESIGN §22: another layout chosen, its mapping asked for and shown in place of this one.
  const suggest = useSuggestMapping(item._id);
  const locationName = (id: string) =>
    locations.data?.locations.find((place) => place._id === id)?.name ?? 'a location';
  const problems = mappingProblems(mapping, options.matchBy, locationName);
  const keyOf = new Map(Object.entries(mapping).map(([key, column]) => [column, key] as const));
  // A stock column for each active location, and for any the mapping names besides.
  const stockKeys = [
    ...new Set([
      ...(locations.data?.locations ?? [])
        .filter((place) => place.active)
        .map((place) => `${STOCK_AT}${place._id}`),
      ...Object.keys(mapping),
    ]),
  ].filter((key) => stockAtLocation(key) !== undefined);
  const chosen = FORMATS.find((choice) => choice.value === format);

  const setColumn = (key: string, column: string) =>
    setMapping((current) => {
      const next: Record<string, string> = { ...current };
      if (column) next[key] = column;
      else delete next[key];
      return next as ImportMapping;
    });
  const submit = () => {
    if (problems.length > 0 || suggest.isPending) return;
    check.mutate({ mapping, ...options, format }, { onSuccess: onChecked });
  };
  const columnSelect = (key: string, label: string) => (
    <SelectField
      key={key}
      label={label}
      value={(mapping as Record<string, string>)[key] ?? ''}
      disabled={suggest.isPending}
      onChange={(event) => setColumn(key, event.target.value)}
    >
      <option value="">Not imported</option>
      {item.columns.map((column, index) => (
        // Two columns may share a header; the server names a column by its text.
        // biome-ignore lint/suspicious/noArrayIndexKey: the file's own column order
        <option key={index} value={column}>
          {column}
        </option>
      ))}
    </SelectField>
  );

  return (
    <section aria-labelledby={`${ids}-heading`} className="space-y-6">
      <div className="space-y-1">
        <StepHeading id={`${ids}-heading`} focus={focus}>
          Match the columns
        </StepHeading>
        <p className="text-sm text-slate-600">
          <span className="break-all">{item.fileName}</span>: {counted(item.rows, 'row')},{' '}
          {counted(item.columns.length, 'column')}. Each field takes its values from the column chosen for it;
          columns not chosen are not imported.
        </p>
        <p className="text-sm text-slate-600">
          A row with a Lot is a lot-tracked product: its stock goes into that lot, which expires on the row's
          Expiry (YYYY-MM-DD; empty when it does not expire).
        </p>
        <p className="text-sm text-slate-600">
          An empty cell keeps what the product already has (a new product takes the default); a cell holding
          only <code className="font-mono">-</code> clears it.
        </p>
      </div>

      <div className="space-y-2">
        <div className="max-w-sm">
          <SelectField
            label="Read as"
            value={format}
            disabled={suggest.isPending}
            aria-describedby={`${ids}-format-hint`}
            onChange={(event) =>
              suggest.mutate(event.target.value as ImportFormat, {
                onSuccess: (answer) => {
                  setFormat(answer.format);
                  setMapping(startingMapping({ mapping: answer.mapping, columns: item.columns }));
                },
              })
            }
          >
            {FORMATS.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </SelectField>
        </div>
        <p id={`${ids}-format-hint`} className="text-sm text-slate-600">
          {item.format !== 'generic' && format === item.format ? 'Recognised from the headers. ' : ''}
          {chosen?.explained}
        </p>
        {suggest.isPending ? (
          <p role="status" className="text-sm text-slate-600">
            Matching the columns as {FORMATS.find((choice) => choice.value === suggest.variables)?.label}{' '}
            reads them...
          </p>
        ) : null}
        {suggest.isError ? (
          <FormError>
            The columns could not be matched for that layout: {errorMessage(suggest.error)}
          </FormError>
        ) : null}
      </div>

      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-slate-900">Columns</legend>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {IMPORT_FIELDS.map((field) => columnSelect(field, IMPORT_FIELD_HEADER[field]))}
          {stockKeys.map((key) => columnSelect(key, keyLabel(key, locationName)))}
        </div>
        {locations.isError ? (
          <FormError>The locations could not be loaded: {errorMessage(locations.error)}</FormError>
        ) : null}
      </fieldset>

      <section aria-labelledby={`${ids}-preview`} className="space-y-2">
        <h3 id={`${ids}-preview`} className="text-sm font-semibold text-slate-900">
          The file's first rows
        </h3>
        <Table caption={`First ${counted(item.preview.length, 'row')} of ${item.fileName}`}>
          <thead>
            <tr>
              {item.columns.map((column, index) => {
                const key = keyOf.get(column);
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the file's own column order
                  <Th key={index} className={key ? 'bg-indigo-50' : ''}>
                    <span className="block max-w-64 truncate normal-case" title={column}>
                      {column || '(no header)'}
                    </span>
                    {key ? (
                      <span className="mt-0.5 block text-[11px] font-medium text-indigo-700 normal-case">
                        → {keyLabel(key, locationName)}
                      </span>
                    ) : (
                      <span className="mt-0.5 block text-[11px] font-normal text-slate-400 normal-case">
                        not imported
                      </span>
                    )}
                  </Th>
                );
              })}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {item.preview.map((cells, row) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the file's own row order
              <tr key={row}>
                {item.columns.map((column, index) => (
                  <Td
                    // biome-ignore lint/suspicious/noArrayIndexKey: the file's own column order
                    key={index}
                    className={`max-w-64 truncate whitespace-nowrap ${keyOf.has(column) ? '' : 'text-slate-400'}`}
                  >
                    {cells[index] ?? ''}
                  </Td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      </section>

      <div className="grid gap-6 lg:grid-cols-3">
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-slate-900">Find existing products by</legend>
          <p id={`${ids}-match-hint`} className="text-xs text-slate-500">
            A row that finds no product creates one. By SKU or barcode, a row without one is found by its name
            when exactly one product has it.
          </p>
          {MATCH_BY.map((choice) => (
            <label key={choice.value} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name={`${ids}-match`}
                value={choice.value}
                checked={options.matchBy === choice.value}
                onChange={() => setOptions((current) => ({ ...current, matchBy: choice.value }))}
                aria-describedby={`${ids}-match-hint`}
                className="h-4 w-4 border-slate-300"
              />
              {choice.label}
            </label>
          ))}
        </fieldset>

        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-slate-900">Missing categories and suppliers</legend>
          <p id={`${ids}-missing-hint`} className="text-xs text-slate-500">
            Otherwise a row naming one the store does not have is an error.
          </p>
          {(['categories', 'suppliers'] as const).map((kind) => (
            <label key={kind} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                checked={options.createMissing[kind]}
                onChange={(event) =>
                  setOptions((current) => ({
                    ...current,
                    createMissing: { ...current.createMissing, [kind]: event.target.checked },
                  }))
                }
                aria-describedby={`${ids}-missing-hint`}
                className="h-4 w-4 rounded border-slate-300"
              />
              Create missing {kind}
            </label>
          ))}
        </fieldset>

        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-slate-900">Stock in the file</legend>
          {STOCK_MODES.map((mode) => (
            <label key={mode.value} className="flex items-start gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name={`${ids}-stock`}
                value={mode.value}
                checked={options.stock === mode.value}
                onChange={() => setOptions((current) => ({ ...current, stock: mode.value }))}
                aria-describedby={`${ids}-stock-${mode.value}`}
                className="mt-0.5 h-4 w-4 border-slate-300"
              />
              <span>
                {mode.label}
                <span id={`${ids}-stock-${mode.value}`} className="block text-xs text-slate-500">
                  {mode.explained}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
      </div>

      <div className="space-y-3">
        {problems.length > 0 ? (
          <ul id={`${ids}-problems`} className="list-disc space-y-1 pl-5 text-sm text-red-700">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        ) : null}
        {check.isError ? (
          <FormError>The file could not be checked: {errorMessage(check.error)}</FormError>
        ) : null}
        {check.isPending ? (
          <p role="status" className="text-sm text-slate-600">
            {slow
              ? `Still checking ${formatCount(item.rows)} rows: a large file takes a little while.`
              : `Checking ${counted(item.rows, 'row')}...`}
          </p>
        ) : null}
        <button
          type="button"
          className={buttonClass('primary')}
          onClick={submit}
          disabled={check.isPending || suggest.isPending || problems.length > 0}
          aria-describedby={problems.length > 0 ? `${ids}-problems` : undefined}
        >
          {check.isPending ? 'Checking...' : 'Check file'}
        </button>
        <p className="text-xs text-slate-500">Checking writes nothing: you see every row's result first.</p>
      </div>
    </section>
  );
}
