import { z } from 'zod';
import { checkRange, DateOnly, Id, Ok } from './common';
import { ExportFormat, PageQuery } from './paging';
import { Role } from './roles';

/**
 * What an entry is about. An entity type names a kind of record; the action says what happened
 * to it. Later kinds join these lists (and the database's check, in a migration): stock
 * adjustments and counts are actions on a `product`, a return an action on an `order`, purchase
 * orders a `purchaseOrder` that is created, ordered, received, cancelled or closed; customers a
 * `customer` created, updated or deleted; staff a `user` deactivated, reactivated or whose password an
 * admin reset; the store's settings a `store` updated, and tax rates a `taxRate`; the till (DESIGN
 * §13) a `register` created or updated, a `registerSession` opened, cashMoved or closed, a `refund`
 * refunded, and a `customer`'s store credit creditAdjusted; a catalogue `import` (DESIGN §14)
 * imported, once, with its file and counts; a `transfer` (DESIGN §17) created, updated, sent,
 * received, cancelled or closed; a `location` (DESIGN §17) created, updated, deactivated or
 * reactivated; a `stocktake` (DESIGN §18) created, posted or cancelled; an `item` (DESIGN §22)
 * created or updated (its options, its variants' names); a supplier's `bill` (DESIGN §20) created,
 * updated, deleted (a draft), posted or voided, and a `supplierPayment` paid or allocated.
 */
export const AUDIT_ENTITIES = [
  'user',
  'product',
  'category',
  'supplier',
  'order',
  'purchaseOrder',
  'customer',
  'store',
  'taxRate',
  'sale',
  'register',
  'registerSession',
  'refund',
  'import',
  'transfer',
  'location',
  'stocktake',
  'item',
  'account',
  'journalEntry',
  'books',
  'bill',
  'supplierPayment',
] as const;
export const AuditEntity = z.enum(AUDIT_ENTITIES, {
  error: `entity must be one of ${AUDIT_ENTITIES.join(', ')}.`,
});
export type AuditEntity = z.infer<typeof AuditEntity>;

/** Sign-ins are actions on the `user` whose email was tried. */
export const AUDIT_ACTIONS = [
  'signedIn',
  'signInFailed',
  'signInThrottled',
  'created',
  'updated',
  'deleted',
  'stockAdjusted',
  'stockCounted',
  'returned',
  'ordered',
  'received',
  'cancelled',
  'closed',
  'deactivated',
  'reactivated',
  'passwordReset',
  'discountApproved',
  'stockOverridden',
  'pinChanged',
  'opened',
  'cashMoved',
  'refunded',
  'creditAdjusted',
  'imported',
  'sent',
  'posted',
  'reversed',
  'voided',
  'paid',
  'allocated',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS, {
  error: `action must be one of ${AUDIT_ACTIONS.join(', ')}.`,
});
export type AuditAction = z.infer<typeof AuditAction>;

export const AuditValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type AuditValue = z.infer<typeof AuditValue>;

/**
 * One field of a change: `old` and `new` for an update, only `new` for a creation, only `old` for
 * a deletion. A secret field (a password) carries neither: only the fact that it changed.
 */
export const AuditChange = z.object({
  field: z.string(),
  old: AuditValue.optional(),
  new: AuditValue.optional(),
});
export type AuditChange = z.infer<typeof AuditChange>;

/** Who did it, as they were then: a deleted or renamed user's entries still read right. */
export const AuditActor = z.object({ _id: z.string(), name: z.string(), role: Role });
export type AuditActor = z.infer<typeof AuditActor>;

export const AuditEntry = z.object({
  _id: z.string(),
  /** ISO 8601 time of the change. */
  at: z.string(),
  /** null for a failed sign-in with an email nobody has. */
  actor: AuditActor.nullable(),
  action: AuditAction,
  /** For a sign-in, the email that was tried (and the user's id when it is theirs). */
  entity: z.object({ type: AuditEntity, _id: z.string().nullable(), name: z.string() }),
  changes: z.array(AuditChange).optional(),
  /** The client address of a sign-in attempt. */
  address: z.string().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/**
 * The log's filters: who (a user id), what (action), on what (entity type), and from/to, days in
 * the server's time zone, both included. Always one page, newest first; no full-list form (the
 * log only grows).
 */
export const AuditQuery = PageQuery.omit({ search: true })
  .extend({
    actor: Id.optional(),
    action: AuditAction.optional(),
    entity: AuditEntity.optional(),
    from: DateOnly.optional(),
    to: DateOnly.optional(),
    format: ExportFormat,
  })
  .superRefine(checkRange());
export type AuditQuery = z.input<typeof AuditQuery>;

/** The columns of the activity CSV, in order. */
export const AUDIT_CSV_HEADER = [
  'time',
  'who',
  'role',
  'action',
  'entity',
  'name',
  'changes',
  'address',
] as const;

export const AuditListResponse = Ok.extend({
  entries: z.array(AuditEntry),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AuditListResponse = z.infer<typeof AuditListResponse>;

/** Everyone who appears in the log as the one who acted, with their latest name and role there. */
export const AuditActorsResponse = Ok.extend({ actors: z.array(AuditActor) });
export type AuditActorsResponse = z.infer<typeof AuditActorsResponse>;
