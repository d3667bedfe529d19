import type { FastifyBaseLogger } from 'fastify';
import { guessMapping } from '../../shared/imports';
import type { Role } from '../../shared/roles';
import type { Actor } from '../modules/audit/audit.repository';
import { ImportApplier } from '../modules/imports/apply';
import { checkImport } from '../modules/imports/check';
import { createImport } from '../modules/imports/imports.repository';
import type { Database } from './connection';
import { demoBarcode } from './seed';

const DAY = 24 * 3_600_000;
const MINUTE = 60_000;

/** The applied import's file, as the store sent it. */
export const DEMO_PRICE_LIST = 'northwind-price-list.csv';
/** The import uploaded and checked but not applied. */
export const DEMO_NEW_LINES = 'new-lines-spring.csv';

const COLUMNS = ['SKU', 'Barcode', 'Name', 'Category', 'Supplier', 'Price', 'Stock'];

/** The applier's log has nothing to tell the seed. */
const quiet = {
  level: 'silent',
  fatal() {},
  error() {},
  warn() {},
  info() {},
  debug() {},
  trace() {},
  silent() {},
  child() {
    return quiet;
  },
} as unknown as FastifyBaseLogger;

type Existing = {
  sku: string;
  barcode: string;
  name: string;
  price: string;
  category: string;
  supplier: string;
};

/**
 * The demo's catalogue imports (DESIGN §14), written by the import's own code: upload
 * (createImport), the check, and the applier. Alex Admin applied Northwind's price list as the demo
 * opened: 40 products repriced by SKU (a few with a delivery added to their stock), 5 new lines, and
 * 2 rows refused (a price of "n/a" and a category the store lacks). Yesterday the spring's new
 * lines were uploaded and checked (12 new products), waiting to be applied.
 */
export async function seedImports(
  database: Database,
  seed: { now: Date; admin: { id: string; name: string; role: Role } },
): Promise<void> {
  const q = database.query.bind(database);
  const { now } = seed;
  const actor: Actor = { id: seed.admin.id, name: seed.admin.name, role: seed.admin.role };

  const existing = await q<Existing>(
    `select p.sku, p.barcode, p.name, p.price::text as price, c.name as category, s.name as supplier
       from products p join categories c on c.id = p.category_id join suppliers s on s.id = p.supplier_id
      where p.sku is not null and s.name = 'Northwind Pharma'
      order by p.sku limit 40`,
  );
  const [northwindCategory] = existing;
  if (!northwindCategory) throw new Error('The demo has products from Northwind Pharma');
  const categories = [...new Set(existing.map((p) => p.category))];
  const pick = (i: number) => categories[i % categories.length] as string;

  // Prices up 3–8 % (to the cent, ending in 9), every fourth row with a delivery of 12 or 24.
  const rows: string[][] = existing.map((p, i) => {
    const raised = Math.round(Number(p.price) * (1.03 + (i % 6) / 100) * 10) / 10 + 0.09;
    return [
      p.sku,
      p.barcode,
      p.name,
      p.category,
      p.supplier,
      raised.toFixed(2),
      i % 4 === 0 ? String(i % 8 === 0 ? 24 : 12) : '',
    ];
  });
  const fresh: [string, string, string][] = [
    ['NWP-1001', 'Northwind Elderberry Syrup 150ml', '8.49'],
    ['NWP-1002', 'Northwind Electrolyte Sachets x10', '6.99'],
    ['NWP-1003', 'Northwind Arnica Gel 50g', '7.49'],
    ['NWP-1004', 'Northwind Saline Nasal Spray 30ml', '5.29'],
    ['NWP-1005', 'Northwind Blister Plasters x6', '4.79'],
  ];
  fresh.forEach(([sku, name, price], i) => {
    rows.push([sku, demoBarcode(1001 + i), name, pick(i), 'Northwind Pharma', price, String(12 + 6 * i)]);
  });
  rows.push([
    'NWP-1006',
    demoBarcode(1006),
    'Northwind Propolis Lozenges x24',
    pick(0),
    'Northwind Pharma',
    'n/a',
    '24',
  ]);
  rows.push([
    'NWP-1007',
    demoBarcode(1007),
    'Northwind Pet Shampoo 250ml',
    'Pet Care',
    'Northwind Pharma',
    '9.99',
    '12',
  ]);

  const applied = await createImport(
    database.db,
    {
      fileName: DEMO_PRICE_LIST,
      fileType: 'csv',
      columns: COLUMNS,
      mapping: guessMapping(COLUMNS),
      rows: rows.map((cells, i) => ({ line: i + 2, cells })),
    },
    actor,
  );
  const options = {
    mapping: guessMapping(COLUMNS),
    matchBy: 'sku' as const,
    createMissing: { categories: false, suppliers: false },
    stock: 'add' as const,
  };
  await checkImport(database, applied, options);
  const applier = new ImportApplier(database.db, quiet, 60);
  const start = await applier.take(applied, actor);
  if (!start) throw new Error('The demo import could not be applied');
  start();
  await applier.applying(applied);
  await applier.stop();
  const [done] = await q<{ status: string }>('select status from imports where id = $1', [applied]);
  if (done?.status !== 'applied') throw new Error(`The demo import ended ${done?.status}`);

  // It keeps the times it was written at, as its stock movements and audit entry do (both are
  // append-only): the price list was applied as the demo opened.

  // Spring's new lines: uploaded and checked yesterday afternoon, not applied yet.
  const spring = [
    'Sun Cream SPF50 200ml',
    'After Sun Aloe Gel 200ml',
    'Hay Fever Tablets x30',
    'Eye Drops for Allergies 10ml',
    'Insect Repellent Spray 100ml',
    'Lip Balm SPF15',
    'Antihistamine Cream 30g',
    'Travel Sickness Bands',
    'Reusable Water Bottle 750ml',
    'Cooling Face Mist 100ml',
    'Foot Spray 150ml',
    'Oral Rehydration Salts x20',
  ];
  const springRows = spring.map((name, i) => [
    `SPR-${String(i + 1).padStart(4, '0')}`,
    demoBarcode(1101 + i),
    `Northwind ${name}`,
    pick(i + 1),
    'Northwind Pharma',
    (3.99 + i * 0.75).toFixed(2),
    String(12 * (1 + (i % 3))),
  ]);
  const checked = await createImport(
    database.db,
    {
      fileName: DEMO_NEW_LINES,
      fileType: 'csv',
      columns: COLUMNS,
      mapping: guessMapping(COLUMNS),
      rows: springRows.map((cells, i) => ({ line: i + 2, cells })),
    },
    actor,
  );
  await checkImport(database, checked, { ...options, stock: 'set' });
  const springAt = new Date(now.getTime() - DAY + 2 * 60 * MINUTE);
  await q('update imports set created_at = $2, checked_at = $3 where id = $1', [
    checked,
    springAt.toISOString(),
    new Date(springAt.getTime() + 3 * MINUTE).toISOString(),
  ]);
}
