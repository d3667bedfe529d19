import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProductListResponse } from '../../shared/products';
import { type Account, parsed, startApp, type TestApp, targets } from '../test/harness';
import { EXPENSIVE_READ_LIMITS, ExpensiveReads, TOO_MANY_READS } from './expensive-reads';

describe('ExpensiveReads', () => {
  it('runs two of a user at once, the next ones in turn; other users keep their own', async () => {
    const reads = new ExpensiveReads({ running: 2, waiting: 2, waitMs: 10_000 });
    const first = await reads.take('a');
    const second = await reads.take('a');
    const started: string[] = [];
    const third = reads.take('a').then((release) => {
      started.push('third');
      return release;
    });
    const fourth = reads.take('a').then((release) => {
      started.push('fourth');
      return release;
    });
    expect(await reads.take('b')).toBeDefined();
    // Two waiting already: the next is refused at once.
    expect(await reads.take('a')).toBeUndefined();
    expect(reads.of('a')).toEqual({ running: 2, waiting: 2 });
    first?.();
    first?.();
    expect(await third).toBeDefined();
    expect(started).toEqual(['third']);
    expect(reads.of('a')).toEqual({ running: 2, waiting: 1 });
    second?.();
    (await fourth)?.();
    (await third)?.();
    expect(started).toEqual(['third', 'fourth']);
    expect(reads.of('a')).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a read that waited too long, or whose caller hung up, and passes the turn on', async () => {
    const reads = new ExpensiveReads({ running: 1, waiting: 5, waitMs: 30 });
    const running = await reads.take('a');
    expect(await reads.take('a')).toBeUndefined();
    let hangUp: () => void = () => {};
    const gone = new Promise<void>((resolve) => {
      hangUp = resolve;
    });
    const hungUp = reads.take('a', gone);
    const next = reads.take('a');
    hangUp();
    expect(await hungUp).toBeUndefined();
    running?.();
    const release = await next;
    expect(release).toBeDefined();
    expect(reads.of('a')).toEqual({ running: 1, waiting: 0 });
    release?.();
    expect(reads.of('a')).toEqual({ running: 0, waiting: 0 });
  });
});

const until = async (done: () => boolean) => {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 10_000) throw new Error('still waiting after 10 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/**
 * Issue 34, finding 5: an employee's searches, one after another from two clients, slowed every
 * sale of the store (25 ms → 1.3 s). A user's expensive reads run EXPENSIVE_READ_LIMITS.running at
 * once; the next ones wait their turn, and one past those waiting is refused, before anything is
 * asked of the database.
 */
describe.each(targets)('expensive reads per user on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    // The searches below wait on a lock for longer than a search may run.
    t = await startApp(target, { config: { searchTimeLimitMs: 30_000 } });
    await t.product({ name: 'Green tea' });
  });
  afterAll(() => t?.close());

  /**
   * Holds the products table until the returned function is called: reads of it wait, in flight
   * (on PGlite, which runs one statement at a time, every statement waits).
   */
  const holdProducts = async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: () => void = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = t.app.db.transaction(async (tx) => {
      await tx.execute(sql`lock table products in access exclusive mode`);
      locked();
      await gate;
    });
    await isLocked;
    return async () => {
      release();
      await holding;
    };
  };
  const get = (who: Account, url: string) => t.call('GET', url, { token: who.token });

  it('a user runs two searches at once, the next ones wait their turn and one past those waiting is refused with 429; another user searches meanwhile', async () => {
    const { running, waiting } = EXPENSIVE_READ_LIMITS;
    const employee = await t.account('user');
    const other = await t.account('user');
    const release = await holdProducts();
    const search = (who: Account) => get(who, '/api/products?search=tea&page=1');
    const asked = Array.from({ length: running + waiting }, () => search(employee));
    await until(() => t.app.expensiveReads.of(employee.id).waiting === waiting);
    expect(t.app.expensiveReads.of(employee.id).running).toBe(running);
    const refused = await search(employee);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, code: 'BUSY', error: TOO_MANY_READS });
    const others = search(other);
    await until(() => t.app.expensiveReads.of(other.id).running === 1);
    await release();
    for (const answer of await Promise.all([...asked, others])) {
      expect(answer.status).toBe(200);
      expect(parsed(answer, ProductListResponse).products.map((p) => p.name)).toEqual(['Green tea']);
    }
    // Every slot is given back with its answer.
    expect(t.app.expensiveReads.of(employee.id)).toEqual({ running: 0, waiting: 0 });
    expect(t.app.expensiveReads.of(other.id)).toEqual({ running: 0, waiting: 0 });
    expect((await search(employee)).status).toBe(200);
  });

  it('CSV exports, reports and the whole catalogue take the same slots; a page of the catalogue takes none', async () => {
    const admin = await t.account('admin');
    const release = await holdProducts();
    const held = [get(admin, '/api/products?format=csv'), get(admin, '/api/products')];
    await until(() => t.app.expensiveReads.of(admin.id).running === 2);
    const queued = [get(admin, '/api/reports/stock'), get(admin, '/api/order/any?format=csv')];
    await until(() => t.app.expensiveReads.of(admin.id).waiting === 2);
    const page = get(admin, '/api/products?page=1&pageSize=5');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(t.app.expensiveReads.of(admin.id)).toEqual({ running: 2, waiting: 2 });
    await release();
    expect((await page).status).toBe(200);
    for (const answer of await Promise.all(held)) expect(answer.status).toBe(200);
    const [report, orders] = await Promise.all(queued);
    expect(report?.status).toBe(200);
    expect(orders?.status).toBe(404);
    expect(t.app.expensiveReads.of(admin.id)).toEqual({ running: 0, waiting: 0 });
    expect((await get(admin, '/api/reports/stock')).status).toBe(200);
  });
});
