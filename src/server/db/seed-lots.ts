import { purchaseOrderNumber } from '../../shared/purchasing';
import { recordMovements } from '../modules/stock/movements';
import type { Runner } from './connection';

type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;
type Person = { id: string; name: string; address: string };

const DAY = 86_400_000;

/**
 * The demo's prescription medicines (DESIGN §15): lot-tracked products bought on one purchase
 * order per lot batch, each lot with its number and expiry. Days are counted from today in the
 * report zone: most lots keep a year or more, some expire within the month (the dashboard's
 * "Expiring soon"), one has expired with units still on the shelf (the counter refuses them) and
 * one expired lot was written off. Counter sales to customers then take the lots first-expiry-
 * first-out through the ledger's trigger, so every lot's recall trace names who got it.
 */
const MEDICINES: Array<{
  name: string;
  price: number;
  cost: number;
  /** [lot number, days from today to its expiry, units received] */
  lots: Array<[string, number, number]>;
}> = [
  {
    name: 'Amoxicillin 500mg Capsules x21',
    price: 12.5,
    cost: 5.1,
    lots: [
      ['AMX2403A', -6, 30],
      ['AMX2409C', 240, 40],
    ],
  },
  {
    name: 'Metformin 850mg Tablets x56',
    price: 8.95,
    cost: 3.4,
    lots: [
      ['MTF-1187', 19, 24],
      ['MTF-1342', 410, 60],
    ],
  },
  {
    name: 'Atorvastatin 20mg Tablets x28',
    price: 14.2,
    cost: 6.05,
    lots: [
      ['ATV0921', 27, 18],
      ['ATV1104', 520, 48],
    ],
  },
  { name: 'Lisinopril 10mg Tablets x28', price: 7.6, cost: 2.9, lots: [['LSN-77812', 365, 36]] },
  {
    name: 'Salbutamol 100mcg Inhaler',
    price: 9.8,
    cost: 4.25,
    lots: [
      ['SAL4471', 11, 12],
      ['SAL4630', 300, 24],
    ],
  },
  {
    name: 'Omeprazole 20mg Capsules x28',
    price: 6.4,
    cost: 2.2,
    lots: [
      ['OMP2311', -20, 10],
      ['OMP2502', 190, 40],
    ],
  },
  {
    name: 'Insulin Glargine Pen 100U/ml',
    price: 46.9,
    cost: 31.5,
    lots: [
      ['IGL0345', 45, 10],
      ['IGL0418', 150, 10],
    ],
  },
  { name: 'Cetirizine 10mg Tablets x30', price: 5.25, cost: 1.6, lots: [['CTZ5520', 700, 50]] },
];

export async function seedLots(
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
  const admin = seed.admin ?? seed.sellers[0];
  if (!admin) return;
  const [zone] = await q<{ today: string }>(
    `select (($1::timestamptz at time zone time_zone)::date)::text as today from report_settings`,
    [now.toISOString()],
  );
  const today = zone?.today ?? now.toISOString().slice(0, 10);
  const day = (offset: number) => {
    const date = new Date(`${today}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() + offset);
    return date.toISOString().slice(0, 10);
  };

  const [category] = await q<{ id: string }>(
    `insert into categories (name, description) values ('Prescription Medicines',
       'Dispensed by lot: every box with its lot number and expiry.') returning id`,
  );
  const [supplier] = await q<{ id: string }>(
    `insert into suppliers (name, email, phone, address)
     values ('Meridian Pharma Wholesale', 'orders@meridianpharma.example', '(718) 555-0190',
             '40 Harbor Way, Brooklyn, NY 11231') returning id`,
  );
  const [zero] = await q<{ id: string; name: string; rate: string }>(
    `select id, name, rate::text as rate from tax_rates where rate = 0 order by name limit 1`,
  );

  const products: Array<{ id: string; name: string; price: number; cost: number }> = [];
  for (const [n, medicine] of MEDICINES.entries()) {
    const [row] = await q<{ id: string }>(
      `insert into products (name, description, price, stock, cost, category_id, supplier_id, tax_rate_id,
                             reorder_point, sku, barcode, tracking)
       values ($1, $2, $3, 0, $4, $5, $6, $7, 10, $8, $9, 'lot') returning id`,
      [
        medicine.name,
        `${medicine.name}. Prescription only; sold by lot, earliest expiry first.`,
        medicine.price.toFixed(2),
        medicine.cost.toFixed(2),
        category?.id,
        supplier?.id,
        zero?.id ?? null,
        `RXM-${String(n + 1).padStart(4, '0')}`,
        seed.barcode(901 + n),
      ],
    );
    products.push({ id: row?.id as string, name: medicine.name, price: medicine.price, cost: medicine.cost });
  }

  // Two deliveries: the older lots 75 days ago, the newer ones 16 days ago.
  for (const [which, daysAgo] of [
    [0, 75],
    [1, 16],
  ] as const) {
    const created = new Date(now.getTime() - daysAgo * DAY);
    const arrived = new Date(created.getTime() + 2 * DAY);
    const lines = MEDICINES.flatMap((medicine, n) => {
      const lot = medicine.lots[which];
      return lot ? [{ product: products[n] as (typeof products)[number], lot }] : [];
    });
    if (lines.length === 0) continue;
    const [po] = await q<{ id: string; number: number }>(
      `insert into purchase_orders (supplier_id, status, note, created_at, ordered_at, received_at)
       values ($1, 'received', 'Monthly prescription stock', $2, $3, $4) returning id, number`,
      [
        supplier?.id,
        created.toISOString(),
        new Date(created.getTime() + 3_600_000).toISOString(),
        arrived.toISOString(),
      ],
    );
    for (const [position, { product, lot }] of lines.entries()) {
      const [number, expires, units] = lot;
      await q(
        `insert into purchase_order_lines (purchase_order_id, position, product_id, quantity, received, unit_cost)
         values ($1, $2, $3, $4, $4, $5)`,
        [po?.id, position, product.id, units, product.cost.toFixed(2)],
      );
      const [made] = await q<{ id: string }>(
        `insert into lots (product_id, number, expires_on, created_at) values ($1, $2, $3, $4) returning id`,
        [product.id, number, day(expires), arrived.toISOString()],
      );
      await recordMovements(database, [
        {
          at: arrived,
          productId: product.id,
          kind: 'receipt',
          quantity: units,
          note: `Received on ${purchaseOrderNumber(po?.number ?? 0)}`,
          actor: admin,
          purchaseOrderId: po?.id,
          lotId: made?.id,
        },
      ]);
    }
  }

  // Counter sales over the last 70 days, each taking the lots that were first-expiry-first-out on
  // its day among those already received (the counter's own sales leave the choice to the ledger's
  // trigger, which judges by today). A sale is made only while it can be served.
  const sellers = seed.sellers.length > 0 ? seed.sellers : [admin];
  // Numbered out of the way: seedDemo numbers every sale in time order once its own are planned.
  let number = 1_000_000_000;
  const plan: Array<{ at: Date; product: (typeof products)[number]; quantity: number }> = [];
  for (let i = 0; i < 48; i++) {
    const product = products[Math.floor(random() * products.length)] as (typeof products)[number];
    plan.push({
      at: new Date(now.getTime() - (1 + random() * 68) * DAY),
      product,
      quantity: 1 + Math.floor(random() * 3),
    });
  }
  plan.sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const sale of plan) {
    const lots = await q<{ id: string; quantity: number }>(
      `select id, quantity from lots
       where product_id = $1 and quantity > 0 and (expires_on is null or expires_on >= ($3::timestamptz at time zone
             (select time_zone from report_settings))::date) and created_at <= $2
       order by expires_on asc nulls last, created_at, id`,
      [sale.product.id, sale.at.toISOString(), sale.at.toISOString()],
    );
    if (lots.reduce((sum, lot) => sum + lot.quantity, 0) < sale.quantity + 2) continue;
    const seller = sellers[Math.floor(random() * sellers.length)] as Person;
    const customer = seed.customers[Math.floor(random() * seed.customers.length)];
    const total = (sale.product.price * sale.quantity).toFixed(2);
    number += 1;
    const [row] = await q<{ id: string }>(
      `insert into sales (number, user_id, user_name, customer_id, customer_name, payment_method, total,
                          subtotal, discount, tax, created_at)
       values ($1, $2, $3, $4, $5, 'card', $6, $6, 0, 0, $7) returning id`,
      [
        number,
        seller.id,
        seller.name,
        customer?.id ?? null,
        customer?.name ?? null,
        total,
        sale.at.toISOString(),
      ],
    );
    await q(`insert into sale_payments (sale_id, n, method, amount) values ($1, 1, 'card', $2)`, [
      row?.id,
      total,
    ]);
    const [order] = await q<{ id: string }>(
      `insert into orders (user_id, product_id, quantity, unit_price, unit_cost, total_price, product_name,
                           category_name, user_name, user_address, order_date, sale_id, sale_number, sale_line,
                           customer_id, customer_name, discount, tax, tax_rate_name, tax_rate)
       values ($1, $2, $3, $4, $5, $6, $7, 'Prescription Medicines', $8, $9, $10, $11, $12, 1, $13, $14, 0, 0, $15, $16)
       returning id`,
      [
        seller.id,
        sale.product.id,
        sale.quantity,
        sale.product.price.toFixed(2),
        sale.product.cost.toFixed(2),
        total,
        sale.product.name,
        seller.name,
        seller.address,
        sale.at.toISOString(),
        row?.id,
        number,
        customer?.id ?? null,
        customer?.name ?? null,
        zero?.name ?? null,
        zero?.rate ?? null,
      ],
    );
    let wanted = sale.quantity;
    for (const lot of lots) {
      if (wanted === 0) break;
      const part = Math.min(wanted, lot.quantity);
      await recordMovements(database, [
        {
          at: sale.at,
          productId: sale.product.id,
          kind: 'sale',
          quantity: -part,
          actor: seller,
          orderId: order?.id,
          lotId: lot.id,
        },
      ]);
      wanted -= part;
    }
  }
  // The older Omeprazole lot expired 20 days ago and was written off; Amoxicillin's expired lot
  // still holds its units (the expiring list shows it, the counter refuses them).
  const [written] = await q<{ id: string; product_id: string; quantity: number }>(
    `select id, product_id, quantity from lots where number = 'OMP2311'`,
  );
  if (written && written.quantity > 0)
    await recordMovements(database, [
      {
        at: new Date(now.getTime() - 18 * DAY),
        productId: written.product_id,
        kind: 'adjustment',
        quantity: -written.quantity,
        reason: 'expired',
        note: 'Expired: returned to the wholesaler for destruction',
        actor: admin,
        lotId: written.id,
      },
    ]);
}
