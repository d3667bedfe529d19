import { csvRow } from '../../shared/csv';
import { workbookFile } from './zip-files';

/**
 * Two shops' catalogues as Shopify and Square export them (DESIGN §22), made up here (no real
 * store's data) and the same on every run (a seeded generator): the presets' unit tests, the
 * import's API tests and the e2e import the same files.
 *
 * `tag` (optional) is appended to every name and SKU, and turns the barcodes, so a test can import
 * a file into a database that already holds another copy of it.
 */
export type CatalogueOptions = { tag?: string };

/** Shopify's products export, 48 columns (the Google product category gave way to Product Category). */
export const SHOPIFY_HEADERS = [
  'Handle',
  'Title',
  'Body (HTML)',
  'Vendor',
  'Product Category',
  'Type',
  'Tags',
  'Published',
  'Option1 Name',
  'Option1 Value',
  'Option1 Linked To',
  'Option2 Name',
  'Option2 Value',
  'Option2 Linked To',
  'Option3 Name',
  'Option3 Value',
  'Option3 Linked To',
  'Variant SKU',
  'Variant Grams',
  'Variant Inventory Tracker',
  'Variant Inventory Qty',
  'Variant Inventory Policy',
  'Variant Fulfillment Service',
  'Variant Price',
  'Variant Compare At Price',
  'Variant Requires Shipping',
  'Variant Taxable',
  'Unit Price Total Measure',
  'Unit Price Total Measure Unit',
  'Unit Price Base Measure',
  'Unit Price Base Measure Unit',
  'Variant Barcode',
  'Image Src',
  'Image Position',
  'Image Alt Text',
  'Gift Card',
  'SEO Title',
  'SEO Description',
  'Google Shopping / Gender',
  'Google Shopping / Age Group',
  'Google Shopping / MPN',
  'Google Shopping / Condition',
  'Google Shopping / Custom Product',
  'Variant Image',
  'Variant Weight Unit',
  'Variant Tax Code',
  'Cost per item',
  'Status',
] as const;

/** Square's item library export with two locations and two taxes: 41 columns. */
export const SQUARE_LOCATIONS = ['Main Street', 'Harbour Road'] as const;
export const SQUARE_TAXES = ['Sales Tax (8.875%)', 'Reduced Rate (4%)'] as const;
export const SQUARE_HEADERS = [
  'Token',
  'Item Name',
  'Variation Name',
  'Unit and Precision',
  'SKU',
  'Description',
  'Categories',
  'Reporting Category',
  'SEO Title',
  'SEO Description',
  'Permalink',
  'GTIN',
  'Square Online Item Visibility',
  'Item Type',
  'Weight (lb)',
  'Social Media Link Title',
  'Social Media Link Description',
  'Shipping Enabled',
  'Self-serve Ordering Enabled',
  'Delivery Enabled',
  'Pickup Enabled',
  'Price',
  'Online Sale Price',
  'Archived',
  'Sellable',
  'Contains Alcohol',
  'Stockable',
  'Skip Detail Screen in POS',
  'Option Name 1',
  'Option Value 1',
  'Default Unit Cost',
  'Default Vendor Name',
  'Default Vendor Code',
  'Enabled Main Street',
  'Current Quantity Main Street',
  'New Quantity Main Street',
  'Stock Alert Enabled Main Street',
  'Stock Alert Count Main Street',
  'Current Quantity Harbour Road',
  'Tax - Sales Tax (8.875%)',
  'Tax - Reduced Rate (4%)',
] as const;

/** The Shopify file's counts: 57 products in 187 variant rows, and 126 rows of one more image each. */
export const SHOPIFY_COUNTS = { rows: 313, products: 57, variants: 187, images: 126 } as const;
/** The Square file's rows. */
export const SQUARE_ROWS = 300;

/** The lotion in three bottles the e2e sells: the 12 oz bottle's SKU and barcode (untagged). */
export const LOTION_NAME = 'Daily Moisturising Lotion';
export const LOTION_SIZES = ['8 oz', '12 oz', '16 oz'] as const;
export const LOTION_12OZ_SKU = 'SQ-LOT-12';
export const LOTION_12OZ_BARCODE = '0301234567124';

/** A small seeded generator (mulberry32): the same numbers on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  const pick = <T>(list: readonly T[]) => list[int(0, list.length - 1)] as T;
  const money = (low: number, high: number) => (int(low * 100, high * 100) / 100).toFixed(2);
  return { next, int, pick, money };
}

/** A tag's number, to shift barcodes by (0 untagged). */
function tagNumber(tag: string): number {
  let hash = 0;
  for (const c of tag) hash = (Math.imul(hash, 31) + c.charCodeAt(0)) >>> 0;
  return tag === '' ? 0 : (hash % 9000) + 1000;
}

/** An EAN-13: twelve digits and their check digit. */
export function ean13(twelve: string): string {
  const sum = [...twelve].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${twelve}${(10 - (sum % 10)) % 10}`;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

// ---------------------------------------------------------------------------------------------
// Shopify

/** A Shopify product's options by its number of variants. */
const SHOPIFY_OPTIONS: Record<number, { kind: string; options: [string, string[]][] }> = {
  1: { kind: 'Home', options: [['Title', ['Default Title']]] },
  2: { kind: 'Candles', options: [['Size', ['Small', 'Large']]] },
  3: { kind: 'Tea', options: [['Weight', ['50 g', '100 g', '250 g']]] },
  4: {
    kind: 'Socks',
    options: [
      ['Size', ['S', 'M']],
      ['Color', ['Blue', 'Black']],
    ],
  },
  6: {
    kind: 'Tees',
    options: [
      ['Size', ['S', 'M', 'L']],
      ['Color', ['Blue', 'Black']],
    ],
  },
  12: {
    kind: 'Tees',
    options: [
      ['Size', ['S', 'M', 'L', 'XL']],
      ['Color', ['Blue', 'Black', 'White']],
    ],
  },
};
/** Variants of each of the 57 products: 187 in all (the fifth product, a tee, in twelve). */
const SHOPIFY_VARIANT_COUNTS = Array.from({ length: 57 }, (_, i) =>
  i === 4 ? 12 : ([1, 2, 3, 4, 6, 2, 3, 4, 1, 6][i % 10] as number),
);
const NOUNS: Record<string, string[]> = {
  Home: ['Stoneware Mug', 'Linen Napkin Set', 'Field Guide to Tides', 'Oak Coaster', 'Harbour Print'],
  Candles: ['Sea Salt Candle', 'Cedar Candle', 'Fig Candle', 'Amber Candle'],
  Tea: ['Breakfast Tea', 'Green Sencha', 'Rooibos Chai', 'Earl Grey'],
  Socks: ['Wool Socks', 'Hiking Socks', 'Cotton Socks'],
  Tees: ['Harbour Tee', 'Pocket Tee', 'Crew Tee', 'Long Sleeve Tee'],
};
const ADJECTIVES = [
  'Classic',
  'Coastal',
  'Everyday',
  'Heritage',
  'Morning',
  'Northern',
  'Quiet',
  'Salt',
  'Wild',
];
const VENDORS = ['Pine & Tide', 'Northwind Goods', 'Saltmarsh Studio', 'Ferry Lane'];
/** Goods sold without tax: books and food. */
const UNTAXED_KINDS = new Set(['Tea']);

/** A Shopify-layout products export of a small lifestyle shop (SHOPIFY_COUNTS), as CSV text. */
export function shopifyCatalogue(options: CatalogueOptions = {}): string {
  const rows = shopifyRows(options);
  return [SHOPIFY_HEADERS, ...rows].map((row) => csvRow(row)).join('');
}

/** The Shopify file's rows, as cells in SHOPIFY_HEADERS order. */
export function shopifyRows(options: CatalogueOptions = {}): string[][] {
  const tag = options.tag ?? '';
  const suffix = tag === '' ? '' : ` ${tag}`;
  const skuSuffix = tag === '' ? '' : `-${tag}`;
  const shift = tagNumber(tag);
  const r = random(20261202);
  const rows: string[][] = [];
  const titles = new Set<string>();
  let barcode = 0;
  SHOPIFY_VARIANT_COUNTS.forEach((count, p) => {
    const layout = SHOPIFY_OPTIONS[count] as (typeof SHOPIFY_OPTIONS)[number];
    const nouns = NOUNS[layout.kind] as string[];
    let title = `${ADJECTIVES[p % ADJECTIVES.length]} ${nouns[p % nouns.length]}`;
    for (let n = 2; titles.has(title); n++)
      title = `${ADJECTIVES[p % ADJECTIVES.length]} ${nouns[p % nouns.length]} ${n}`;
    titles.add(title);
    const handle = slug(title);
    const status = p % 11 === 7 ? 'draft' : p % 13 === 9 ? 'archived' : 'active';
    const taxed = !UNTAXED_KINDS.has(layout.kind) && p !== 8;
    const body =
      `<p>Our <strong>${title.toLowerCase()}</strong> &amp; nothing else: made by hand in small batches.</p>` +
      `<ul><li>Care: wipe clean&nbsp;&amp; air dry</li><li>It&#39;s &quot;built to last&quot; &lt;10 yr&gt;</li></ul>`;
    const combos = layout.options.reduce<string[][]>(
      (all, [, values]) => all.flatMap((combo) => values.map((value) => [...combo, value])),
      [[]],
    );
    const basePrice = r.money(6, 60);
    const images = 2 + (p < 12 ? 1 : 0);
    combos.forEach((combo, v) => {
      const first = v === 0;
      const row: Record<string, string> = {
        Handle: handle,
        'Option1 Value': combo[0] ?? '',
        'Option2 Value': combo[1] ?? '',
        'Option3 Value': combo[2] ?? '',
        'Variant SKU': `HP-${String(p + 1).padStart(3, '0')}-${v + 1}${skuSuffix}`,
        'Variant Grams': String(r.int(50, 900)),
        'Variant Inventory Tracker': 'shopify',
        'Variant Inventory Qty': String(r.int(0, 40)),
        'Variant Inventory Policy': 'deny',
        'Variant Fulfillment Service': 'manual',
        'Variant Price': basePrice,
        'Variant Compare At Price': p % 5 === 0 ? (Number(basePrice) + 5).toFixed(2) : '',
        'Variant Requires Shipping': 'TRUE',
        'Variant Taxable': taxed ? 'TRUE' : 'FALSE',
        // Some variants lack a barcode or a cost.
        'Variant Barcode':
          (p + v) % 7 === 3
            ? ''
            : ean13(`20${String(shift).padStart(4, '0')}${String(++barcode).padStart(6, '0')}`),
        'Variant Weight Unit': 'g',
        'Cost per item': (p + v) % 9 === 4 ? '' : (Number(basePrice) * 0.45).toFixed(2),
        'Variant Image': '',
      };
      if (first)
        Object.assign(row, {
          Title: `${title}${suffix}`,
          'Body (HTML)': body,
          Vendor: VENDORS[p % VENDORS.length],
          'Product Category':
            layout.kind === 'Tees' ? 'Apparel & Accessories > Clothing > Shirts & Tops' : '',
          Type: layout.kind,
          Tags: `${layout.kind.toLowerCase()}, gift`,
          Published: status === 'active' ? 'TRUE' : 'FALSE',
          'Option1 Name': layout.options[0]?.[0] ?? '',
          'Option2 Name': layout.options[1]?.[0] ?? '',
          'Option3 Name': layout.options[2]?.[0] ?? '',
          'Image Src': `https://cdn.example.com/files/${handle}-1.jpg`,
          'Image Position': '1',
          'Image Alt Text': title,
          'Gift Card': 'FALSE',
          'SEO Title': title,
          'SEO Description': `${title} from Pine & Tide.`,
          Status: status,
        });
      rows.push(SHOPIFY_HEADERS.map((header) => row[header] ?? ''));
    });
    for (let image = 2; image <= images + 1; image++)
      rows.push(
        SHOPIFY_HEADERS.map(
          (header) =>
            ({
              Handle: handle,
              'Image Src': `https://cdn.example.com/files/${handle}-${image}.jpg`,
              'Image Position': String(image),
              'Image Alt Text': `${title}, view ${image}`,
            })[header as string] ?? '',
        ),
      );
  });
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Square

const SQUARE_CATEGORIES = ['Skin care', 'Vitamins', 'First aid', 'Baby', 'Oral care', 'Cold and flu'];
const SQUARE_VENDORS = ['Healthwise Supply', 'Meridian Pharma', 'Bay Wholesale', 'Clearwater Labs'];
const SQUARE_GOODS: Record<string, string[]> = {
  'Skin care': ['Hand Cream', 'Lip Balm', 'Sun Lotion SPF 30', 'Face Wash', 'Body Oil'],
  Vitamins: ['Vitamin C', 'Vitamin D3', 'Zinc', 'Magnesium', 'Omega 3', 'Iron'],
  'First aid': ['Plasters', 'Gauze Roll', 'Antiseptic Spray', 'Cold Pack', 'Tweezers'],
  Baby: ['Nappy Cream', 'Baby Wipes', 'Baby Shampoo', 'Teething Gel'],
  'Oral care': ['Toothpaste', 'Floss', 'Mouthwash', 'Toothbrush'],
  'Cold and flu': ['Throat Lozenges', 'Nasal Spray', 'Chest Rub', 'Tissues'],
};
const SQUARE_VARIATIONS: Record<string, string[]> = {
  'Skin care': ['50 ml', '100 ml', '200 ml', '400 ml'],
  Vitamins: ['30 tablets', '60 tablets', '90 tablets', '120 tablets'],
  'First aid': ['Small', 'Medium', 'Large', 'Family'],
  Baby: ['Small', 'Medium', 'Large', 'Value'],
  'Oral care': ['Soft', 'Medium', 'Hard', 'Travel'],
  'Cold and flu': ['Single', 'Twin pack', 'Triple pack', 'Family'],
};

type SquareLine = Partial<Record<(typeof SQUARE_HEADERS)[number], string>>;

/** The Square file's rows, as cells in SQUARE_HEADERS order (SQUARE_ROWS of them). */
export function squareRows(options: CatalogueOptions = {}): string[][] {
  const tag = options.tag ?? '';
  const suffix = tag === '' ? '' : ` ${tag}`;
  const skuSuffix = tag === '' ? '' : `-${tag}`;
  const shift = tagNumber(tag);
  const r = random(17);
  const token = () =>
    Array.from({ length: 24 }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[r.int(0, 31)]).join('');
  const lines: SquareLine[] = [];
  let code = 0;
  const common = (category: string, vendor: string, taxes: [string, string]): SquareLine => ({
    'Unit and Precision': '',
    'Reporting Category': category,
    'Square Online Item Visibility': 'visible',
    'Item Type': 'Physical good',
    'Shipping Enabled': 'Y',
    'Self-serve Ordering Enabled': 'N',
    'Delivery Enabled': 'N',
    'Pickup Enabled': 'Y',
    Archived: 'N',
    Sellable: 'Y',
    'Contains Alcohol': 'N',
    Stockable: 'Y',
    'Skip Detail Screen in POS': 'N',
    'Default Vendor Name': vendor,
    'Enabled Main Street': 'Y',
    'Tax - Sales Tax (8.875%)': taxes[0],
    'Tax - Reduced Rate (4%)': taxes[1],
  });
  const stock = (): SquareLine => {
    const alert = r.next() < 0.6;
    return {
      'Current Quantity Main Street': String(r.int(0, 60)),
      'New Quantity Main Street': '',
      'Stock Alert Enabled Main Street': alert ? 'Y' : 'N',
      'Stock Alert Count Main Street': alert ? String(r.int(2, 10)) : '',
      'Current Quantity Harbour Road': String(r.int(0, 30)),
    };
  };
  // The lotion, in three bottles (Option Name 1 names its option).
  const lotionPrices = ['9.99', '12.99', '15.99'];
  LOTION_SIZES.forEach((size, i) => {
    const ounces = size.split(' ')[0] as string;
    lines.push({
      ...common('Skin care', 'Healthwise Supply', ['Y', 'N']),
      ...stock(),
      Token: token(),
      'Item Name': `${LOTION_NAME}${suffix}`,
      'Variation Name': size,
      SKU: `SQ-LOT-${ounces}${skuSuffix}`,
      Description: i === 0 ? 'Fragrance-free daily lotion for dry skin, with ceramides.' : '',
      Categories: 'Skin care, Featured',
      GTIN:
        shift === 0 && ounces === '12'
          ? LOTION_12OZ_BARCODE
          : ean13(`03${String(shift).padStart(4, '0')}${String(456700 + Number(ounces)).padStart(6, '0')}`),
      'Weight (lb)': (Number(ounces) / 16 + 0.1).toFixed(2),
      Price: lotionPrices[i] as string,
      'Default Unit Cost': (Number(lotionPrices[i]) * 0.5).toFixed(2),
      'Option Name 1': 'Size',
      'Option Value 1': size,
      'Default Vendor Code': `HW-LOT-${ounces}`,
    });
  });
  // Items of two to four variations named only by Variation Name, then items of one (Regular).
  const names = new Set<string>([LOTION_NAME]);
  let item = 0;
  while (lines.length < SQUARE_ROWS) {
    item++;
    const category = SQUARE_CATEGORIES[item % SQUARE_CATEGORIES.length] as string;
    const goods = SQUARE_GOODS[category] as string[];
    let name = goods[item % goods.length] as string;
    for (let n = 2; names.has(name); n++) name = `${goods[item % goods.length]} ${n}`;
    names.add(name);
    const left = SQUARE_ROWS - lines.length;
    const count = Math.min(left, item <= 40 ? ([2, 3, 4, 2, 3][item % 5] as number) : 1);
    // Vitamins and baby goods at the reduced rate, first aid without tax, the rest at the sales tax.
    const taxes: [string, string] =
      category === 'Vitamins' || category === 'Baby'
        ? ['N', 'Y']
        : category === 'First aid'
          ? ['N', 'N']
          : ['Y', 'N'];
    // One item has no vendor; a few are archived.
    const vendor = item === 23 ? '' : (SQUARE_VENDORS[item % SQUARE_VENDORS.length] as string);
    const archived = item % 37 === 5 ? 'Y' : 'N';
    const price = r.money(2, 40);
    const described = r.next() < 0.5;
    for (let v = 0; v < count; v++) {
      lines.push({
        ...common(category, vendor, taxes),
        ...stock(),
        Token: token(),
        'Item Name': `${name}${suffix}`,
        'Variation Name': count === 1 ? 'Regular' : (SQUARE_VARIATIONS[category] as string[])[v],
        SKU: `SQ-${String(item).padStart(3, '0')}-${v + 1}${skuSuffix}`,
        // Square writes the description on every row, or (older files) on the first only.
        Description: v === 0 || described ? `${name}: ${category.toLowerCase()} essentials.` : '',
        Categories: category,
        GTIN:
          (item + v) % 6 === 2
            ? ''
            : ean13(`03${String(shift).padStart(4, '0')}${String(++code).padStart(6, '0')}`),
        'Weight (lb)': '0.3',
        Price: (Number(price) + v * 2).toFixed(2),
        'Default Unit Cost': ((Number(price) + v * 2) * 0.55).toFixed(2),
        Archived: archived,
        'Default Vendor Code': vendor === '' ? '' : `V-${item}-${v + 1}`,
      });
    }
  }
  // A shop that oversold at Harbour Road.
  (lines[10] as SquareLine)['Current Quantity Harbour Road'] = '-2';
  return lines.map((line) => SQUARE_HEADERS.map((header) => line[header] ?? ''));
}

/** The Square export as CSV text. */
export function squareCatalogueCsv(options: CatalogueOptions = {}): string {
  return [SQUARE_HEADERS, ...squareRows(options)].map((row) => csvRow(row)).join('');
}

/** A column's letters: 0 → A, 26 → AA. */
function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The Square export as a workbook: numbers as numbers, text as inline strings, blanks left out. */
export function squareCatalogueXlsx(options: CatalogueOptions = {}): Buffer {
  const rows = [[...SQUARE_HEADERS], ...squareRows(options)];
  const xml = rows
    .map((row, r) => {
      const cells = row
        .map((text, c) => {
          const ref = `${columnLetters(c)}${r + 1}`;
          if (text === '') return '';
          // Codes (SKU, GTIN) stay text, as Square writes them; quantities and prices are numbers where
          // the number reads back as the CSV's text (12.5, not 12.50), so both files read the same.
          if (r > 0 && /^-?\d+(\.\d+)?$/.test(text) && String(Number(text)) === text && text.length < 12)
            return `<c r="${ref}"><v>${text}</v></c>`;
          return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(text)}</t></is></c>`;
        })
        .join('');
      return `<row r="${r + 1}">${cells}</row>`;
    })
    .join('');
  return workbookFile(xml);
}
