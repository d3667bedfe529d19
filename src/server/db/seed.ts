import {
  type Cart,
  centsText,
  type Discount,
  isCartProblem,
  type PricedCart,
  priceCart,
  refundDue,
  toCents,
} from '../../shared/money';
import { PRODUCT_NAME } from '../../shared/product';
import { purchaseOrderNumber } from '../../shared/purchasing';
import type { Role } from '../../shared/roles';
import { hashPassword } from '../lib/passwords';
import { writeHistory } from '../modules/accounting/journal';
import { type MovementReason, recordMovements } from '../modules/stock/movements';
import type { Database } from './connection';
import { seedBills } from './seed-bills';
import { seedImports } from './seed-imports';
import { seedItems } from './seed-items';
import { seedLocations } from './seed-locations';
import { seedLots } from './seed-lots';
import { seedStocktakes } from './seed-stocktakes';
import { seedTill } from './seed-till';

/** A small deterministic random generator, so every demo database is the same. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const CATALOGUE: Record<string, string[]> = {
  'Pain Relief': [
    'Paracetamol 500mg',
    'Ibuprofen 200mg',
    'Aspirin 300mg',
    'Naproxen 250mg',
    'Pain Relief Gel',
  ],
  'Cold & Flu': ['Cough Syrup', 'Throat Lozenges', 'Nasal Spray', 'Decongestant Tablets', 'Vapour Rub'],
  'Vitamins & Supplements': [
    'Vitamin C 1000mg',
    'Vitamin D3',
    'Multivitamin',
    'Omega-3 Fish Oil',
    'Zinc Tablets',
    'Magnesium',
  ],
  'First Aid': [
    'Adhesive Bandages',
    'Gauze Pads',
    'Antiseptic Wipes',
    'Elastic Bandage',
    'Medical Tape',
    'Burn Gel',
  ],
  'Personal Care': ['Hand Sanitiser', 'Body Lotion', 'Shampoo', 'Deodorant', 'Lip Balm'],
  'Oral Care': ['Toothpaste', 'Toothbrush Soft', 'Mouthwash', 'Dental Floss', 'Whitening Strips'],
  'Baby Care': ['Baby Wipes', 'Nappy Cream', 'Baby Shampoo', 'Infant Paracetamol', 'Teething Gel'],
  'Skin Care': ['Sunscreen SPF50', 'Moisturiser', 'Aloe Vera Gel', 'Hydrocortisone Cream', 'Acne Wash'],
  'Medical Devices': [
    'Digital Thermometer',
    'Blood Pressure Monitor',
    'Pulse Oximeter',
    'Glucose Test Strips',
    'Pill Organiser',
  ],
  Household: ['Disinfectant Spray', 'Surface Wipes', 'Face Masks', 'Nitrile Gloves', 'Ear Plugs'],
};

const BRANDS = [
  'Medica',
  'CarePlus',
  'VitaWell',
  'PureLife',
  'HealthFirst',
  'Nordic',
  'GreenLeaf',
  'Everyday',
];
/** Pack sizes that make sense for each category. */
const SIZES: Record<string, string[]> = {
  'Pain Relief': ['', ' 16 tablets', ' 32 tablets'],
  'Cold & Flu': ['', ' 100ml', ' 200ml'],
  'Vitamins & Supplements': [' 30 tablets', ' 60 tablets', ' 90 capsules'],
  'First Aid': ['', ' 10 pack', ' 20 pack'],
  'Personal Care': [' 50ml', ' 250ml', ' 500ml'],
  'Oral Care': ['', ' travel size', ' 2 pack'],
  'Baby Care': ['', ' 100ml', ' 3 pack'],
  'Skin Care': [' 50ml', ' 100ml', ' 200ml'],
  'Medical Devices': ['', ' Pro', ' Compact'],
  Household: ['', ' 10 pack', ' 50 pack'],
};

const SUPPLIERS = [
  ['Northwind Pharma', 'orders@northwind.example', '+1 555 0100', '12 Harbour Road, Seattle'],
  ['Contoso Medical', 'sales@contoso.example', '+1 555 0101', '44 King Street, Boston'],
  ['Fabrikam Health', 'supply@fabrikam.example', '+1 555 0102', '8 Mill Lane, Denver'],
  ['Tailspin Wholesale', 'trade@tailspin.example', '+1 555 0103', '300 Market Ave, Austin'],
  ['Wide World Care', 'hello@wideworld.example', '+1 555 0104', '19 Elm Court, Chicago'],
  ['Litware Labs', 'b2b@litware.example', '+1 555 0105', '77 Bay Street, Miami'],
] as const;

/** The demo's shop, as its receipts and store settings name it. */
export const DEMO_STORE_NAME = 'Grand Street Pharmacy & Market';
export const DEMO_PASSWORD = 'demo-password';

/** The demo store's tax rates (DESIGN §12): the standard one is its default. */
const STANDARD_RATE = 'Standard 8.875%';
const TAX_RATES: [name: string, rate: string][] = [
  [STANDARD_RATE, '8.875'],
  ['Reduced 5%', '5'],
  ['Zero 0%', '0'],
];
/** Categories with a rate of their own; the rest have the store's default. */
const CATEGORY_TAX_RATE: Record<string, string> = {
  'Pain Relief': 'Zero 0%',
  'Cold & Flu': 'Zero 0%',
  'Vitamins & Supplements': 'Reduced 5%',
  'Baby Care': 'Reduced 5%',
};

export const DEMO_ACCOUNTS: { role: Role; name: string; email: string; address: string }[] = [
  { role: 'superAdmin', name: 'Sam Super', email: 'superadmin@demo.local', address: '1 Head Office Way' },
  { role: 'admin', name: 'Alex Admin', email: 'admin@demo.local', address: '2 Store Street' },
  { role: 'salesRep', name: 'Sally Sales', email: 'sales@demo.local', address: '15 Market Square' },
  { role: 'medicalRep', name: 'Morgan Medical', email: 'medical@demo.local', address: '7 Clinic Road' },
  { role: 'user', name: 'Eddie Employee', email: 'employee@demo.local', address: '3 Back Room Lane' },
];

/**
 * Fills an empty database with a realistic small store: categories, suppliers, a few hundred
 * products with SKUs and barcodes (some out of stock and some low), one account per role, forty
 * customers and ~90 days of counter sales (most of several lines, many with a customer) and
 * lone orders. The store (DESIGN §12) prices without tax, at a standard default rate; medicines
 * are zero-rated and vitamins and baby care at a reduced rate.
 */
export async function seedDemo(
  database: Database,
  now = new Date(),
  storeName: string = PRODUCT_NAME,
): Promise<void> {
  // Written table by table, then posted event by event into the books (DESIGN §19).
  await writeHistory(database, () => seedDemoHistory(database, now, storeName));
  // Suppliers' bills and payments (DESIGN §20), once the receipts they bill are in the books.
  const [admin] = await database.query<{ id: string; name: string }>(
    "select id, name from users where role = 'admin' order by created_at limit 1",
  );
  if (admin) await seedBills(database, { id: admin.id, name: admin.name, role: 'admin' });
}

async function seedDemoHistory(database: Database, now: Date, storeName: string): Promise<void> {
  const random = seededRandom(20_251_121);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const q = database.query.bind(database);

  const hash = await hashPassword(DEMO_PASSWORD);
  const userIds: { id: string; name: string; address: string; role: Role }[] = [];
  for (const account of DEMO_ACCOUNTS) {
    const [row] = await q<{ id: string }>(
      'insert into users (name, email, password_hash, address, role) values ($1, $2, $3, $4, $5) returning id',
      [account.name, account.email, hash, account.address, account.role],
    );
    userIds.push({ id: row?.id as string, name: account.name, address: account.address, role: account.role });
  }

  const categoryIds = new Map<string, string>();
  for (const name of Object.keys(CATALOGUE)) {
    const [row] = await q<{ id: string }>(
      'insert into categories (name, description) values ($1, $2) returning id',
      [name, `Everything in ${name.toLowerCase()}.`],
    );
    categoryIds.set(name, row?.id as string);
  }
  const supplierIds: string[] = [];
  for (const [name, email, phone, address] of SUPPLIERS) {
    const [row] = await q<{ id: string }>(
      'insert into suppliers (name, email, phone, address) values ($1, $2, $3, $4) returning id',
      [name, email, phone, address],
    );
    supplierIds.push(row?.id as string);
  }

  const taxRateIds = new Map<string, string>();
  for (const [name, rate] of TAX_RATES) {
    const [row] = await q<{ id: string }>('insert into tax_rates (name, rate) values ($1, $2) returning id', [
      name,
      rate,
    ]);
    taxRateIds.set(name, row?.id as string);
  }
  // The row may be there already (a server started on this database writes it): its name is kept.
  await q(
    `insert into store_settings (id, name, address, phone, tax_number, currency, receipt_footer,
                                 prices_include_tax, default_tax_rate_id, max_discount_percent)
     values (1, $1, $2, $3, $4, 'USD', $5, false, $6, 10)
     on conflict (id) do update set address = excluded.address, phone = excluded.phone,
       tax_number = excluded.tax_number, currency = excluded.currency,
       receipt_footer = excluded.receipt_footer, prices_include_tax = excluded.prices_include_tax,
       default_tax_rate_id = excluded.default_tax_rate_id,
       max_discount_percent = excluded.max_discount_percent`,
    [
      storeName,
      '214 Grand Street, New York, NY 10013',
      '(212) 555-0148',
      'EIN 12-3456789',
      'Thank you for shopping with us. Returns within 30 days with this receipt.',
      taxRateIds.get(STANDARD_RATE),
    ],
  );

  /** `stock` is where the demo's history must end; the ledger below brings it there. */
  type Seeded = {
    id: string;
    name: string;
    category: string;
    price: number;
    cost: number;
    stock: number;
    supplierId: string;
    reorderPoint: number | null;
  };
  const products: Seeded[] = [];
  const seen = new Set<string>();
  while (products.length < 300) {
    const category = pick(Object.keys(CATALOGUE));
    const name = `${pick(BRANDS)} ${pick(CATALOGUE[category] as string[])}${pick(SIZES[category] as string[])}`;
    if (seen.has(name)) continue;
    seen.add(name);
    const price = Math.round((1.5 + random() * 60) * 100) / 100;
    const roll = random();
    const stock =
      roll < 0.06 ? 0 : roll < 0.14 ? 1 + Math.floor(random() * 5) : 6 + Math.floor(random() * 240);
    // Bought at 45–70 % of the price; most products have their own reorder point, some a fixed
    // reorder quantity (a case of 24 or 48); the rest follow the store's threshold.
    const cost = Math.round(price * (0.45 + random() * 0.25) * 100) / 100;
    const reorderPoint = random() < 0.65 ? 5 + Math.floor(random() * 20) : null;
    const reorderQuantity = reorderPoint !== null && random() < 0.35 ? pick([24, 48]) : null;
    const supplierId = pick(supplierIds);
    const [row] = await q<{ id: string }>(
      `insert into products (name, description, price, stock, category_id, supplier_id, cost, reorder_point,
                             reorder_quantity, sku, barcode, tax_rate_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning id`,
      [
        name,
        `${name} from our ${category.toLowerCase()} range.`,
        price.toFixed(2),
        0,
        categoryIds.get(category),
        supplierId,
        cost.toFixed(2),
        reorderPoint,
        reorderQuantity,
        `${category.slice(0, 3).toUpperCase()}-${String(products.length + 1).padStart(4, '0')}`,
        demoBarcode(products.length + 1),
        // The others have the store's default (the standard rate).
        CATEGORY_TAX_RATE[category] === undefined ? null : taxRateIds.get(CATEGORY_TAX_RATE[category]),
      ],
    );
    products.push({ id: row?.id as string, name, category, price, cost, stock, supplierId, reorderPoint });
  }

  const buyers = userIds.filter((u) => u.role === 'salesRep' || u.role === 'medicalRep' || u.role === 'user');
  const approverOf = userIds.find((u) => u.role === 'admin');
  const customers = await seedCustomers(q, random);
  const DAY = 86_400_000;
  // Baskets over the last 90 days, with today's share so "Order Today" is not empty: most are
  // counter sales of 1–4 lines (two in three with a customer), the rest lone orders as the first
  // version placed them.
  type Basket = {
    when: Date;
    buyer: (typeof buyers)[number];
    lines: Array<{ product: Seeded; quantity: number }>;
    sale?: {
      number: number;
      customer?: { id: string; name: string };
      method: 'cash' | 'card' | 'other';
      /** DESIGN §12: the sale's own discount, and whether an admin approved one above the limit. */
      discount?: Discount;
      approved?: boolean;
    };
    /** Each line's own discount, when it has one. */
    discounts?: Array<Discount | undefined>;
    priced?: PricedCart;
    rates?: Array<{ name: string; rate: string } | null>;
  };
  const baskets: Basket[] = [];
  let lineCount = 0;
  for (let i = 0; lineCount < 1500; i++) {
    const lone = random() < 0.3;
    const size = lone ? 1 : 1 + Math.floor(random() * random() * 4.5);
    const lines = new Map<string, { product: Seeded; quantity: number }>();
    while (lines.size < size) {
      const product = pick(products);
      lines.set(product.id, { product, quantity: 1 + Math.floor(random() * (lone ? 6 : 3)) });
    }
    const customer = random() < 0.66 ? pick(customers) : undefined;
    const method = pick(['cash', 'card', 'card', 'other'] as const);
    baskets.push({
      when: new Date(now.getTime() - (i < 8 ? random() * 3_600_000 : random() * 90 * DAY)),
      buyer: pick(buyers),
      lines: [...lines.values()],
      ...(lone ? {} : { sale: { number: 0, customer, method } }),
    });
    lineCount += lines.size;
  }
  // The prescription medicines sold by lot (seed-lots.ts), with their own sequence of draws so the
  // rest of the demo stays as it was; their sales are numbered below with these.
  await seedLots(database, {
    now,
    admin: userIds.find((u) => u.role === 'admin'),
    sellers: buyers,
    customers,
    random: seededRandom(20_261_128),
    barcode: demoBarcode,
  });
  // Items with sizes and colours and their variants' sales (DESIGN §22), with their own draws.
  await seedItems(database, {
    now,
    admin: userIds.find((u) => u.role === 'admin'),
    sellers: buyers,
    customers,
    random: seededRandom(20_261_202),
    barcode: demoBarcode,
  });
  // Receipt numbers follow the sales' times, as the counter gives them.
  baskets.sort((a, b) => a.when.getTime() - b.when.getTime());
  const lotSales = await q<{ id: string; created_at: Date }>('select id, created_at from sales');
  const timeline: Array<{ when: Date; basket?: Basket; saleId?: string }> = [
    ...baskets.filter((basket) => basket.sale).map((basket) => ({ when: basket.when, basket })),
    ...lotSales.map((sale) => ({ when: new Date(sale.created_at), saleId: sale.id })),
  ].sort((a, b) => a.when.getTime() - b.when.getTime());
  let number = 0;
  for (const entry of timeline) {
    number += 1;
    if (entry.basket?.sale) entry.basket.sale.number = number;
    if (entry.saleId) {
      await q('update sales set number = $2 where id = $1', [entry.saleId, number]);
      await q('update orders set sale_number = $2 where sale_id = $1', [entry.saleId, number]);
    }
  }
  if (number > 0) await q("select setval('sale_number_seq', $1)", [number]);
  await priceBaskets(q, baskets);

  const orderIds: string[] = [];
  for (let from = 0; from < baskets.length; from += 100) {
    const batch = baskets.slice(from, from + 100);
    const saleIds = await insertSales(q, batch);
    const values: unknown[] = [];
    const rows: string[] = [];
    batch.forEach((basket, b) => {
      basket.lines.forEach(({ product, quantity }, line) => {
        const base = values.length;
        const priced = basket.priced?.lines[line];
        if (!priced) throw new Error('every demo line is priced');
        rows.push(`(${Array.from({ length: 20 }, (_, k) => `$${base + k + 1}`).join(', ')})`);
        values.push(
          basket.buyer.id,
          product.id,
          quantity,
          product.price.toFixed(2),
          product.cost.toFixed(2),
          centsText(priced.total),
          product.name,
          product.category,
          basket.buyer.name,
          basket.buyer.address,
          basket.when.toISOString(),
          saleIds[b] ?? null,
          basket.sale?.number ?? null,
          basket.sale ? line + 1 : null,
          basket.sale?.customer?.id ?? null,
          basket.sale?.customer?.name ?? null,
          centsText(priced.discount),
          centsText(priced.tax),
          basket.rates?.[line]?.name ?? null,
          basket.rates?.[line]?.rate ?? null,
        );
      });
    });
    const inserted = await q<{ id: string }>(
      `insert into orders (user_id, product_id, quantity, unit_price, unit_cost, total_price, product_name,
                           category_name, user_name, user_address, order_date,
                           sale_id, sale_number, sale_line, customer_id, customer_name,
                           discount, tax, tax_rate_name, tax_rate)
       values ${rows.join(', ')} returning id`,
      values,
    );
    orderIds.push(...inserted.map((row) => row.id));
  }

  /** The sale rows of a batch of baskets (null for a lone order), paid in full; cash rounded up. */
  async function insertSales(query: Query, batch: Basket[]): Promise<Array<string | null>> {
    const ids: Array<string | null> = [];
    for (const basket of batch) {
      if (!basket.sale) {
        ids.push(null);
        continue;
      }
      const priced = basket.priced;
      if (!priced) throw new Error('every demo sale is priced');
      const cents = Number(priced.total);
      const tendered = basket.sale.method === 'cash' ? Math.ceil(cents / 500) * 500 : null;
      const [row] = await query<{ id: string }>(
        `insert into sales (number, user_id, user_name, customer_id, customer_name, payment_method, tendered, total,
                            created_at, subtotal, discount, tax)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning id`,
        [
          basket.sale.number,
          basket.buyer.id,
          basket.buyer.name,
          basket.sale.customer?.id ?? null,
          basket.sale.customer?.name ?? null,
          basket.sale.method,
          tendered === null ? null : (tendered / 100).toFixed(2),
          centsText(priced.total),
          basket.when.toISOString(),
          centsText(priced.subtotal),
          centsText(priced.discount),
          centsText(priced.tax),
        ],
      );
      ids.push(row?.id ?? null);
      // Its one payment (DESIGN §13): cash hands over the rounded-up amount and takes change back.
      await query(
        `insert into sale_payments (sale_id, n, method, amount, tendered) values ($1, 1, $2, $3, $4)`,
        [
          row?.id,
          basket.sale.method,
          centsText(priced.total),
          tendered === null ? null : (tendered / 100).toFixed(2),
        ],
      );
      if (tendered !== null)
        await query('update sales set change = $2 where id = $1', [
          row?.id,
          centsText(BigInt(tendered) - priced.total),
        ]);
      if (basket.sale.approved && row && approverOf)
        await query(
          `insert into audit_log (actor_id, actor_name, actor_role, action, entity_type, entity_id, entity_name,
                                  changes, at)
           values ($1, $2, 'admin', 'discountApproved', 'sale', $3, $4, $5::jsonb, $6)`,
          [
            approverOf.id,
            approverOf.name,
            row.id,
            `S-${String(basket.sale.number).padStart(6, '0')}`,
            JSON.stringify([
              { field: 'seller', new: basket.buyer.name },
              { field: 'approvedBy', new: approverOf.name },
              { field: 'discount', new: Number(centsText(priced.discount)) },
            ]),
            basket.when.toISOString(),
          ],
        );
    }
    return ids;
  }

  const admin = userIds.find((u) => u.role === 'admin');
  const receipts = await seedPurchaseOrders(q, { products, supplierIds, random, now });
  await seedStockHistory(q, { products, orderIds, receipts, admin, random, now });
  const seller = userIds.find((u) => u.role === 'salesRep') ?? buyers[0];
  if (seller) await seedTill(database, { now, admin, seller, random });
  if (admin) await seedImports(database, { now, admin });
  // A stockroom and a second shop, stocked by transfers (DESIGN §17), with its own draws.
  if (admin) await seedLocations(database, { admin, random: seededRandom(20_261_201) });
  // A dispensary count posted at the Main store and the Brooklyn shop's count under way (DESIGN §18).
  if (admin) await seedStocktakes(database, { admin, staff: userIds });
  // The history wrote its orders before their movements (in time order, with the rest of the
  // stock's story), so each return's value is added to its order now and every figure recounted
  // from the orders as they stand (order_cost.sql, sales_days_rebuild.sql: DESIGN §10, §19).
  await q(
    `update orders o set returned_cost = b.value
     from (select order_id, sum(value) as value from stock_movements
           where kind = 'return' and order_id is not null group by order_id) b
     where b.order_id = o.id`,
  );
  await q('select sales_days_rebuild()');
}

/**
 * Prices every demo basket by the shared computation (DESIGN §12), on each product's tax rate in
 * force as the database holds it (none until rates are given) and the store's way of writing
 * prices. Some sales carry discounts, as a counter gives them: a line's 5 % or 2.00, the sale's
 * 1.00 or 3 %, each within the default limit (10 %); one an admin approved (25 % off a line).
 * Their own random sequence, so the rest of the demo stays as it was.
 */
async function priceBaskets(
  q: Query,
  baskets: Array<{
    lines: Array<{ product: { id: string; price: number }; quantity: number }>;
    sale?: { discount?: Discount; approved?: boolean };
    discounts?: Array<Discount | undefined>;
    priced?: PricedCart;
    rates?: Array<{ name: string; rate: string } | null>;
  }>,
): Promise<void> {
  const random = seededRandom(20_261_128);
  const rates = new Map<string, { name: string; rate: string }>();
  for (const row of await q<{ id: string; name: string | null; rate: string | null }>(
    `select p.id, r.name, r.rate::text as rate
     from products p left join store_settings s on s.id = 1
       left join tax_rates r on r.id = coalesce(p.tax_rate_id, s.default_tax_rate_id)`,
  ))
    if (row.name !== null && row.rate !== null) rates.set(row.id, { name: row.name, rate: row.rate });
  const [settings] = await q<{ prices_include_tax: boolean }>(
    'select prices_include_tax from store_settings where id = 1',
  );
  let approvedOne = false;
  const sales = baskets.filter((basket) => basket.sale);
  const last = sales[sales.length - 1];
  for (const basket of baskets) {
    basket.rates = basket.lines.map((line) => rates.get(line.product.id) ?? null);
    if (basket.sale) {
      const roll = random();
      if (roll < 0.08) basket.discounts = basket.lines.map(() => ({ type: 'percent', value: 5 }));
      else if (roll < 0.12) {
        const first = basket.lines[0];
        if (first && first.product.price * first.quantity > 20)
          basket.discounts = [{ type: 'amount', value: 2 }];
      }
      const subtotal = basket.lines.reduce((sum, line) => sum + line.product.price * line.quantity, 0);
      const cartRoll = random();
      if (cartRoll < 0.05 && subtotal > 25) basket.sale.discount = { type: 'amount', value: 1 };
      else if (cartRoll < 0.08 && !basket.discounts) basket.sale.discount = { type: 'percent', value: 3 };
      // The last sale of the demo (today's): a manager's approval for 25 % off its first line.
      if (basket === last && !approvedOne) {
        basket.discounts = [{ type: 'percent', value: 25 }];
        basket.sale.discount = undefined;
        basket.sale.approved = true;
        approvedOne = true;
      }
    }
    const cart: Cart = {
      pricesIncludeTax: settings?.prices_include_tax ?? false,
      discount: basket.sale?.discount ?? null,
      lines: basket.lines.map((line, at) => ({
        unitPrice: line.product.price.toFixed(2),
        quantity: line.quantity,
        taxRate: basket.rates?.[at]
          ? { name: basket.rates[at].name, rate: Number(basket.rates[at].rate) }
          : null,
        discount: basket.discounts?.[at] ?? null,
      })),
    };
    const priced = priceCart(cart);
    if (isCartProblem(priced)) throw new Error(`a demo basket cannot be priced: ${priced.problem}`);
    basket.priced = priced;
  }
}

const FIRST_NAMES = [
  'Ava',
  'Ben',
  'Chloe',
  'Daniel',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Isla',
  'Jonas',
  'Kemi',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Priya',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
];
const LAST_NAMES = [
  'Adler',
  'Brooks',
  'Castillo',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Hughes',
  'Ito',
  'Jensen',
  'Kowalski',
  'Larsen',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Patel',
];
const STREETS = ['Oak Avenue', 'Maple Street', 'River Road', 'Hill Crescent', 'Station Road', 'Park Lane'];

/** Forty regular customers, most with a phone, many with an email, some with a note. */
async function seedCustomers(q: Query, random: () => number): Promise<Array<{ id: string; name: string }>> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const customers: Array<{ id: string; name: string }> = [];
  const names = new Set<string>();
  while (customers.length < 40) {
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    const name = `${first} ${last}`;
    if (names.has(name)) continue;
    names.add(name);
    const phone = random() < 0.85 ? `+1 555 ${String(2000 + Math.floor(random() * 7000))}` : '';
    const email = random() < 0.6 ? `${first}.${last}@mail.example`.toLowerCase() : '';
    const address = random() < 0.5 ? `${1 + Math.floor(random() * 120)} ${pick(STREETS)}` : '';
    const note =
      random() < 0.15
        ? pick(['Prefers card payments.', 'Regular for vitamins.', 'Call before ordering in.'])
        : '';
    const [row] = await q<{ id: string }>(
      `insert into customers (name, phone, email, address, note, duplicate_key)
       values ($1, $2, $3, $4, $5, customer_duplicate_key($1, $2)) returning id`,
      [name, phone, email, address, note],
    );
    customers.push({ id: row?.id as string, name });
  }
  return customers;
}

/** An in-store EAN-13 barcode (prefix 20) for the n-th product, with its check digit. */
export function demoBarcode(n: number): string {
  const digits = `20${String(n).padStart(10, '0')}`;
  const sum = [...digits].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return `${digits}${(10 - (sum % 10)) % 10}`;
}

/** A receipt of units on a purchase order, for the stock history. */
type Receipt = { at: Date; productId: string; quantity: number; purchaseOrderId: string; note: string };

/**
 * The suppliers' purchase history: received orders over the last months, one partly received,
 * two ordered and still expected, a draft and a cancelled one, each of 3–7 of the supplier's
 * products at their cost. Inserted oldest first, so numbers follow dates. Answers the receipts,
 * which the stock history then places in time.
 */
async function seedPurchaseOrders(
  q: Query,
  seed: {
    products: Array<{
      id: string;
      cost: number;
      stock: number;
      supplierId: string;
      reorderPoint: number | null;
    }>;
    supplierIds: string[];
    random: () => number;
    now: Date;
  },
): Promise<Receipt[]> {
  const { products, random, now } = seed;
  const DAY = 86_400_000;
  const PLAN: Array<{
    daysAgo: number;
    status: 'received' | 'partially_received' | 'ordered' | 'draft' | 'cancelled';
  }> = [
    { daysAgo: 84, status: 'received' },
    { daysAgo: 70, status: 'received' },
    { daysAgo: 58, status: 'received' },
    { daysAgo: 45, status: 'cancelled' },
    { daysAgo: 38, status: 'received' },
    { daysAgo: 24, status: 'received' },
    { daysAgo: 12, status: 'partially_received' },
    { daysAgo: 6, status: 'ordered' },
    { daysAgo: 3, status: 'ordered' },
    { daysAgo: 1, status: 'draft' },
  ];
  const receipts: Receipt[] = [];
  for (const [index, plan] of PLAN.entries()) {
    const supplierId = seed.supplierIds[index % seed.supplierIds.length] as string;
    // Open orders carry the supplier's low products, so the reorder page shows them on order.
    const own = products
      .filter((p) => p.supplierId === supplierId)
      .sort((a, b) => (plan.daysAgo < 14 ? a.stock - b.stock : random() - 0.5));
    const lines = own.slice(0, 3 + Math.floor(random() * 5));
    const created = new Date(now.getTime() - plan.daysAgo * DAY);
    const ordered = plan.status === 'draft' ? null : new Date(created.getTime() + 2 * 3_600_000);
    const arrived = new Date(created.getTime() + (2 + random() * 3) * DAY);
    const [row] = await q<{ id: string; number: number }>(
      `insert into purchase_orders (supplier_id, status, note, created_at, ordered_at, received_at)
       values ($1, $2, $3, $4, $5, $6) returning id, number`,
      [
        supplierId,
        plan.status,
        plan.status === 'cancelled' ? 'Supplier out of stock; ordered elsewhere' : '',
        created.toISOString(),
        ordered?.toISOString() ?? null,
        plan.status === 'received' ? arrived.toISOString() : null,
      ],
    );
    const id = row?.id as string;
    for (const [position, product] of lines.entries()) {
      const quantity = 12 * (1 + Math.floor(random() * 4));
      const received =
        plan.status === 'received'
          ? quantity
          : plan.status === 'partially_received' && position % 2 === 0
            ? quantity / 2
            : 0;
      await q(
        `insert into purchase_order_lines (purchase_order_id, position, product_id, quantity, received, unit_cost)
         values ($1, $2, $3, $4, $5, $6)`,
        [id, position, product.id, quantity, received, product.cost.toFixed(2)],
      );
      if (received > 0)
        receipts.push({
          at: arrived,
          productId: product.id,
          quantity: received,
          purchaseOrderId: id,
          note: `Received on ${purchaseOrderNumber(row?.number ?? 0)}`,
        });
    }
  }
  return receipts;
}

type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;

/**
 * The demo's stock history, in the order it happened: each product's opening stock 91 days ago,
 * a sale per order, some returns, damaged and found units and shelf counts, ending at each
 * product's planned stock. Inserting the movements in time order lets the ledger's trigger apply
 * each one, so every stock-after is what the shelf held then.
 */
async function seedStockHistory(
  q: Query,
  seed: {
    products: Array<{ id: string; stock: number }>;
    orderIds: string[];
    receipts: Receipt[];
    admin: { id: string; name: string } | undefined;
    random: () => number;
    now: Date;
  },
): Promise<void> {
  const { products, admin, random, now } = seed;
  const DAY = 86_400_000;
  type Event = {
    at: Date;
    productId: string;
    kind: 'initial' | 'sale' | 'return' | 'adjustment' | 'receipt';
    quantity: number;
    reason?: MovementReason;
    note?: string;
    orderId?: string;
    purchaseOrderId?: string;
    user?: { id: string; name: string };
  };
  const orders = await q<{
    id: string;
    product_id: string;
    quantity: number;
    user_id: string;
    user_name: string;
    order_date: Date;
  }>(
    'select id, product_id, quantity, user_id, user_name, order_date from orders where id = any($1::uuid[])',
    [seed.orderIds],
  );
  const events: Event[] = orders.map((order) => ({
    at: new Date(order.order_date),
    productId: order.product_id,
    kind: 'sale',
    quantity: -order.quantity,
    orderId: order.id,
    user: { id: order.user_id, name: order.user_name },
  }));
  for (const receipt of seed.receipts) events.push({ ...receipt, kind: 'receipt', user: admin });
  // Units that come back only go to products that end with enough stock to have held them.
  const roomy = new Set(products.filter((p) => p.stock >= 12).map((p) => p.id));
  const returns = orders.filter((order) => roomy.has(order.product_id) && random() < 0.02).slice(0, 20);
  for (const order of returns) {
    const quantity = Math.max(1, Math.floor(order.quantity / (random() < 0.5 ? 1 : 2)));
    const at = new Date(
      Math.min(now.getTime() - 60_000, new Date(order.order_date).getTime() + (1 + random() * 4) * DAY),
    );
    events.push({
      at,
      productId: order.product_id,
      kind: 'return',
      quantity,
      reason: 'returned',
      note: 'Customer return',
      orderId: order.id,
      user: admin,
    });
    // The money given back by the shared rule (DESIGN §12), the tax in it likewise.
    const [paid] = await q<{ total: string; tax: string; discount: string }>(
      'select total_price::text as total, tax::text as tax, discount::text as discount from orders where id = $1',
      [order.id],
    );
    const share = (money: string | undefined) =>
      centsText(refundDue(toCents(money ?? '0'), order.quantity, quantity, 0n));
    await q(
      `update orders set returned_quantity = $2, status = case when $2 = quantity then 'returned' else 'placed' end,
                         returned_total = $3, returned_tax = $4, returned_discount = $5
       where id = $1`,
      [order.id, quantity, share(paid?.total), share(paid?.tax), share(paid?.discount)],
    );
  }
  for (const product of products) {
    const roll = random();
    const at = new Date(now.getTime() - (2 + random() * 80) * DAY);
    if (roll < 0.08) {
      events.push({
        at,
        productId: product.id,
        kind: 'adjustment',
        quantity: -(1 + Math.floor(random() * 3)),
        reason: 'damaged',
        note: 'Found damaged on the shelf',
        user: admin,
      });
    } else if (roll < 0.11 && roomy.has(product.id)) {
      events.push({
        at,
        productId: product.id,
        kind: 'adjustment',
        quantity: 1 + Math.floor(random() * 4),
        reason: 'found',
        note: 'Found in the back room',
        user: admin,
      });
    }
  }
  events.sort((a, b) => a.at.getTime() - b.at.getTime());

  // Each product opens with what its history takes away, so it ends at its planned stock (or a
  // little above, where units came back before they were sold).
  const change = new Map<string, number>();
  const lowest = new Map<string, number>();
  for (const event of events) {
    const running = (change.get(event.productId) ?? 0) + event.quantity;
    change.set(event.productId, running);
    lowest.set(event.productId, Math.min(lowest.get(event.productId) ?? 0, running));
  }
  const opening = new Date(now.getTime() - 91 * DAY);
  const all: Event[] = [
    ...products.map((product) => ({
      at: opening,
      productId: product.id,
      kind: 'initial' as const,
      quantity: Math.max(product.stock - (change.get(product.id) ?? 0), -(lowest.get(product.id) ?? 0)),
      note: 'Opening stock',
      user: admin,
    })),
    ...events,
  ];
  // In time order, 200 a statement, each applied by the trigger with the stock before it.
  for (let start = 0; start < all.length; start += 200)
    await recordMovements(
      { query: q },
      all.slice(start, start + 200).map((event) => ({
        productId: event.productId,
        kind: event.kind,
        quantity: event.quantity,
        reason: event.reason ?? null,
        note: event.note ?? '',
        actor: event.user ?? null,
        orderId: event.orderId ?? null,
        purchaseOrderId: event.purchaseOrderId ?? null,
        at: event.at,
      })),
    );
}
