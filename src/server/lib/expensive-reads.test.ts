import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, startApp, type TestApp, targets } from '../test/harness';
import { EXPENSIVE_READS_PER_USER, ExpensiveReads, TOO_MANY_READS } from './expensive-reads';

describe('ExpensiveReads', () => {
  it('gives each user their own slots, and each slot back once', () => {
    const reads = new ExpensiveReads(2);
    const first = reads.take('a');
    const second = reads.take('a');
    expect(first && second).toBeTruthy();
    expect(reads.take('a')).toBeUndefined();
    expect(reads.take('b')).toBeDefined();
    first?.();
    first?.();
    expect(reads.held('a')).toBe(1);
    expect(reads.take('a')).toBeDefined();
    expect(reads.take('a')).toBeUndefined();
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
 * sale of the store (25 ms → 1.3 s). A user has EXPENSIVE_READS_PER_USER expensive reads in flight
 * at once; the next is refused before anything is asked of the database.
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
  const inFlight = (who: Account) => t.app.expensiveReads.held(who.id);

  it(`a user with ${EXPENSIVE_READS_PER_USER} searches in flight has the next refused with 429 and one sentence; another user searches meanwhile`, async () => {
    const employee = await t.account('user');
    const other = await t.account('user');
    const release = await holdProducts();
    const search = (who: Account) => get(who, '/api/products?search=tea&page=1');
    const held = [search(employee), search(employee)];
    await until(() => inFlight(employee) === 2);
    const refused = await search(employee);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, error: TOO_MANY_READS });
    const others = search(other);
    await until(() => inFlight(other) === 1);
    await release();
    for (const answer of await Promise.all([...held, others])) {
      expect(answer.status).toBe(200);
      expect(answer.body.products.map((p: { name: string }) => p.name)).toEqual(['Green tea']);
    }
    // Every slot is given back with its answer.
    expect(inFlight(employee)).toBe(0);
    expect(inFlight(other)).toBe(0);
    expect((await search(employee)).status).toBe(200);
  });

  it('CSV exports, reports and the whole catalogue take the same slots; a page of the catalogue takes none', async () => {
    const admin = await t.account('admin');
    const release = await holdProducts();
    const held = [get(admin, '/api/products?format=csv'), get(admin, '/api/products')];
    await until(() => inFlight(admin) === 2);
    const report = await get(admin, '/api/reports/stock');
    expect(report.status).toBe(429);
    expect(report.body.error).toBe(TOO_MANY_READS);
    expect((await get(admin, '/api/order/any?format=csv')).status).toBe(429);
    const page = get(admin, '/api/products?page=1&pageSize=5');
    await release();
    expect((await page).status).toBe(200);
    for (const answer of await Promise.all(held)) expect(answer.status).toBe(200);
    expect(inFlight(admin)).toBe(0);
    expect((await get(admin, '/api/reports/stock')).status).toBe(200);
  });
});
