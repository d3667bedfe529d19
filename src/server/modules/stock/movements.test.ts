import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, runnerOf } from '../../db/connection';
import { stockMovements } from '../../db/schema';
import { pgCode } from '../../lib/errors';
import { projectRoot } from '../../lib/project-root';
import { openTestDatabase, targets } from '../../test/harness';
import { bulkLoadMovementsInsert, movementsInsert, type NewMovement, recordMovements } from './movements';

/** A statement that writes the stock ledger, in TypeScript, SQL or Drizzle, across line breaks. */
const WRITES_LEDGER = /insert\s+into\s+stock_movements\b|\.insert\(\s*(?:\w+\.)?stockMovements\s*\)/i;

/** Files of src/ and bench/ that may write the ledger themselves, each with why. */
const EXCEPTIONS: Record<string, string> = {
  'src/server/modules/stock/movements.ts': 'the one writer',
  'src/server/db/lots-ledger.test.ts': "tests the ledger's trigger itself, below every writer",
  'src/server/db/ledger-migration.test.ts': 'writes at the schema of an old migration',
  'src/server/db/books-migration.test.ts':
    'writes at the schema of an old migration (before stock had a value)',
};
/** The database's own writers: the trigger and the opening movement, and the migrations. */
const DATABASE_FILES = /^(?:src\/server\/db\/functions\/[^/]+\.sql|migrations\/.*)$/;

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory())
      return name === 'node_modules' || name === 'results' ? [] : filesUnder(path);
    return /\.(?:[cm]?[jt]sx?|sql)$/.test(name) ? [path] : [];
  });
}

describe('the writers of the stock ledger', () => {
  const root = projectRoot();
  const writers = ['src', 'bench']
    .flatMap((folder) => filesUnder(join(root, folder)))
    .filter((path) => WRITES_LEDGER.test(readFileSync(path, 'utf8')))
    .map((path) => relative(root, path).split('\\').join('/'));

  it('no file of src/ or bench/ writes stock_movements but movements.ts and the listed exceptions', () => {
    const others = writers.filter((path) => !(path in EXCEPTIONS) && !DATABASE_FILES.test(path));
    expect(others, 'record movements through src/server/modules/stock/movements.ts').toEqual([]);
  });

  it('every listed exception still writes the ledger (the list does not outlive its reasons)', () => {
    expect(Object.keys(EXCEPTIONS).filter((path) => !writers.includes(path))).toEqual([]);
  });
});

describe.each(targets)('recording movements on $name', (target) => {
  let database: Database;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ database, dispose } = await openTestDatabase(target));
  });
  afterAll(async () => dispose?.());

  /** A product without lots at stock 0 (its opening movement of 0 written by the database). */
  async function product(): Promise<string> {
    const tag = randomUUID().slice(0, 8);
    const [row] = await database.query<{ id: string }>(
      `with c as (insert into categories (name) values ($1) returning id),
            s as (insert into suppliers (name) values ($1) returning id)
       insert into products (name, price, stock, category_id, supplier_id)
       select $1, 1, 0, c.id, s.id from c, s returning id`,
      [`Movements ${tag}`],
    );
    return row?.id as string;
  }
  const stockOf = async (id: string) =>
    (await database.query<{ stock: number }>('select stock from products where id = $1', [id]))[0]?.stock;
  const countOf = async (id: string) =>
    (
      await database.query<{ n: number }>(
        'select count(*)::int as n from stock_movements where product_id = $1',
        [id],
      )
    )[0]?.n;

  it('records in the order given: each stock after is the one before it plus its quantity', async () => {
    const id = await product();
    const recorded = await recordMovements(database, [
      { productId: id, kind: 'receipt', quantity: 2 },
      { productId: id, kind: 'sale', quantity: -2 },
      { productId: id, kind: 'adjustment', quantity: 5, reason: 'found' },
    ]);
    expect(recorded.map((m) => [m.kind, m.quantity, m.stockAfter])).toEqual([
      ['receipt', 2, 2],
      ['sale', -2, 0],
      ['adjustment', 5, 5],
    ]);
    expect(await stockOf(id)).toBe(5);
  });

  it("fills in what a movement leaves out: note '', no reason or signer, the transaction's time; 'clock' each row's own", async () => {
    const id = await product();
    const seen = await database.db.transaction(async (tx) => {
      const runner = runnerOf(tx);
      // The clock moves on past the transaction's start (PGlite's clock may tick in milliseconds).
      await runner.query('select pg_sleep(0.01)');
      const [plain, first, second] = await recordMovements(runner, [
        { productId: id, kind: 'receipt', quantity: 1 },
        { productId: id, kind: 'receipt', quantity: 1, at: 'clock' },
        { productId: id, kind: 'receipt', quantity: 1, at: 'clock' },
      ]);
      const [times] = await runner.query<{ plain: boolean; first: boolean; later: boolean }>(
        `select (select at from stock_movements where id = $1) = now() as plain,
                (select at from stock_movements where id = $2) > now() as first,
                (select at from stock_movements where id = $3) >= (select at from stock_movements where id = $2) as later`,
        [plain?.id, first?.id, second?.id],
      );
      return { plain, times };
    });
    expect(seen.plain).toMatchObject({
      note: '',
      reason: null,
      userId: null,
      userName: null,
      orderId: null,
      purchaseOrderId: null,
      refundId: null,
      lotId: null,
    });
    expect(seen.times).toEqual({ plain: true, first: true, later: true });
  });

  it('writes every column a movement gives, answering the row as the table reads it', async () => {
    const id = await product();
    await database.query(`update products set tracking = 'lot' where id = $1`, [id]);
    const [lot] = await database.query<{ id: string }>(
      `insert into lots (product_id, number) values ($1, 'L-1') returning id`,
      [id],
    );
    const given: NewMovement = {
      productId: id,
      kind: 'receipt',
      quantity: 4,
      reason: 'received',
      note: 'All of them',
      actor: { id: randomUUID(), name: 'Ana Stock' },
      orderId: randomUUID(),
      purchaseOrderId: randomUUID(),
      refundId: randomUUID(),
      lotId: lot?.id as string,
      at: new Date('2024-05-06T07:08:09.123Z'),
    };
    const [recorded] = await recordMovements(database, [given]);
    const [stored] = await database.db
      .select()
      .from(stockMovements)
      .where(eq(stockMovements.id, recorded?.id as string));
    expect(recorded).toEqual(stored);
    expect(stored).toMatchObject({
      productId: id,
      kind: 'receipt',
      quantity: 4,
      stockAfter: 4,
      reason: 'received',
      note: 'All of them',
      userId: given.actor?.id,
      userName: 'Ana Stock',
      orderId: given.orderId,
      purchaseOrderId: given.purchaseOrderId,
      refundId: given.refundId,
      lotId: lot?.id,
      at: new Date('2024-05-06T07:08:09.123Z'),
    });
    const [lotNow] = await database.query<{ quantity: number }>('select quantity from lots where id = $1', [
      lot?.id,
    ]);
    expect(lotNow?.quantity).toBe(4);
    // An ISO time is taken as given too.
    const [iso] = await recordMovements(database, [
      { productId: id, kind: 'receipt', quantity: 1, lotId: lot?.id, at: '2024-05-07T00:00:00.000Z' },
    ]);
    expect(iso?.at).toEqual(new Date('2024-05-07T00:00:00.000Z'));
  });

  it("a refusal of the ledger's trigger (IMS01) undoes the whole statement", async () => {
    const id = await product();
    await recordMovements(database, [{ productId: id, kind: 'receipt', quantity: 1 }]);
    const before = await countOf(id);
    const refused = await recordMovements(database, [
      { productId: id, kind: 'receipt', quantity: 3 },
      { productId: id, kind: 'sale', quantity: -10 },
    ]).catch((error: unknown) => error);
    expect(pgCode(refused)).toBe('IMS01');
    expect(await countOf(id)).toBe(before);
    expect(await stockOf(id)).toBe(1);
  });

  it('an empty list writes nothing and answers nothing', async () => {
    const id = await product();
    const before = await countOf(id);
    expect(await recordMovements(database, [])).toEqual([]);
    expect(await countOf(id)).toBe(before);
  });

  it("movementsInsert records the rows of a select, in the order asked, each column's default as recordMovements", async () => {
    const ids = [await product(), await product()].sort();
    await database.db.transaction(async (tx) => {
      const runner = runnerOf(tx);
      await runner.query(
        movementsInsert({
          values: {
            product_id: 'p.id',
            kind: "'count'",
            quantity: '$2::int',
            user_name: "'Count ' || p.name",
          },
          from: 'products p',
          where: 'p.id = any($1::uuid[])',
          orderBy: 'p.id',
        }),
        [ids, 3],
      );
      const rows = await runner.query<{
        product_id: string;
        stock_after: number;
        note: string;
        now: boolean;
      }>(
        `select product_id, stock_after, note, at = now() as now, user_name like 'Count Movements %' as named
           from stock_movements where product_id = any($1::uuid[]) and kind = 'count'`,
        [ids],
      );
      expect(rows.map((row) => ({ ...row }))).toEqual(
        expect.arrayContaining(
          ids.map((id) => ({ product_id: id, stock_after: 3, note: '', now: true, named: true })),
        ),
      );
      expect(rows).toHaveLength(2);
    });
    // Grouped, as a refund writes off what it just took back.
    const [id] = ids as [string];
    await database.query(
      movementsInsert({
        values: {
          product_id: 'm.product_id',
          kind: "'adjustment'",
          quantity: '-sum(m.quantity)::int',
          reason: "'damaged'",
          note: "'written off'",
        },
        from: 'stock_movements m',
        where: "m.product_id = $1 and m.kind = 'count'",
        groupBy: 'm.product_id',
      }),
      [id],
    );
    expect(await stockOf(id)).toBe(0);
  });

  it("bulkLoadMovementsInsert writes the stock after itself, for a load with the ledger's trigger off", async () => {
    const id = await product();
    const kept = await database.db
      .transaction(async (tx) => {
        const runner = runnerOf(tx);
        await runner.query('alter table stock_movements disable trigger stock_movements_apply');
        await runner.query(
          bulkLoadMovementsInsert({
            values: { product_id: 'p.id', kind: "'initial'", quantity: '7', value: '0' },
            stockAfter: '7',
            from: 'products p',
            where: 'p.id = $1',
          }),
          [id],
        );
        const [row] = await runner.query<{ stock_after: number; stock: number }>(
          `select m.stock_after, p.stock from stock_movements m join products p on p.id = m.product_id
            where m.product_id = $1 and m.kind = 'initial' and m.quantity = 7`,
          [id],
        );
        // Undone with the transaction: the trigger stays on for the other tests.
        throw Object.assign(new Error('roll back'), { row });
      })
      .catch((error: { row?: unknown }) => error.row);
    expect(kept).toEqual({ stock_after: 7, stock: 0 });
  });
});
