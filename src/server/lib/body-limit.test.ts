import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_PURCHASE_ORDER_LINES } from '../../shared/purchasing';
import { MAX_SALE_LINES } from '../../shared/sales';
import { PASSWORD, startApp, type TestApp, targets } from '../test/harness';
import { BODY_SLACK, bodyLimitOf, MAX_BODY, MAX_JSON_DEPTH, nestsDeeperThan } from './body-limit';

const json = { 'content-type': 'application/json' };

describe('a body limit follows the call’s contract', () => {
  it('is the largest honest body and some room, in whole kB; a call without a body takes only the room', () => {
    const login = bodyLimitOf(z.object({ email: z.string().max(254), password: z.string().max(200) }));
    expect(login.limit % 1024).toBe(0);
    expect(login.limit).toBeGreaterThan(
      JSON.stringify({ email: '\u0001'.repeat(254), password: '\u0001'.repeat(200) }).length,
    );
    expect(login.limit).toBeLessThan(8 * 1024);
    expect(login.depth).toBe(1);
    expect(bodyLimitOf(undefined)).toEqual({ limit: BODY_SLACK, depth: 0 });
  });

  it('is the most any call takes when the contract does not bound the body', () => {
    expect(bodyLimitOf(z.object({ note: z.string() })).limit).toBe(MAX_BODY);
    expect(bodyLimitOf(z.object({ ids: z.array(z.string().max(10)) })).limit).toBe(MAX_BODY);
  });

  it('reads the depth of nested arrays and objects, not of brackets inside strings', () => {
    expect(nestsDeeperThan('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[[1]]}]}', 4)).toBe(true);
    expect(nestsDeeperThan(`{"a":"${'['.repeat(100)}","b":"\\"{{{{{"}`, 1)).toBe(false);
    expect(nestsDeeperThan('[[]],[[]]', 2)).toBe(false);
  });
});

describe.each(targets)('body limits on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  /** The fastest of three tries, in ms: the server's own time, not a busy machine's worst moment. */
  async function fastest(send: () => Promise<{ status: number }>, status: number): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      const res = await send();
      times.push(performance.now() - start);
      expect(res.status).toBe(status);
    }
    return Math.min(...times);
  }

  it('POST /api/auth/login refuses a 1 MB deeply nested body at once (413), and a sign-in still works', async () => {
    const deep = `{"email":"a@example.com","password":"guess guess","x":${'['.repeat(500_000)}${']'.repeat(500_000)}}`;
    const ms = await fastest(() => t.call('POST', '/api/auth/login', { body: deep, headers: json }), 413);
    expect(ms).toBeLessThan(50);
    const res = await t.call('POST', '/api/auth/login', { body: deep, headers: json });
    expect(res.body).toEqual({
      success: false,
      code: 'PAYLOAD_TOO_LARGE',
      error: 'The request body is too large (7 kB at most for this call).',
    });
    const signIn = await t.call('POST', '/api/auth/login', {
      body: { email: t.as.user.email, password: PASSWORD },
    });
    expect(signIn.status, signIn.text).toBe(200);
  });

  it('a body nested deeper than any contract is a 400 before it is parsed, within the call’s limit too', async () => {
    const login = `{"email":${'['.repeat(3000)}${']'.repeat(3000)},"password":"x"}`;
    const res = await t.call('POST', '/api/auth/login', { body: login, headers: json });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({
      success: false,
      code: 'BAD_REQUEST',
      error: `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`,
    });
    // The largest limit of all: a purchase order of 500 lines.
    const order = `{"supplier":"x","lines":${'['.repeat(150_000)}${']'.repeat(150_000)}}`;
    const ms = await fastest(
      () => t.call('POST', '/api/purchase-orders', { token: t.as.admin.token, body: order, headers: json }),
      400,
    );
    expect(ms).toBeLessThan(50);
  });

  it('the largest honest bodies fit their calls: a sale of the most lines, a purchase order of the most lines', async () => {
    const id = 'i'.repeat(100);
    const sale = {
      lines: Array.from({ length: MAX_SALE_LINES }, () => ({ productId: id, quantity: 1_000_000 })),
      customer: id,
      payment: { method: 'cash', tendered: 999_999_999.99 },
    };
    const sold = await t.call('POST', '/api/sales', { token: t.as.salesRep.token, body: sale });
    expect(sold.status, sold.text).not.toBe(413);
    expect(sold.status).toBeLessThan(500);
    const order = {
      supplier: id,
      lines: Array.from({ length: MAX_PURCHASE_ORDER_LINES }, () => ({
        product: id,
        quantity: 1_000_000,
        unitCost: 999_999_999.99,
      })),
      note: 'n'.repeat(2000),
    };
    const drafted = await t.call('POST', '/api/purchase-orders', { token: t.as.admin.token, body: order });
    expect(drafted.status, drafted.text).not.toBe(413);
    expect(drafted.status).toBeLessThan(500);
  });
});
