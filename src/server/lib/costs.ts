import { can, type Role } from '../../shared/roles';

/** Whether answers to this role carry costs and margins (the permission map's costs:read). */
export function seesCosts(role: Role): boolean {
  return can(role, 'costs:read');
}

/**
 * `value` as `role` may see it: without its cost field (`cost` of a product, `unitCost` of an
 * order) unless the role reads costs. The field is left out, not blanked, so no answer to such a
 * role has a cost key at all.
 */
export function costFor<T extends object>(role: Role, value: T, field: 'cost' | 'unitCost'): T {
  if (seesCosts(role) || !(field in value)) return value;
  const { [field as keyof T]: _hidden, ...rest } = value;
  return rest as T;
}

/**
 * The columns of a CSV as `role` may see them: `header` without `costColumns` unless the role
 * reads costs, and `pick`, which keeps the same cells of a row.
 */
export function csvColumnsFor<Cell>(
  role: Role,
  header: readonly string[],
  costColumns: readonly string[],
): { header: readonly string[]; pick: (row: Cell[]) => Cell[] } {
  if (seesCosts(role)) return { header, pick: (row) => row };
  const keep = header.flatMap((name, index) => (costColumns.includes(name) ? [] : [index]));
  return {
    header: keep.map((index) => header[index] as string),
    pick: (row) => keep.map((index) => row[index] as Cell),
  };
}

/** The audit fields that are costs: a product's unit cost, and a purchase order's total at cost. */
const AUDITED_COSTS: Record<string, readonly string[]> = { product: ['cost'], purchaseOrder: ['total'] };

/**
 * An audit entry's changes as `role` may see them: without the cost fields of its entity unless
 * the role reads costs (the log is read by roles that do not, e.g. the superAdmin).
 */
export function auditChangesFor<Change extends { field: string }>(
  role: Role,
  entityType: string,
  changes: Change[] | null,
): Change[] | null {
  const hidden = AUDITED_COSTS[entityType];
  if (!changes || !hidden || seesCosts(role)) return changes;
  const kept = changes.filter((change) => !hidden.includes(change.field));
  return kept.length > 0 ? kept : null;
}
