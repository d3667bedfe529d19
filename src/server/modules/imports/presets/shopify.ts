import type { ImportError } from '../../../../shared/imports';
import { cellAt, columns, quantityCell } from './columns';
import type { Preset, PresetReader } from './preset';

/**
 * Shopify's products export (DESIGN §22): one row per variant, grouped by `Handle`. The group's
 * first row carries the product (Title, Body (HTML), Vendor, Type, Published, Status, the option
 * names); its other rows carry only the handle, the option values and the Variant fields, and rows
 * after them may carry only one more image. The reader fills each variant row with its group's
 * values, so every row stands on its own, and skips the image rows.
 */

/** The columns a row of the product, not of one variant, fills from its group's first row. */
const GROUP_COLUMNS = [
  'Title',
  'Body (HTML)',
  'Vendor',
  'Product Category',
  'Type',
  'Tags',
  'Published',
  'Status',
  'Option1 Name',
  'Option2 Name',
  'Option3 Name',
] as const;

/** The columns one of which makes a row a variant's (a row with none of them is an image's). */
const VARIANT_COLUMNS = [
  'Option1 Value',
  'Option2 Value',
  'Option3 Value',
  'Variant SKU',
  'Variant Barcode',
  'Variant Price',
  'Variant Inventory Qty',
  'Variant Grams',
  'Variant Compare At Price',
  'Cost per item',
] as const;

/** Field → Shopify's header, for the fields a column holds as it is. */
const FIELD_COLUMNS = {
  item: 'Title',
  description: 'Body (HTML)',
  brand: 'Vendor',
  category: 'Type',
  option1: 'Option1 Name',
  value1: 'Option1 Value',
  option2: 'Option2 Name',
  value2: 'Option2 Value',
  option3: 'Option3 Name',
  value3: 'Option3 Value',
  sku: 'Variant SKU',
  barcode: 'Variant Barcode',
  price: 'Variant Price',
  stock: 'Variant Inventory Qty',
  cost: 'Cost per item',
  taxRate: 'Variant Taxable',
} as const;

/** The longest description a product takes. */
const MAX_DESCRIPTION = 2000;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * A product's HTML body as text: scripts and styles dropped, every tag a space, the entities
 * decoded, whitespace collapsed, at most 2,000 characters (never half a character).
 */
export function htmlText(html: string): string {
  const text = html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= MAX_DESCRIPTION) return text;
  const last = text.charCodeAt(MAX_DESCRIPTION - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? MAX_DESCRIPTION - 1 : MAX_DESCRIPTION).trimEnd();
}

/** Shopify's Status (active, draft, archived) or Published (TRUE, FALSE) as the import's active cell. */
function activeCell(text: string): string {
  const word = text.toLowerCase();
  if (word === 'active' || word === 'true') return 'true';
  if (word === 'draft' || word === 'archived' || word === 'false') return 'false';
  return text;
}

/** The column of the product's being sold: Status, or Published in exports before it. */
function activeColumn(headers: readonly string[]): string | undefined {
  const find = columns(headers);
  return find.header('Status') ?? find.header('Published');
}

function reader(headers: readonly string[]): PresetReader {
  const find = columns(headers);
  const handle = find.index('Handle');
  const group = GROUP_COLUMNS.map((header) => find.index(header)).filter((index) => index >= 0);
  const variant = VARIANT_COLUMNS.map((header) => find.index(header)).filter((index) => index >= 0);
  const body = find.index('Body (HTML)');
  const taxable = find.index('Variant Taxable');
  const quantity = find.index('Variant Inventory Qty');
  const active = find.index(activeColumn(headers) ?? '');
  const options = ([1, 2, 3] as const).map((n) => ({
    name: find.index(`Option${n} Name`),
    value: find.index(`Option${n} Value`),
  }));
  let current: { handle: string; cells: readonly string[] } | undefined;
  return {
    row(_line, raw) {
      const key = cellAt(raw, handle);
      const first = current === undefined || key === '' || key.toLowerCase() !== current.handle;
      if (first) current = { handle: key.toLowerCase(), cells: raw };
      else if (variant.every((index) => cellAt(raw, index) === '')) return { cells: null, warnings: [] };
      const product = (current as { cells: readonly string[] }).cells;
      const cells = headers.map((_, index) => raw[index] ?? '');
      for (const index of group) if (cellAt(cells, index) === '') cells[index] = product[index] ?? '';
      if (body >= 0) cells[body] = htmlText(cells[body] ?? '');
      // A product without variants is one variant, `Title` = `Default Title`: named by its item alone.
      const [one, two, three] = options.map((option) => cellAt(cells, option.value));
      if (
        one?.toLowerCase() === 'default title' &&
        cellAt(cells, options[0]?.name ?? -1).toLowerCase() === 'title' &&
        !two &&
        !three
      ) {
        for (const option of options)
          for (const index of [option.name, option.value]) if (index >= 0) cells[index] = '';
      }
      if (taxable >= 0) {
        const flag = cellAt(cells, taxable).toLowerCase();
        if (flag === 'false') cells[taxable] = 'No tax';
        else if (flag === 'true') cells[taxable] = '';
      }
      if (active >= 0) cells[active] = activeCell(cellAt(cells, active));
      const warnings: ImportError[] = [];
      if (quantity >= 0) {
        const read = quantityCell(cellAt(cells, quantity), headers[quantity] as string);
        cells[quantity] = read.cell;
        if (read.warning) warnings.push(read.warning);
      }
      return { cells, warnings };
    },
  };
}

export const shopifyPreset: Preset = {
  matches(headers) {
    const find = columns(headers);
    return (
      find.index('Handle') >= 0 &&
      find.index('Title') >= 0 &&
      (find.index('Variant SKU') >= 0 || find.index('Variant Price') >= 0)
    );
  },
  mapping(headers) {
    const find = columns(headers);
    const mapping: Record<string, string> = {};
    for (const [field, header] of Object.entries(FIELD_COLUMNS)) {
      const column = find.header(header);
      if (column !== undefined) mapping[field] = column;
    }
    const active = activeColumn(headers);
    if (active !== undefined) mapping.active = active;
    return mapping;
  },
  reader,
};
