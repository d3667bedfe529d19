import type { Named } from '../../../shared/common';
import { centsNumber } from '../../../shared/money';
import {
  type ClampedLine,
  type CountInput,
  type CountMode,
  type Stocktake,
  type StocktakeInput,
  type StocktakeLine,
  type StocktakeStatus,
  type StocktakeSummary,
  stocktakeNumber,
  type VarianceFigures,
} from '../../../shared/stocktakes';
import { type Runner, runnerOf, statement, type Tx } from '../../db/connection';
import {
  type AppError,
  badRequest,
  isId,
  notFound,
  pgCode,
  refuse,
  violatedConstraint,
} from '../../lib/errors';
import { type Actor, recordAudit } from '../audit/audit.repository';
import { locationFor } from '../locations/location-for';
import { lotForAdding } from '../lots/lots.repository';
import { type NewMovement, recordMovements } from '../stock/movements';

/**
 * Stocktakes (DESIGN §18, decision 0044). Making one fixes its products (stocktake_products, whose
 * open key keeps two open stocktakes off one product at one location) and its lines (a tracked
 * product's lots with stock there, one line each); it holds its location `for share`, so it and
 * a deactivation never both succeed. A count holds the stocktake `for key share` (a post or cancel
 * waits for it), makes the lines of lots not on the list in (product, number) order, then locks
 * its lines (in id order) and reads the ledger's stock of each in the same statement, so racing
 * `add`s all count and each keeps the stock at its moment. Posting locks the stocktake, then its
 * products in id order (as every sale and the ledger's trigger lock them), so the stock it reads
 * cannot move before its `count` movements, written through the ledger's one writer in batches,
 * land: counted − expectedAtCount per line, never below 0.
 */

type Q = Pick<Runner, 'query' | 'run'>;
export type StocktakeValues = Omit<StocktakeInput, 'note' | 'blind'> & { note: string; blind: boolean };

const STATUS_WORDS: Record<StocktakeStatus, string> = {
  counting: 'still counting',
  posted: 'posted',
  cancelled: 'cancelled',
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

type StocktakeRow = {
  id: string;
  number: string | number;
  location_id: string;
  location_name: string;
  status: StocktakeStatus;
  blind: boolean;
  scope: { categories: string[]; products: string[] };
  note: string;
  user_id: string | null;
  user_name: string | null;
  created_at: Date | string;
  posted_at: Date | string | null;
  posted_by_id: string | null;
  posted_by_name: string | null;
  cancelled_at: Date | string | null;
  uncounted: 'keep' | 'zero' | null;
  lines: number;
  scope_categories: Named[] | null;
  scope_products: Named[] | null;
};

const STOCKTAKE_SELECT = `select s.id, s.number, s.location_id, l.name as location_name, s.status, s.blind, s.scope,
    s.note, s.user_id, s.user_name, s.created_at, s.posted_at, s.posted_by_id, s.posted_by_name,
    s.cancelled_at, s.uncounted,
    s.line_count as lines,
    (select coalesce(jsonb_agg(jsonb_build_object('_id', c.id, 'name', c.name) order by lower(c.name)), '[]')
       from categories c where c.id in (select x::uuid from jsonb_array_elements_text(s.scope->'categories') as x)) as scope_categories,
    (select coalesce(jsonb_agg(jsonb_build_object('_id', p.id, 'name', p.name) order by lower(p.name)), '[]')
       from products p where p.id in (select x::uuid from jsonb_array_elements_text(s.scope->'products') as x)) as scope_products
  from stocktakes s join locations l on l.id = s.location_id`;

function toStocktake(row: StocktakeRow): Stocktake {
  return {
    _id: row.id,
    number: stocktakeNumber(Number(row.number)),
    location: { _id: row.location_id, name: row.location_name },
    status: row.status,
    blind: row.blind,
    scope: { categories: row.scope_categories ?? [], products: row.scope_products ?? [] },
    note: row.note,
    lines: row.lines,
    createdBy: row.user_name === null ? null : { _id: row.user_id, name: row.user_name },
    createdAt: iso(row.created_at) as string,
    postedAt: iso(row.posted_at),
    postedBy: row.posted_by_name === null ? null : { _id: row.posted_by_id, name: row.posted_by_name },
    cancelledAt: iso(row.cancelled_at),
    uncounted: row.uncounted,
  };
}

/** One stocktake; with its summary when asked (the review's figures, admins only). */
export async function findStocktake(
  q: Q,
  id: string,
  options: { summary?: boolean } = {},
): Promise<Stocktake | undefined> {
  if (!isId(id)) return undefined;
  const [row] = await q.query<StocktakeRow>(`${STOCKTAKE_SELECT} where s.id = $1`, [id]);
  if (!row) return undefined;
  const stocktake = toStocktake(row);
  return options.summary ? { ...stocktake, summary: await stocktakeSummary(q, id) } : stocktake;
}

/** Stocktakes, newest first, by status and location. */
export async function stocktakePage(
  q: Q,
  filter: { status?: StocktakeStatus; location?: string },
  window: { limit: number; offset: number },
): Promise<{ stocktakes: Stocktake[]; total: number }> {
  const where = `where ($1::text is null or s.status = $1) and ($2::uuid is null or s.location_id = $2)`;
  const params = [filter.status ?? null, filter.location ?? null];
  const [rows, [counted]] = await Promise.all([
    q.query<StocktakeRow>(
      `${STOCKTAKE_SELECT} ${where} order by s.created_at desc, s.id desc limit $3 offset $4`,
      [...params, window.limit, window.offset],
    ),
    q.query<{ n: number }>(`select count(*)::int as n from stocktakes s ${where}`, params),
  ]);
  return { stocktakes: rows.map(toStocktake), total: counted?.n ?? 0 };
}

/** The figures of one group of lines, from the sums the summary's statement gives (cents as text). */
type FigureRow = {
  lines: number;
  counted: number;
  units_over: number;
  units_short: number;
  cents_over: string;
  cents_short: string;
};

function toFigures(row: FigureRow): VarianceFigures {
  const over = BigInt(row.cents_over);
  const short = BigInt(row.cents_short);
  return {
    lines: row.lines,
    counted: row.counted,
    uncounted: row.lines - row.counted,
    unitsOver: row.units_over,
    unitsShort: row.units_short,
    valueOver: centsNumber(over),
    valueShort: centsNumber(short),
    net: centsNumber(over - short),
  };
}

/** A counted line's difference (null while uncounted). */
const DIFFERENCE = 'sl.counted - sl.expected_at_count';
/** A product's cost in whole cents (0 while unknown). */
const COST_CENTS = 'round(coalesce(p.cost, 0) * 100)::bigint';

/**
 * The review's figures (DESIGN §18): counted lines judged by counted − expectedAtCount, value at
 * cost; over the stocktake and by category in name order (every product has one, products.category_id
 * being required; a line without one would come last, under `category: null`).
 */
export async function stocktakeSummary(q: Q, id: string): Promise<StocktakeSummary> {
  const rows = await q.query<FigureRow & { category_id: string | null; category_name: string | null }>(
    `select c.id as category_id, c.name as category_name, count(*)::int as lines,
            count(sl.counted)::int as counted,
            coalesce(sum(greatest(${DIFFERENCE}, 0)), 0)::int as units_over,
            coalesce(sum(greatest(-(${DIFFERENCE}), 0)), 0)::int as units_short,
            coalesce(sum(greatest(${DIFFERENCE}, 0) * ${COST_CENTS}), 0)::text as cents_over,
            coalesce(sum(greatest(-(${DIFFERENCE}), 0) * ${COST_CENTS}), 0)::text as cents_short
       from stocktake_lines sl join products p on p.id = sl.product_id
       left join categories c on c.id = p.category_id
      where sl.stocktake_id = $1
      group by c.id, c.name
      order by c.name is null, lower(c.name), c.id`,
    [id],
  );
  const total: FigureRow = {
    lines: 0,
    counted: 0,
    units_over: 0,
    units_short: 0,
    cents_over: '0',
    cents_short: '0',
  };
  for (const row of rows) {
    total.lines += row.lines;
    total.counted += row.counted;
    total.units_over += row.units_over;
    total.units_short += row.units_short;
    total.cents_over = String(BigInt(total.cents_over) + BigInt(row.cents_over));
    total.cents_short = String(BigInt(total.cents_short) + BigInt(row.cents_short));
  }
  return {
    ...toFigures(total),
    categories: rows.map((row) => ({
      category: row.category_id === null ? null : { _id: row.category_id, name: row.category_name ?? '' },
      ...toFigures(row),
    })),
  };
}

export type LinesFilter = {
  search?: string;
  counted?: boolean;
  differences?: boolean;
  category?: string;
};

type LineRow = {
  id: string;
  product_id: string;
  name: string;
  sku: string | null;
  barcode: string | null;
  lot_id: string | null;
  lot_number: string | null;
  lot_expires_on: string | null;
  category_id: string | null;
  category_name: string | null;
  counted: number | null;
  counted_by_id: string | null;
  counted_by_name: string | null;
  counted_at: Date | string | null;
  expected: number;
  expected_at_count: number | null;
  cost: string | null;
  /** (counted − expectedAtCount) × cost, in cents; null while uncounted. */
  value_cents: string | null;
  posted: number | null;
};

/** What a reader of lines may see: admins everything; counters no cost, and in a blind stocktake no expectation. */
export type LineAudience = { admin: boolean; blind: boolean };

const LINE_SELECT = `select sl.id, sl.product_id, p.name, p.sku, p.barcode, sl.lot_id, lt.number as lot_number,
    lt.expires_on::text as lot_expires_on, c.id as category_id, c.name as category_name, sl.counted,
    sl.counted_by_id, sl.counted_by_name, sl.counted_at,
    coalesce(case when sl.lot_id is null then ls.stock else lts.quantity end, 0)::int as expected,
    sl.expected_at_count, p.cost::text as cost, sl.posted,
    ((sl.counted - sl.expected_at_count) * round(coalesce(p.cost, 0) * 100))::bigint::text as value_cents
  from stocktake_lines sl
  join stocktakes s on s.id = sl.stocktake_id
  join products p on p.id = sl.product_id
  left join categories c on c.id = p.category_id
  left join lots lt on lt.id = sl.lot_id
  left join location_stock ls on ls.product_id = sl.product_id and ls.location_id = s.location_id
  left join lot_stock lts on lts.lot_id = sl.lot_id and lts.location_id = s.location_id`;

/** The order lines are read in: by product name, a product's lots by expiry (none last). */
const LINE_ORDER = 'lower(p.name), p.id, lt.expires_on asc nulls last, lower(lt.number)';

function lineWhere(filter: LinesFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const clauses: string[] = [];
  const words = (filter.search ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean);
  for (const word of words) {
    params.push(`%${word.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    const n = params.length + 1;
    clauses.push(
      `(lower(p.name) like $${n} or lower(coalesce(p.sku, '')) like $${n} or lower(coalesce(p.barcode, '')) like $${n} or lower(coalesce(lt.number, '')) like $${n})`,
    );
  }
  if (filter.counted !== undefined)
    clauses.push(filter.counted ? 'sl.counted is not null' : 'sl.counted is null');
  if (filter.differences) clauses.push(`sl.counted is not null and ${DIFFERENCE} <> 0`);
  if (filter.category !== undefined) {
    if (filter.category === 'none') clauses.push('p.category_id is null');
    else {
      params.push(isId(filter.category) ? filter.category : '00000000-0000-0000-0000-000000000000');
      clauses.push(`p.category_id = $${params.length + 1}::uuid`);
    }
  }
  return { where: clauses.map((c) => ` and ${c}`).join(''), params };
}

function toLine(row: LineRow, audience: LineAudience): StocktakeLine {
  const seesExpected = audience.admin || !audience.blind;
  return {
    _id: row.id,
    product: { _id: row.product_id, name: row.name, sku: row.sku ?? '', barcode: row.barcode ?? '' },
    ...(row.lot_id && row.lot_number !== null
      ? { lot: { _id: row.lot_id, number: row.lot_number, expiresOn: row.lot_expires_on } }
      : {}),
    category: row.category_id === null ? null : { _id: row.category_id, name: row.category_name ?? '' },
    counted: row.counted,
    countedBy: row.counted_by_name === null ? null : { _id: row.counted_by_id, name: row.counted_by_name },
    countedAt: iso(row.counted_at),
    ...(seesExpected ? { expected: row.expected, expectedAtCount: row.expected_at_count } : {}),
    ...(audience.admin
      ? {
          cost: Number(row.cost ?? 0),
          value: row.value_cents === null ? null : centsNumber(BigInt(row.value_cents)),
          posted: row.posted,
        }
      : {}),
  };
}

/** A page of a stocktake's lines (all of them without a window: the count sheet). */
export async function stocktakeLines(
  q: Q,
  id: string,
  filter: LinesFilter,
  audience: LineAudience,
  window?: { limit: number; offset: number },
): Promise<{ lines: StocktakeLine[]; total: number }> {
  const { where, params } = lineWhere(filter);
  const paging = window ? ` limit ${Number(window.limit)} offset ${Number(window.offset)}` : '';
  const [rows, [counted]] = await Promise.all([
    q.query<LineRow>(`${LINE_SELECT} where sl.stocktake_id = $1${where} order by ${LINE_ORDER}${paging}`, [
      id,
      ...params,
    ]),
    q.query<{ n: number }>(
      `select count(*)::int as n from stocktake_lines sl join products p on p.id = sl.product_id
         left join lots lt on lt.id = sl.lot_id where sl.stocktake_id = $1${where}`,
      [id, ...params],
    ),
  ]);
  return { lines: rows.map((row) => toLine(row, audience)), total: counted?.n ?? 0 };
}

/**
 * The statements of a count, named so that PostgreSQL plans each once per connection (a scanner
 * sends one count after another): the stocktake read whole as it is locked key-share; the
 * products the codes name, each with its line when it has no lots (one probe of the lines' key:
 * with product_id = any(…) the planner, which has no statistics of a new stocktake yet, walked
 * all of its lines for each count); the lines locked in id order with the ledger's stock of each;
 * their last count and every count kept, in one statement; the lines counted, as they are now.
 */
const COUNT_LOCK = statement(
  'stocktake_count_lock',
  `${STOCKTAKE_SELECT} where s.id = $1 for key share of s`,
);
const PRODUCTS_OF = statement(
  'stocktake_count_products',
  `select x.code, m.id, m.name, m.tracking,
            exists (select 1 from stocktake_products sp where sp.stocktake_id = $1 and sp.product_id = m.id) as in_scope,
            (select sl.id from stocktake_lines sl
              where sl.stocktake_id = $1 and sl.lot_id is null and sl.product_id = m.id) as line_id
       from unnest($2::text[]) as x(code)
       cross join lateral (
         select p.id, p.name, p.tracking from products p
          where p.id = case when x.code ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                             then x.code::uuid end
         union all
         (select p.id, p.name, p.tracking from products p where lower(p.sku) = lower(x.code) and p.sku is not null)
         union all
         (select p.id, p.name, p.tracking from products p where lower(p.barcode) = lower(x.code) and p.barcode is not null)
         limit 1) m`,
);
const LOCK_LINES = statement(
  'stocktake_count_lock_lines',
  `select sl.id, sl.counted,
            coalesce(case when sl.lot_id is null then ls.stock else lts.quantity end, 0)::int as stock
       from stocktake_lines sl
       left join location_stock ls on sl.lot_id is null and ls.product_id = sl.product_id and ls.location_id = $2
       left join lot_stock lts on lts.lot_id = sl.lot_id and lts.location_id = $2
      where sl.id = any($1::uuid[]) order by sl.id for update of sl`,
);
const RECORD_COUNTS = statement(
  'stocktake_count_record',
  `with counted as (
       update stocktake_lines sl
          set counted = x.counted, expected_at_count = x.expected, counted_by_id = $2, counted_by_name = $3,
              counted_at = now()
         from jsonb_to_recordset($1::jsonb) as x(line uuid, counted int, expected int)
        where sl.id = x.line)
     insert into stocktake_counts (line_id, mode, quantity, counted_after, expected_at_count, user_id, user_name, at)
     select x.line, x.mode, x.quantity, x.after, x.expected, $2, $3, now()
       from jsonb_to_recordset($4::jsonb) as x(line uuid, mode text, quantity int, after int, expected int)`,
);
const LINES_BY_ID = statement(
  'stocktake_count_lines',
  `${LINE_SELECT} where sl.id = any($1::uuid[]) order by ${LINE_ORDER}`,
);

/** The lines a count touched, as they are now, in the lines' order, for the one who counted. */
export async function countedLines(q: Q, ids: string[], audience: LineAudience): Promise<StocktakeLine[]> {
  if (ids.length === 0) return [];
  const rows = await q.run<LineRow>(LINES_BY_ID, [ids]);
  return rows.map((row) => toLine(row, audience));
}

type Locked = { id: string; number: string; status: StocktakeStatus; locationId: string; blind: boolean };

/**
 * The stocktake's row, locked: `key share` for counts, which run side by side (and may count one
 * more line on it, a no-key update that key-share locks let through); `update` for post and
 * cancel, which wait for the counts under way, and they for it.
 */
async function lockStocktake(q: Q, id: string, strength: 'key share' | 'update'): Promise<Locked> {
  if (!isId(id)) throw notFound('Stocktake');
  const [row] = await q.query<{
    id: string;
    number: string | number;
    status: StocktakeStatus;
    location_id: string;
    blind: boolean;
  }>(`select id, number, status, location_id, blind from stocktakes where id = $1 for ${strength}`, [id]);
  if (!row) throw notFound('Stocktake');
  return {
    id: row.id,
    number: stocktakeNumber(Number(row.number)),
    status: row.status,
    locationId: row.location_id,
    blind: row.blind,
  };
}

function refuseStep(stocktake: Locked, step: string) {
  return refuse('STOCKTAKE_STATUS', {
    stocktake: stocktake.number,
    status: STATUS_WORDS[stocktake.status],
    step,
  });
}

/** The products a scope names: categories' products and named products; neither, every product with stock there. */
const SCOPE_PRODUCTS = `select p.id, p.tracking from products p
  where (cardinality($2::uuid[]) = 0 and cardinality($3::uuid[]) = 0
         and exists (select 1 from location_stock ls where ls.product_id = p.id and ls.location_id = $1 and ls.stock > 0))
     or p.category_id = any($2::uuid[])
     or p.id = any($3::uuid[])`;

/** Ids that must name rows of `table`: a 400 naming the first that does not. */
async function checkKnown(
  q: Q,
  table: 'categories' | 'products',
  ids: string[],
  label: string,
): Promise<string[]> {
  const unique = [...new Set(ids)];
  const bad = unique.find((value) => !isId(value));
  if (bad !== undefined) throw badRequest(`No ${label} has the id ${bad}.`);
  if (unique.length === 0) return [];
  const rows = await q.query<{ id: string }>(`select id from ${table} where id = any($1::uuid[])`, [unique]);
  const found = new Set(rows.map((row) => row.id));
  const missing = unique.find((value) => !found.has(value));
  if (missing !== undefined) throw badRequest(`No ${label} has the id ${missing}.`);
  return unique;
}

/** The open stocktake at a location that counts one of a scope's products, and how many of them. */
async function overlapOf(
  q: Q,
  scope: unknown[],
): Promise<{ number: string | number; products: number } | undefined> {
  const [overlap] = await q.query<{ number: string | number; products: number }>(
    `with scope as (${SCOPE_PRODUCTS})
     select s.number, count(*)::int as products
       from stocktake_products sp join stocktakes s on s.id = sp.stocktake_id
      where sp.open and sp.location_id = $1 and sp.product_id in (select id from scope)
      group by s.number order by s.number limit 1`,
    scope,
  );
  return overlap;
}

/**
 * Makes a stocktake (DESIGN §18): its products fixed now, a line per product (per lot with stock
 * there for a tracked one). Overlapping an open stocktake at that location is a 409 naming it, also
 * when two are made at once: the open key makes the later wait for the earlier and then fail, and
 * it is read again past a savepoint to name the one that won. The location is locked `for share`,
 * so a deactivation in progress (which locks it `for update` before it looks for open stocktakes)
 * either finishes first and this one is refused, or waits and then finds this one. Answers its id.
 */
export async function insertStocktake(tx: Tx, input: StocktakeValues, actor: Actor): Promise<string> {
  const q = runnerOf(tx);
  const location = await locationFor(q, input.location);
  const [held] = await q.query<{ active: boolean }>('select active from locations where id = $1 for share', [
    location.id,
  ]);
  if (!held?.active) throw refuse('LOCATION_INACTIVE', { location: location.name });
  const categories = await checkKnown(q, 'categories', input.categories ?? [], 'category');
  const products = await checkKnown(q, 'products', input.products ?? [], 'product');
  const scope = [location.id, categories, products];
  const refuseOverlap = (overlap: { number: string | number; products: number }) =>
    refuse('STOCKTAKE_OVERLAP', {
      stocktake: stocktakeNumber(Number(overlap.number)),
      location: location.name,
      products: overlap.products,
    });
  const overlap = await overlapOf(q, scope);
  if (overlap) throw refuseOverlap(overlap);
  const [made] = await q.query<{ id: string; number: string | number }>(
    `insert into stocktakes (location_id, blind, scope, note, user_id, user_name)
     values ($1, $2, $3::jsonb, $4, $5, $6) returning id, number`,
    [location.id, input.blind, JSON.stringify({ categories, products }), input.note, actor.id, actor.name],
  );
  if (!made) throw new Error('insert returned no stocktake');
  await q.query('savepoint stocktake_products');
  try {
    const [added] = await q.query<{ n: number }>(
      `with scope as (${SCOPE_PRODUCTS}),
       added as (insert into stocktake_products (stocktake_id, product_id, location_id)
                 select $4, id, $1 from scope returning product_id)
       select count(*)::int as n from added`,
      [...scope, made.id],
    );
    if ((added?.n ?? 0) === 0) throw refuse('STOCKTAKE_EMPTY', { location: location.name });
  } catch (error) {
    if (pgCode(error) !== '23505' || violatedConstraint(error) !== 'stocktake_products_open_key') throw error;
    // Another stocktake of these products committed while this one waited on the open key.
    await q.query('rollback to savepoint stocktake_products');
    const winner = await overlapOf(q, scope);
    throw winner
      ? refuseOverlap(winner)
      : refuse('STOCKTAKE_OVERLAP', { stocktake: 'Another stocktake', location: location.name, products: 1 });
  }
  await q.query(
    `with made as (insert into stocktake_lines (stocktake_id, product_id, lot_id)
     select sp.stocktake_id, sp.product_id, null from stocktake_products sp join products p on p.id = sp.product_id
      where sp.stocktake_id = $1 and p.tracking <> 'lot'
     union all
     select sp.stocktake_id, sp.product_id, lts.lot_id from stocktake_products sp
       join products p on p.id = sp.product_id
       join lot_stock lts on lts.product_id = sp.product_id and lts.location_id = sp.location_id and lts.quantity > 0
      where sp.stocktake_id = $1 and p.tracking = 'lot'
     returning 1)
     update stocktakes set line_count = (select count(*) from made) where id = $1`,
    [made.id],
  );
  const number = stocktakeNumber(Number(made.number));
  await recordAudit(tx, {
    actor,
    action: 'created',
    entity: { type: 'stocktake', id: made.id, name: number },
    changes: [
      { field: 'location', new: location.name },
      ...(input.blind ? [{ field: 'blind', new: true }] : []),
      ...(input.note ? [{ field: 'note', new: input.note }] : []),
    ],
  });
  return made.id;
}

/** A count's product as the stocktake's scope knows it. */
type ScopeProduct = { id: string; name: string; tracking: string; lineId: string | null };

/** A count that cannot be taken, and why (the sheet lists them by row; a JSON request refuses the first). */
export type CountProblem = { index: number; error: AppError };

/**
 * The products counts name, by _id, else SKU, else barcode (ignoring case), each as the scope has
 * it. Codes matching no product in the scope come back absent.
 */
async function productsOf(
  q: Q,
  stocktakeId: string,
  codes: string[],
): Promise<Map<string, ScopeProduct | string>> {
  const unique = [...new Set(codes)];
  const rows = await q.run<{
    code: string;
    id: string;
    name: string;
    tracking: string;
    in_scope: boolean;
    line_id: string | null;
  }>(PRODUCTS_OF, [stocktakeId, unique]);
  // A known product outside the scope answers its name (for the refusal); an unknown code nothing.
  return new Map(
    rows.map((row) => [
      row.code,
      row.in_scope ? { id: row.id, name: row.name, tracking: row.tracking, lineId: row.line_id } : row.name,
    ]),
  );
}

/**
 * The stocktake's line of a lot, made when the lot is not on the list. A count making the same line
 * at the same moment makes this insert wait for it and then do nothing; the line it made is
 * committed after this statement's snapshot, so it is read by a statement of its own.
 */
async function lotLine(
  q: Q,
  stocktakeId: string,
  productId: string,
  lotId: string,
): Promise<{ id: string; made: boolean }> {
  // A new line counts one more on the stocktake: a no-key update, which the counts' key-share
  // locks let through.
  const [made] = await q.query<{ id: string }>(
    `with made as (insert into stocktake_lines (stocktake_id, product_id, lot_id) values ($1, $2, $3)
                   on conflict (stocktake_id, lot_id) where lot_id is not null do nothing returning id),
          counted as (update stocktakes set line_count = line_count + 1 where id = $1 and exists (select 1 from made))
     select id from made`,
    [stocktakeId, productId, lotId],
  );
  if (made) return { id: made.id, made: true };
  const [line] = await q.query<{ id: string }>(
    'select id from stocktake_lines where stocktake_id = $1 and lot_id = $2',
    [stocktakeId, lotId],
  );
  if (!line) throw new Error('no stocktake line for a lot');
  return { id: line.id, made: false };
}

/** A count resolved to its line. */
type Resolved = { index: number; lineId: string; quantity: number; mode: CountMode };

/**
 * Resolves counts to lines: the product in the scope, a tracked one's lot (a lot not on the list
 * becomes a line; a new number needs its expiry). Answers the problems instead when there are any
 * and `collect` is set; otherwise refuses the first.
 */
async function resolveCounts(
  tx: Tx,
  stocktake: Locked,
  counts: readonly CountInput[],
  collect: boolean,
): Promise<{ resolved: Resolved[]; problems: CountProblem[]; added: number }> {
  const q = runnerOf(tx);
  const products = await productsOf(
    q,
    stocktake.id,
    counts.map((count) => count.product),
  );
  const problems: CountProblem[] = [];
  const wanted: { index: number; product: ScopeProduct; lot?: CountInput['lot']; count: CountInput }[] = [];
  const fail = (index: number, error: AppError) => {
    if (!collect) throw error;
    problems.push({ index, error });
  };
  for (const [index, count] of counts.entries()) {
    const product = products.get(count.product);
    if (product === undefined || typeof product === 'string')
      fail(
        index,
        refuse('STOCKTAKE_OUT_OF_SCOPE', { product: product ?? count.product, stocktake: stocktake.number }),
      );
    else if (product.tracking === 'lot' && count.lot === undefined) fail(index, refuse('LOT_NEEDED'));
    else if (product.tracking !== 'lot' && count.lot !== undefined)
      fail(index, badRequest(`${product.name} is not tracked by lot, so name no lot.`));
    else wanted.push({ index, product, lot: count.lot, count });
  }
  if (problems.length > 0) return { resolved: [], problems, added: 0 };
  // Lots first: a number not on the list becomes a line (creating the lot when it is new), in
  // (product, number) order, so two counts making the same new lines wait on each other in one
  // order rather than in a circle.
  const lotKey = (want: { product: ScopeProduct; lot?: CountInput['lot'] }) =>
    `${want.product.id}|${want.lot?.number.toLowerCase()}`;
  const lotLines = new Map<string, string>();
  let added = 0;
  const lotted = wanted
    .filter((want) => want.lot)
    .sort((a, b) => (lotKey(a) < lotKey(b) ? -1 : lotKey(a) > lotKey(b) ? 1 : 0));
  for (const want of lotted) {
    if (!want.lot || lotLines.has(lotKey(want))) continue;
    try {
      const lot = await lotForAdding(q, want.product.id, want.lot);
      const line = await lotLine(q, stocktake.id, want.product.id, lot._id);
      lotLines.set(lotKey(want), line.id);
      if (line.made) added += 1;
    } catch (error) {
      if (!collect) throw error;
      problems.push({ index: want.index, error: error as AppError });
    }
  }
  if (problems.length > 0) return { resolved: [], problems, added: 0 };
  const resolved = wanted.map((want) => {
    const lineId = want.lot ? lotLines.get(lotKey(want)) : want.product.lineId;
    if (!lineId) throw new Error(`no stocktake line for ${want.product.name}`);
    return { index: want.index, lineId, quantity: want.count.quantity, mode: want.count.mode };
  });
  return { resolved, problems, added };
}

/**
 * Records counts (DESIGN §18): `add` adds, `set` replaces, in the order sent; each line keeps its
 * last count's who and when and the ledger's stock of the line read under the line's lock. All or
 * none: a refused count writes none. With `collect`, problems are answered (by the index of the
 * count) rather than refused, and nothing is written. Answers the lines it counted.
 */
export async function recordCounts(
  tx: Tx,
  id: string,
  counts: readonly CountInput[],
  actor: Actor,
  options: { collect?: boolean } = {},
): Promise<{ lineIds: string[]; problems: CountProblem[]; stocktake: Stocktake }> {
  const q = runnerOf(tx);
  // The stocktake read whole as it is locked: the count's answer (only a lot line made here can
  // change it, by one line each).
  if (!isId(id)) throw notFound('Stocktake');
  const [row] = await q.run<StocktakeRow>(COUNT_LOCK, [id]);
  if (!row) throw notFound('Stocktake');
  const read = toStocktake(row);
  const stocktake: Locked = {
    id: read._id,
    number: read.number,
    status: read.status,
    locationId: read.location._id,
    blind: read.blind,
  };
  if (stocktake.status !== 'counting') throw refuseStep(stocktake, 'counted');
  const { resolved, problems, added } = await resolveCounts(tx, stocktake, counts, options.collect ?? false);
  if (problems.length > 0) return { lineIds: [], problems, stocktake: read };
  const lineIds = [...new Set(resolved.map((r) => r.lineId))].sort();
  // The lines locked in id order (racing counts queue here, each then reading the last committed
  // count), with the ledger's stock of each at this moment.
  const locked = await q.run<{ id: string; counted: number | null; stock: number }>(LOCK_LINES, [
    lineIds,
    stocktake.locationId,
  ]);
  const state = new Map(locked.map((row) => [row.id, { counted: row.counted, stock: row.stock }]));
  const history: { line: string; mode: CountMode; quantity: number; after: number; expected: number }[] = [];
  for (const count of resolved) {
    const line = state.get(count.lineId);
    if (!line) throw new Error('a counted line was not locked');
    const after = count.mode === 'add' ? (line.counted ?? 0) + count.quantity : count.quantity;
    if (after > 1_000_000) throw badRequest('A line may count at most 1,000,000 units.');
    line.counted = after;
    history.push({
      line: count.lineId,
      mode: count.mode,
      quantity: count.quantity,
      after,
      expected: line.stock,
    });
  }
  const finals = [...state.entries()].map(([line, s]) => ({ line, counted: s.counted, expected: s.stock }));
  // The lines' last count and every count kept, in one statement.
  await q.run(RECORD_COUNTS, [JSON.stringify(finals), actor.id, actor.name, JSON.stringify(history)]);
  return { lineIds, problems: [], stocktake: { ...read, lines: read.lines + added } };
}

/** The most movements a post writes in one statement. */
const POST_BATCH = 500;

type PostLine = {
  id: string;
  product_id: string;
  name: string;
  lot_id: string | null;
  lot_number: string | null;
  lot_expires_on: string | null;
  counted: number | null;
  expected_at_count: number | null;
  stock: number;
};

/**
 * Posts a stocktake (DESIGN §18), once: each counted line one `count` movement of
 * counted − expectedAtCount (a zero too), an uncounted one kept or written down to 0; a line that
 * would fall below 0 goes to 0 and is listed in `clamped`. One transaction: the stocktake locked,
 * then its products in id order, then their stock read and the movements written.
 */
export async function postStocktake(
  tx: Tx,
  id: string,
  uncounted: 'keep' | 'zero',
  actor: Actor,
): Promise<{ clamped: ClampedLine[] }> {
  const q = runnerOf(tx);
  const stocktake = await lockStocktake(q, id, 'update');
  if (stocktake.status !== 'counting') throw refuseStep(stocktake, 'posted');
  const location = await locationFor(q, stocktake.locationId, { inactive: 'allowed' });
  await q.query(
    `select p.id from stocktake_products sp join products p on p.id = sp.product_id
      where sp.stocktake_id = $1 order by p.id for no key update of p`,
    [id],
  );
  const lines = await q.query<PostLine>(
    `select sl.id, sl.product_id, p.name, sl.lot_id, lt.number as lot_number, lt.expires_on::text as lot_expires_on,
            sl.counted, sl.expected_at_count,
            coalesce(case when sl.lot_id is null then ls.stock else lts.quantity end, 0)::int as stock
       from stocktake_lines sl join products p on p.id = sl.product_id
       left join lots lt on lt.id = sl.lot_id
       left join location_stock ls on sl.lot_id is null and ls.product_id = sl.product_id and ls.location_id = $2
       left join lot_stock lts on lts.lot_id = sl.lot_id and lts.location_id = $2
      where sl.stocktake_id = $1
      order by sl.product_id, sl.lot_id nulls first`,
    [id, stocktake.locationId],
  );
  const note = `Counted in ${stocktake.number}`;
  const movements: NewMovement[] = [];
  const posted: { line: string; posted: number | null }[] = [];
  const clamped: ClampedLine[] = [];
  for (const line of lines) {
    let difference: number | null = null;
    if (line.counted !== null && line.expected_at_count !== null)
      difference = line.counted - line.expected_at_count;
    else if (uncounted === 'zero') difference = -line.stock;
    if (difference === null) {
      posted.push({ line: line.id, posted: null });
      continue;
    }
    const quantity = Math.max(difference, -line.stock);
    if (quantity !== difference)
      clamped.push({
        product: { _id: line.product_id, name: line.name },
        ...(line.lot_id && line.lot_number !== null
          ? { lot: { _id: line.lot_id, number: line.lot_number, expiresOn: line.lot_expires_on } }
          : {}),
        difference,
        posted: quantity,
      });
    // An uncounted line with nothing there has nothing to write down.
    if (line.counted === null && quantity === 0) {
      posted.push({ line: line.id, posted: null });
      continue;
    }
    posted.push({ line: line.id, posted: quantity });
    movements.push({
      productId: line.product_id,
      kind: 'count',
      quantity,
      note,
      actor,
      lotId: line.lot_id,
      locationId: stocktake.locationId,
      stocktakeId: id,
    });
  }
  // In batches: the ledger applies each movement by its trigger (about a millisecond apiece on
  // PostgreSQL), and one statement of thousands would outlast the statement time limit.
  for (let at = 0; at < movements.length; at += POST_BATCH)
    await recordMovements(q, movements.slice(at, at + POST_BATCH));
  await q.query(
    `update stocktake_lines sl set posted = x.posted
       from jsonb_to_recordset($1::jsonb) as x(line uuid, posted int)
      where sl.id = x.line and x.posted is not null`,
    [JSON.stringify(posted)],
  );
  await q.query(
    `update stocktakes set status = 'posted', posted_at = now(), posted_by_id = $2, posted_by_name = $3, uncounted = $4
      where id = $1`,
    [id, actor.id, actor.name, uncounted],
  );
  await q.query('update stocktake_products set open = false where stocktake_id = $1', [id]);
  await recordAudit(tx, {
    actor,
    action: 'posted',
    entity: { type: 'stocktake', id, name: stocktake.number },
    changes: [
      { field: 'location', new: location.name },
      { field: 'uncounted', new: uncounted },
      { field: 'movements', new: movements.length },
      ...(clamped.length > 0 ? [{ field: 'clamped', new: clamped.length }] : []),
    ],
  });
  return { clamped };
}

/** Cancels a stocktake still counting: nothing is written to the stock; its products are free again. */
export async function cancelStocktake(tx: Tx, id: string, actor: Actor): Promise<void> {
  const q = runnerOf(tx);
  const stocktake = await lockStocktake(q, id, 'update');
  if (stocktake.status !== 'counting') throw refuseStep(stocktake, 'cancelled');
  await q.query(`update stocktakes set status = 'cancelled', cancelled_at = now() where id = $1`, [id]);
  await q.query('update stocktake_products set open = false where stocktake_id = $1', [id]);
  await recordAudit(tx, {
    actor,
    action: 'cancelled',
    entity: { type: 'stocktake', id, name: stocktake.number },
  });
}

/** Whether a stocktake is blind (what its counters may see), or undefined when there is none. */
export async function stocktakeAudience(q: Q, id: string): Promise<{ blind: boolean } | undefined> {
  if (!isId(id)) return undefined;
  const [row] = await q.query<{ blind: boolean }>('select blind from stocktakes where id = $1', [id]);
  return row ? { blind: row.blind } : undefined;
}
