import type { ImportError } from '../../../../shared/imports';
import { variantName } from '../../../../shared/items';
import { cellAt, columns, quantityCell } from './columns';
import type { Preset, PresetReader, StoreLocation } from './preset';

/**
 * Square's item library export (DESIGN §22): one row per variation, each carrying its item's name.
 * A variation is the value of the option `Variation` unless the row's Option Name 1–3 name its
 * options; an item of one variation called `Regular` is a product on its own. Quantities come one
 * column per location (`Current Quantity <location>`), taxes one Y/N column per rate
 * (`Tax - <name> (<rate>%)`).
 */

const QUANTITY = /^current\s+quantity\s+(.+)$/i;
const ALERT_COUNT = /^stock\s+alert\s+count\s+(.+)$/i;
const TAX = /^tax\s*-\s*(.+?)\s*\((\d+(?:\.\d+)?)\s*%\)$/i;

/** The option a variation is the value of when the row names no option. */
export const VARIATION_OPTION = 'Variation';
/** Square's name of an item's only variation. */
const SINGLE_VARIATION = 'regular';

/** Field → Square's header, for the fields a column holds as it is (the first the file has). */
const FIELD_COLUMNS: Record<string, readonly string[]> = {
  item: ['Item Name'],
  sku: ['SKU'],
  barcode: ['GTIN'],
  description: ['Description'],
  category: ['Categories', 'Category', 'Reporting Category'],
  supplier: ['Default Vendor Name'],
  price: ['Price'],
  cost: ['Default Unit Cost'],
  active: ['Archived'],
  option1: ['Option Name 1'],
  value1: ['Option Value 1'],
  option2: ['Option Name 2'],
  value2: ['Option Value 2'],
  option3: ['Option Name 3'],
  value3: ['Option Value 3'],
};

/** The file's per-location quantity columns: index, header and the location's name as written. */
function quantityColumns(headers: readonly string[]) {
  return headers.flatMap((header, index) => {
    const match = QUANTITY.exec(header.trim());
    return match ? [{ index, header, location: (match[1] as string).trim() }] : [];
  });
}

/** The file's tax columns: index and the tax cell a Y in it stands for (`<name> (<rate>%)`). */
function taxColumns(headers: readonly string[]) {
  return headers.flatMap((header, index) => {
    const match = TAX.exec(header.trim());
    return match ? [{ index, header, rate: `${(match[1] as string).trim()} (${match[2]}%)` }] : [];
  });
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function mapping(headers: readonly string[], locations: readonly StoreLocation[]): Record<string, string> {
  const find = columns(headers);
  const mapped: Record<string, string> = {};
  for (const [field, names] of Object.entries(FIELD_COLUMNS)) {
    const column = names.map((name) => find.header(name)).find((header) => header !== undefined);
    if (column !== undefined) mapped[field] = column;
  }
  for (const column of quantityColumns(headers)) {
    const location = locations.find((place) => sameName(place.name, column.location));
    if (location && mapped[`stock@${location.id}`] === undefined)
      mapped[`stock@${location.id}`] = column.header;
  }
  const alert = headers.find((header) => ALERT_COUNT.test(header.trim()));
  if (alert !== undefined) mapped.reorderPoint = alert;
  const tax = taxColumns(headers)[0];
  if (tax) mapped.taxRate = tax.header;
  return mapped;
}

function reader(headers: readonly string[]): PresetReader {
  const find = columns(headers);
  const item = find.index('Item Name');
  const variation = find.index('Variation Name');
  const description = find.index('Description');
  const archived = find.index('Archived');
  const category = ['Categories', 'Category', 'Reporting Category']
    .map((name) => find.index(name))
    .find((index) => index >= 0);
  const options = ([1, 2, 3] as const).map((n) => ({
    name: find.index(`Option Name ${n}`),
    value: find.index(`Option Value ${n}`),
  }));
  const quantities = quantityColumns(headers);
  const taxes = taxColumns(headers);
  /** Each item's description (by its name, any case), for its variations that leave it blank. */
  const descriptions = new Map<string, string>();
  return {
    row(_line, raw) {
      const cells = headers.map((_, index) => raw[index] ?? '');
      const itemName = cellAt(cells, item);
      const key = itemName.toLowerCase();
      if (description >= 0) {
        const text = cellAt(cells, description);
        if (text !== '' && !descriptions.has(key)) descriptions.set(key, text);
        else if (text === '') cells[description] = descriptions.get(key) ?? '';
      }
      const variationName = cellAt(cells, variation);
      const named = options.some((option) => cellAt(cells, option.name) !== '');
      if (!named && variationName !== '' && variationName.toLowerCase() !== SINGLE_VARIATION) {
        const [first] = options;
        if (first && first.name >= 0 && first.value >= 0) {
          cells[first.name] = VARIATION_OPTION;
          cells[first.value] = variationName;
        } else if (item >= 0) {
          // A file without option columns: each variation a product named as its variant would be.
          cells[item] = variantName(itemName, [{ name: VARIATION_OPTION }], {
            [VARIATION_OPTION]: variationName,
          });
        }
      }
      if (category !== undefined) cells[category] = (cellAt(cells, category).split(',')[0] ?? '').trim();
      if (archived >= 0) {
        const flag = cellAt(cells, archived).toLowerCase();
        if (flag === 'y' || flag === 'yes' || flag === 'true') cells[archived] = 'false';
        else if (flag === 'n' || flag === 'no' || flag === 'false') cells[archived] = 'true';
      }
      const [firstTax] = taxes;
      if (firstTax) {
        const flags = taxes.map((tax) => cellAt(cells, tax.index).toLowerCase());
        const yes = flags.findIndex((flag) => flag === 'y' || flag === 'yes');
        cells[firstTax.index] =
          yes >= 0
            ? (taxes[yes] as { rate: string }).rate
            : flags.every((flag) => flag === 'n' || flag === 'no')
              ? 'No tax'
              : '';
      }
      const warnings: ImportError[] = [];
      for (const column of quantities) {
        const read = quantityCell(cellAt(cells, column.index), column.header);
        cells[column.index] = read.cell;
        if (read.warning) warnings.push(read.warning);
      }
      return { cells, warnings };
    },
  };
}

export const squarePreset: Preset = {
  matches(headers) {
    const find = columns(headers);
    return (
      find.index('Item Name') >= 0 &&
      find.index('Variation Name') >= 0 &&
      (find.index('Token') >= 0 || find.index('SKU') >= 0)
    );
  },
  mapping,
  reader,
};
