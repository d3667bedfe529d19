import type { Database } from '../src/server/db/connection';
import { recordMovements } from '../src/server/modules/stock/movements';
import { quick } from './settings';

/** Lines of each transfer the benchmark sends and receives (DESIGN §17's figure). */
export const TRANSFER_LINES = 200;
/** Transfers sent and received, one after another. */
export const TRANSFER_ROUNDS = quick ? 10 : 30;

export interface TransferSet {
  from: string;
  to: string;
  /** Untracked products, each holding a unit per round at `from` beyond what it had. */
  products: string[];
}

/** What the transfers measured: each send's and each receipt's time, and what was not a 200. */
export interface TransferRun {
  send: number[];
  receive: number[];
  failures: string[];
}

/**
 * A stockroom and TRANSFER_LINES products past the ones other runs use (offset 9,000 on, beyond
 * the purchase orders'), each given TRANSFER_ROUNDS units more at the default location through
 * the ledger, so that every transfer of one unit a line can leave.
 */
export async function prepareTransfers(database: Database, offset = 9000): Promise<TransferSet> {
  const products = (
    await database.query<{ id: string }>(
      `select id from products where tracking = 'none' order by id offset $1 limit ${TRANSFER_LINES}`,
      [offset],
    )
  )
    .map((row) => row.id)
    .sort();
  const [from] = await database.query<{ id: string }>('select default_location() as id');
  const [to] = await database.query<{ id: string }>(
    `insert into locations (name, kind) values ('Bench stockroom', 'stockroom')
     on conflict ((lower(name))) do update set active = true returning id`,
  );
  await recordMovements(
    database,
    products.map((productId) => ({
      productId,
      kind: 'adjustment' as const,
      reason: 'found' as const,
      quantity: TRANSFER_ROUNDS,
      note: 'Bench transfers',
      locationId: from?.id,
    })),
  );
  return { from: from?.id as string, to: to?.id as string, products };
}

/**
 * TRANSFER_ROUNDS transfers of TRANSFER_LINES lines, one after another: each drafted, then sent
 * (200 transferOut movements in one transaction) and received in full (200 transferIn), the last
 * two timed.
 */
export async function sendAndReceiveAll(
  url: string,
  headers: Record<string, string>,
  set: TransferSet,
  rounds = TRANSFER_ROUNDS,
): Promise<TransferRun> {
  const run: TransferRun = { send: [], receive: [], failures: [] };
  const post = async (path: string, body: unknown, into?: number[]) => {
    const started = performance.now();
    const res = await fetch(`${url}/api${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    into?.push(performance.now() - started);
    if (res.status !== 200 && res.status !== 201)
      run.failures.push(`${path}: ${res.status} ${text.slice(0, 120)}`);
    return res.ok
      ? (JSON.parse(text) as { transfer: { _id: string; lines: { _id: string; sent: number }[] } })
      : undefined;
  };
  for (let round = 0; round < rounds; round++) {
    const made = await post('/transfers', {
      from: set.from,
      to: set.to,
      lines: set.products.map((product) => ({ product, quantity: 1 })),
    });
    if (!made) continue;
    const sent = await post(`/transfers/${made.transfer._id}/send`, {}, run.send);
    if (!sent) continue;
    await post(
      `/transfers/${made.transfer._id}/receive`,
      { lines: sent.transfer.lines.map((line) => ({ line: line._id, received: line.sent })) },
      run.receive,
    );
  }
  return run;
}
