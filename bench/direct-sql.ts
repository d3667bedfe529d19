import type { Database } from '../src/server/db/connection';
import { signedInRunnerFor } from '../src/server/lib/auth';
import { MemoryState } from '../src/server/lib/shared-state';
import { allowancesOn } from '../src/server/lib/throttle';
import { placeOrder } from '../src/server/modules/orders/orders.repository';
import type { SellContext } from '../src/server/modules/sales/sell';
import { type OrderProducts, orderPicker } from './orders-check';

export interface DirectResult {
  attempts: number;
  accepted: number;
  refused: number;
  rps: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/**
 * The order's transaction the server runs (a one-line sale: read and lock, price, write), called straight on the database by `concurrency` workers
 * for `seconds`: the ceiling that the HTTP figure is compared with.
 */
export async function directOrders(
  database: Database,
  run: OrderProducts,
  buyer: { userId: string; tokenVersion: number; roles: readonly string[] },
  concurrency: number,
  seconds: number,
): Promise<DirectResult> {
  const next = orderPicker(run);
  // A refused buyer throws (401/403): the benchmark user must be able to order.
  const context: SellContext = {
    signedIn: (runner) => signedInRunnerFor(runner, buyer),
    storeName: 'Bench',
    pins: allowancesOn(new MemoryState()).approvalPins,
  };
  const latencies: number[] = [];
  let accepted = 0;
  let refused = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const { productId, quantity } = next();
        const t0 = performance.now();
        const placed = await database.db.transaction((tx) =>
          placeOrder(context, tx, { productId, quantity }),
        );
        latencies.push(performance.now() - t0);
        if (placed.order) accepted++;
        else if (placed.refused.reason !== 'productMissing') refused++;
        else throw new Error('the direct SQL order named an unknown product');
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    attempts: accepted + refused,
    accepted,
    refused,
    rps: (accepted + refused) / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}
