import { type ItemOption, variantName } from '../../shared/items';
import { type CartLine, centsText, isCartProblem, priceCart } from '../../shared/money';
import { type NewMovement, recordMovements } from '../modules/stock/movements';
import type { Runner } from './connection';

type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;
type Person = { id: string; name: string; address: string };

const DAY = 86_400_000;

/** A variant of a demo item: its values, and where its stock ends after the demo's sales. */
type VariantPlan = {
  values: Record<string, string>;
  price: number;
  cost: number;
  stock: number;
  /** How often it sells, relative to its item's other variants. */
  weight: number;
  /** A discontinued size: inactive (DESIGN §22), its last units kept on the shelf. */
  inactive?: boolean;
};

type ItemPlan = {
  name: string;
  description: string;
  brand: string;
  category: { name: string; description: string };
  supplier: string;
  /** The three letters of its variants' SKUs. */
  sku: string;
  options: ItemOption[];
  variants: VariantPlan[];
};

const SHIRT_SIZES = ['S', 'M', 'L'];
const SHOE_SIZES = ['38', '39', '40', '41', '42', '43', '44', '45'];

/**
 * The demo's items (DESIGN §22): a T-shirt in three sizes × two colours (no white L: never
 * stocked), a body lotion in three bottles and a running shoe in eight sizes, one of which is
 * discontinued. Each variant is a product of its own with its SKU, barcode, price and stock.
 */
const ITEMS: ItemPlan[] = [
  {
    name: 'Classic Crew T-Shirt',
    description: 'Heavyweight cotton crew-neck T-shirt, pre-shrunk.',
    brand: 'Threadline',
    category: { name: 'Clothing', description: 'T-shirts and everyday basics.' },
    supplier: 'Threadline Apparel Co.',
    sku: 'TEE',
    options: [
      { name: 'Size', values: SHIRT_SIZES },
      { name: 'Colour', values: ['Black', 'White'] },
    ],
    variants: SHIRT_SIZES.flatMap((size) =>
      ['Black', 'White']
        .filter((colour) => !(size === 'L' && colour === 'White'))
        .map((colour) => ({
          values: { Size: size, Colour: colour },
          price: 14,
          cost: 5.2,
          stock: size === 'M' ? 18 : 9,
          weight: (size === 'M' ? 3 : size === 'L' ? 2 : 1) * (colour === 'Black' ? 2 : 1),
        })),
    ),
  },
  {
    name: 'CeraVe Moisturising Lotion',
    description: 'Daily face and body lotion with ceramides and hyaluronic acid, fragrance free.',
    brand: 'CeraVe',
    category: { name: 'Skin Care', description: 'Everything in skin care.' },
    supplier: 'Wide World Care',
    sku: 'CRV',
    options: [{ name: 'Size', values: ['8 oz', '12 oz', '16 oz'] }],
    variants: [
      { values: { Size: '8 oz' }, price: 11.99, cost: 6.4, stock: 14, weight: 2 },
      { values: { Size: '12 oz' }, price: 15.49, cost: 8.35, stock: 10, weight: 3 },
      { values: { Size: '16 oz' }, price: 18.99, cost: 10.1, stock: 6, weight: 1 },
    ],
  },
  {
    name: 'Trail Runner Shoe',
    description: 'Lightweight trail running shoe with a grippy outsole.',
    brand: 'Stride',
    category: { name: 'Footwear', description: 'Shoes for walking and running.' },
    supplier: 'Stride Footwear Supply',
    sku: 'SHO',
    options: [{ name: 'Size', values: SHOE_SIZES }],
    variants: SHOE_SIZES.map((size) => {
      const away = Math.abs(Number(size) - 41.5);
      return {
        values: { Size: size },
        price: 79,
        cost: 38.5,
        stock: size === '45' ? 1 : Math.max(2, 7 - Math.round(away * 1.5)),
        weight: Math.max(1, 5 - Math.round(away * 1.5)),
        ...(size === '45' ? { inactive: true } : {}),
      };
    }),
  },
];

/** The demo products whose names start with a house brand carry it (DESIGN §22, products' brand). */
const HOUSE_BRANDS = ['Medica', 'CarePlus', 'VitaWell', 'PureLife'];

type Variant = {
  id: string;
  name: string;
  category: string;
  price: number;
  cost: number;
  stock: number;
  weight: number;
  inactive: boolean;
  rate: { name: string; rate: string } | null;
};

/**
 * Seeds the items and their variants, each variant's opening stock through the ledger's one
 * writer (an `initial` movement at the default location, 91 days ago, enough for the sales below
 * to end at its planned stock), and ~60 days of counter sales of the variants (one to three lines,
 * paid by card, priced by the shared computation at the store's default rate), each line's units
 * leaving through a `sale` movement. The sales are numbered out of the way: seedDemo numbers every
 * sale in time order once its own are planned. The discontinued shoe size sells only before it
 * was made inactive. Needs the store's settings and tax rates, and the demo's customers.
 */
export async function seedItems(
  database: Runner,
  seed: {
    now: Date;
    admin: Person | undefined;
    sellers: Person[];
    customers: Array<{ id: string; name: string }>;
    random: () => number;
    /** The demo's n-th barcode (EAN-13 in the store's own range). */
    barcode: (n: number) => string;
  },
): Promise<void> {
  const q: Query = database.query.bind(database);
  const { now, random } = seed;
  const sellers = seed.sellers.length > 0 ? seed.sellers : seed.admin ? [seed.admin] : [];
  if (sellers.length === 0) return;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

  const [settings] = await q<{ prices_include_tax: boolean; name: string | null; rate: string | null }>(
    `select s.prices_include_tax, r.name, r.rate::text as rate
     from store_settings s left join tax_rates r on r.id = s.default_tax_rate_id where s.id = 1`,
  );
  const storeRate = settings?.name && settings.rate ? { name: settings.name, rate: settings.rate } : null;

  const items: Array<{ variants: Variant[] }> = [];
  let made = 0;
  for (const plan of ITEMS) {
    const category = await categoryNamed(q, plan.category);
    const supplier = await supplierNamed(q, plan.supplier);
    const [item] = await q<{ id: string }>(
      `insert into items (name, description, category_id, supplier_id, brand, options)
       values ($1, $2, $3, $4, $5, $6::jsonb) returning id`,
      [plan.name, plan.description, category, supplier, plan.brand, JSON.stringify(plan.options)],
    );
    const variants: Variant[] = [];
    for (const [n, variant] of plan.variants.entries()) {
      made += 1;
      const name = variantName(plan.name, plan.options, variant.values);
      const [row] = await q<{ id: string }>(
        `insert into products (name, description, price, stock, cost, category_id, supplier_id, reorder_point,
                               sku, barcode, item_id, option_values, brand)
         values ($1, $2, $3, 0, $4, $5, $6, 3, $7, $8, $9, $10::jsonb, $11) returning id`,
        [
          name,
          plan.description,
          variant.price.toFixed(2),
          variant.cost.toFixed(2),
          category,
          supplier,
          `${plan.sku}-${String(n + 1).padStart(4, '0')}`,
          seed.barcode(2000 + made),
          item?.id,
          JSON.stringify(variant.values),
          plan.brand,
        ],
      );
      variants.push({
        id: row?.id as string,
        name,
        category: plan.category.name,
        price: variant.price,
        cost: variant.cost,
        stock: variant.stock,
        weight: variant.weight,
        inactive: variant.inactive ?? false,
        rate: storeRate,
      });
    }
    items.push({ variants });
  }
  for (const brand of HOUSE_BRANDS)
    await q(`update products set brand = $1 where item_id is null and name like $2`, [brand, `${brand} %`]);

  // The sales: most in the last month, so the reports' default range shows every item.
  const discontinuedAt = now.getTime() - 40 * DAY;
  type Line = { variant: Variant; quantity: number };
  const sales: Array<{ at: Date; seller: Person; customer?: { id: string; name: string }; lines: Line[] }> =
    [];
  for (let i = 0; i < 70; i++) {
    const at = new Date(now.getTime() - (random() < 0.6 ? 1 + random() * 28 : 29 + random() * 31) * DAY);
    const { variants } = pick(items);
    const lines = new Map<string, Line>();
    const size = 1 + Math.floor(random() * random() * 3);
    while (lines.size < size) {
      const variant = weighted(variants, random);
      if (variant.inactive && at.getTime() > discontinuedAt) continue;
      lines.set(variant.id, { variant, quantity: 1 + Math.floor(random() * random() * 3) });
    }
    sales.push({
      at,
      seller: pick(sellers),
      ...(random() < 0.5 ? { customer: pick(seed.customers) } : {}),
      lines: [...lines.values()],
    });
  }
  sales.sort((a, b) => a.at.getTime() - b.at.getTime());

  // Each variant opens with its planned stock and what its sales take away.
  const sold = new Map<string, number>();
  for (const sale of sales)
    for (const line of sale.lines)
      sold.set(line.variant.id, (sold.get(line.variant.id) ?? 0) + line.quantity);
  const all = items.flatMap((item) => item.variants);
  await recordMovements(
    database,
    [...all]
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((variant) => ({
        at: new Date(now.getTime() - 91 * DAY),
        productId: variant.id,
        kind: 'initial' as const,
        quantity: variant.stock + (sold.get(variant.id) ?? 0),
        note: 'Opening stock',
        actor: seed.admin ?? null,
      })),
  );

  // The sales, each one statement of its lines; their units leave in one write of the ledger, in
  // time order (the order the trigger applies them).
  let number = 1_500_000_000;
  const leaving: NewMovement[] = [];
  for (const sale of sales) {
    const cart = priceCart({
      pricesIncludeTax: settings?.prices_include_tax ?? false,
      lines: sale.lines.map(
        (line): CartLine => ({
          unitPrice: line.variant.price.toFixed(2),
          quantity: line.quantity,
          taxRate: line.variant.rate
            ? { name: line.variant.rate.name, rate: Number(line.variant.rate.rate) }
            : null,
        }),
      ),
    });
    if (isCartProblem(cart)) throw new Error(`a demo sale of items cannot be priced: ${cart.problem}`);
    number += 1;
    const total = centsText(cart.total);
    const [row] = await q<{ id: string }>(
      `with sale as (
         insert into sales (number, user_id, user_name, customer_id, customer_name, payment_method, total,
                            subtotal, discount, tax, created_at)
         values ($1, $2, $3, $4, $5, 'card', $6, $7, $8, $9, $10) returning id
       ), paid as (
         insert into sale_payments (sale_id, n, method, amount) select id, 1, 'card', $6 from sale
       )
       select id from sale`,
      [
        number,
        sale.seller.id,
        sale.seller.name,
        sale.customer?.id ?? null,
        sale.customer?.name ?? null,
        total,
        centsText(cart.subtotal),
        centsText(cart.discount),
        centsText(cart.tax),
        sale.at.toISOString(),
      ],
    );
    const values: unknown[] = [];
    const rows = sale.lines.map((line, at) => {
      const priced = cart.lines[at];
      if (!priced) throw new Error('every demo line is priced');
      const base = values.length;
      values.push(
        sale.seller.id,
        line.variant.id,
        line.quantity,
        line.variant.price.toFixed(2),
        line.variant.cost.toFixed(2),
        centsText(priced.total),
        line.variant.name,
        line.variant.category,
        sale.seller.name,
        sale.seller.address,
        sale.at.toISOString(),
        row?.id,
        number,
        at + 1,
        sale.customer?.id ?? null,
        sale.customer?.name ?? null,
        centsText(priced.discount),
        centsText(priced.tax),
        line.variant.rate?.name ?? null,
        line.variant.rate?.rate ?? null,
      );
      return `(${Array.from({ length: 20 }, (_, k) => `$${base + k + 1}`).join(', ')})`;
    });
    const orders = await q<{ id: string; product_id: string; quantity: number }>(
      `insert into orders (user_id, product_id, quantity, unit_price, unit_cost, total_price, product_name,
                           category_name, user_name, user_address, order_date, sale_id, sale_number, sale_line,
                           customer_id, customer_name, discount, tax, tax_rate_name, tax_rate)
       values ${rows.join(', ')} returning id, product_id, quantity`,
      values,
    );
    for (const order of orders)
      leaving.push({
        at: sale.at,
        productId: order.product_id,
        kind: 'sale',
        quantity: -order.quantity,
        actor: sale.seller,
        orderId: order.id,
      });
  }
  await recordMovements(database, leaving);
  const discontinued = all.filter((variant) => variant.inactive).map((variant) => variant.id);
  if (discontinued.length > 0)
    await q('update products set active = false where id = any($1::uuid[])', [discontinued]);
}

/** A variant drawn by its weight. */
function weighted(variants: Variant[], random: () => number): Variant {
  const total = variants.reduce((sum, variant) => sum + variant.weight, 0);
  let roll = random() * total;
  for (const variant of variants) {
    roll -= variant.weight;
    if (roll < 0) return variant;
  }
  return variants[variants.length - 1] as Variant;
}

/** The category of that name, made when the demo has none. */
async function categoryNamed(q: Query, category: { name: string; description: string }): Promise<string> {
  const [found] = await q<{ id: string }>('select id from categories where name = $1', [category.name]);
  if (found) return found.id;
  const [row] = await q<{ id: string }>(
    'insert into categories (name, description) values ($1, $2) returning id',
    [category.name, category.description],
  );
  return row?.id as string;
}

/** The supplier of that name, made when the demo has none. */
async function supplierNamed(q: Query, name: string): Promise<string> {
  const [found] = await q<{ id: string }>('select id from suppliers where name = $1', [name]);
  if (found) return found.id;
  const domain = name.toLowerCase().replace(/[^a-z]+/g, '');
  const [row] = await q<{ id: string }>(
    'insert into suppliers (name, email, phone, address) values ($1, $2, $3, $4) returning id',
    [name, `orders@${domain}.example`, '+1 555 0120', '12 Garment Row, New York'],
  );
  return row?.id as string;
}
