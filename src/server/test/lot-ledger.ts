import type { TestApp } from './harness';

/**
 * One product's stock beside its lots and its movements (DESIGN §15), for tests to hold to the
 * rule "every lot = Σ its movements ≥ 0, and the product = Σ its lots (when tracked) = Σ its
 * movements": `bad` counts lots that differ from their movements, `negative` lots below 0.
 */
export async function lotLedgerOf(sql: TestApp['sql'], productId: string) {
  const [row] = await sql<{
    stock: number;
    tracking: string;
    lots: number;
    ledger: number;
    bad: number;
    negative: number;
  }>(
    `select p.stock, p.tracking,
            (select coalesce(sum(quantity), 0)::int from lots where product_id = p.id) as lots,
            (select coalesce(sum(quantity), 0)::int from stock_movements where product_id = p.id) as ledger,
            (select count(*)::int from lots l where l.product_id = p.id and l.quantity <>
               (select coalesce(sum(quantity), 0) from stock_movements m where m.lot_id = l.id)) as bad,
            (select count(*)::int from lots l where l.product_id = p.id and l.quantity < 0) as negative
     from products p where p.id = $1`,
    [productId],
  );
  return row;
}
