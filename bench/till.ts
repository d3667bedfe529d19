import type { Database } from '../src/server/db/connection';
import { centsNumber, centsText, toCents } from '../src/shared/money';
import type { SessionReport } from '../src/shared/till';

/** The till's runs (DESIGN §13): sales flat out in one session, refunds at a steady rate. */

async function call<T>(url: string, token: string, method: 'GET' | 'POST', body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${answer.error ?? ''}`);
  return answer;
}

/** Opens a session on the first active register (a float of 500.00) and answers its id. */
export async function openBenchSession(server: string, token: string): Promise<string> {
  const { registers } = await call<{ registers: Array<{ _id: string; active: boolean }> }>(
    `${server}/api/registers`,
    token,
    'GET',
  );
  const register = registers.find((r) => r.active);
  if (!register) throw new Error('no active register');
  const { session } = await call<{ session: { _id: string } }>(
    `${server}/api/registers/${register._id}/open`,
    token,
    'POST',
    { openingFloat: 500 },
  );
  return session._id;
}

/** A refund's target: one order of a sale, with units left to refund. */
export type Refundable = { saleId: string; orderId: string };

/**
 * `count` one-line card sales of 2 units each over `ids` (products that cannot run out), made
 * `parallel` at a time, so a refund run has a sale of its own for every request.
 */
export async function prepareRefundable(
  server: string,
  tokens: readonly string[],
  ids: readonly string[],
  count: number,
  parallel = 16,
): Promise<Refundable[]> {
  const made: Refundable[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const { sale } = await call<{ sale: { _id: string; lines: Array<{ order: { _id: string } }> } }>(
        `${server}/api/sales`,
        tokens[i % tokens.length] as string,
        'POST',
        { lines: [{ productId: ids[i % ids.length], quantity: 2 }], payment: { method: 'card' } },
      );
      const order = sale.lines[0]?.order._id;
      if (order) made.push({ saleId: sale._id, orderId: order });
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return made;
}

/** The i-th refund: one unit of its own sale's line back to the card, on the shelf again. */
export function refundBody(target: Refundable): string {
  return JSON.stringify({ lines: [{ order: target.orderId, quantity: 1 }], method: 'card', restock: true });
}

export interface SessionCheck {
  /** The session's report as the API answers it. */
  report: SessionReport | undefined;
  /** The same figures summed straight from the tables. */
  sales: number;
  total: string;
  paid: string;
  expectedCash: string;
  /** Sales of the session whose payments do not add up to their total. */
  unpaid: number;
  /** Figures where the report and the tables differ (0: it adds up). */
  differences: string[];
}

/**
 * Closes the session once its run is over and answers its Z report. The close locks the session
 * as the sales do not, so it waits for the sales still in flight when the run stopped, and those
 * arriving after it are refused (409): the Z report holds every sale the session took. The count
 * is the expected cash of an X report read just before (what any later sale adds shows as over
 * or short, not as a difference the check below would miss).
 */
export async function closeBenchSession(
  server: string,
  token: string,
  sessionId: string,
): Promise<SessionReport> {
  const { report: x } = await call<{ report: SessionReport }>(
    `${server}/api/register-sessions/${sessionId}`,
    token,
    'GET',
  );
  const { report } = await call<{ report: SessionReport }>(
    `${server}/api/register-sessions/${sessionId}/close`,
    token,
    'POST',
    { countedCash: x.expectedCash },
  );
  return report;
}

/**
 * The session's report (read through the API once its sales were made) against sums straight
 * from its sales, payments, refunds and cash movements.
 */
export async function checkSession(
  database: Database,
  report: SessionReport | undefined,
  sessionId: string,
): Promise<SessionCheck> {
  const [row] = await database.query<{
    sales: number;
    total: string;
    paid: string;
    cash: string;
    float: string;
    moved: string;
    refunded: string;
    unpaid: number;
  }>(
    `select (select count(*)::int from sales where session_id = $1) as sales,
            (select coalesce(sum(total), 0)::text from sales where session_id = $1) as total,
            (select coalesce(sum(p.amount), 0)::text from sale_payments p join sales s on s.id = p.sale_id
             where s.session_id = $1) as paid,
            (select coalesce(sum(p.amount), 0)::text from sale_payments p join sales s on s.id = p.sale_id
             where s.session_id = $1 and p.method = 'cash') as cash,
            (select opening_float::text from register_sessions where id = $1) as float,
            (select coalesce(sum(amount), 0)::text from cash_movements where session_id = $1) as moved,
            (select coalesce(sum(total), 0)::text from refunds where session_id = $1 and method = 'cash') as refunded,
            (select count(*)::int from sales s where s.session_id = $1
               and s.total <> (select coalesce(sum(amount), 0) from sale_payments p where p.sale_id = s.id)) as unpaid`,
    [sessionId],
  );
  const expected =
    toCents(row?.float ?? '0') +
    toCents(row?.cash ?? '0') -
    toCents(row?.refunded ?? '0') +
    toCents(row?.moved ?? '0');
  const differences: string[] = [];
  if (report?.sales.count !== row?.sales) differences.push(`sales ${report?.sales.count} ≠ ${row?.sales}`);
  if (toCents(report?.sales.total ?? 0) !== toCents(row?.total ?? '0'))
    differences.push(`total ${report?.sales.total} ≠ ${row?.total}`);
  const reportIn = (report?.payments ?? []).reduce((sum, p) => sum + toCents(p.in), 0n);
  if (reportIn !== toCents(row?.paid ?? '0'))
    differences.push(`payments ${centsText(reportIn)} ≠ ${row?.paid}`);
  if (toCents(report?.expectedCash ?? 0) !== expected)
    differences.push(`expected cash ${report?.expectedCash} ≠ ${centsText(expected)}`);
  if (row?.total !== row?.paid) differences.push(`sales total ${row?.total} ≠ payments ${row?.paid}`);
  if (report && report.difference !== centsNumber(toCents(report.countedCash ?? 0) - expected))
    differences.push(`difference ${report.difference} ≠ counted − expected`);
  return {
    report,
    sales: row?.sales ?? 0,
    total: row?.total ?? '0',
    paid: row?.paid ?? '0',
    expectedCash: centsText(expected),
    unpaid: row?.unpaid ?? 0,
    differences,
  };
}
