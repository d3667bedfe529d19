import type { Runner } from '../../db/connection';
import type { Actor } from '../audit/audit.repository';
import { movementsInsert } from './movements';

/**
 * Costs set while there is stock (DESIGN §19): at each location holding some of each product named,
 * one `revaluation` movement (0 units) brings its value to stock × the product's cost as the caller
 * has just set it (0 for none), so the cost answered (value ÷ stock) is the one set. One statement
 * through the ledger's writer, products in id order; nothing for a value already right. The product
 * form, the catalogue import and the tests' harness set costs through it.
 */
export async function revalueStock(
  runner: Runner,
  productIds: readonly string[],
  actor: Actor | null,
  note: string,
): Promise<void> {
  if (productIds.length === 0) return;
  const worth = 'round(ls.stock * coalesce(p.cost, 0), 2)';
  await runner.query(
    movementsInsert({
      values: {
        at: 'now()',
        product_id: 'ls.product_id',
        kind: "'revaluation'",
        quantity: '0',
        value: `${worth} - ls.stock_value`,
        note: '$2',
        user_id: '$3::uuid',
        user_name: '$4',
        location_id: 'ls.location_id',
      },
      from: 'location_stock ls join products p on p.id = ls.product_id',
      where: `ls.product_id = any($1::uuid[]) and ls.stock > 0 and ${worth} <> ls.stock_value`,
      orderBy: 'ls.product_id, ls.location_id',
    }),
    [productIds, note, actor?.id ?? null, actor?.name ?? null],
  );
}
