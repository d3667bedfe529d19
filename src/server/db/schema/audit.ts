// Who did what, kept for the activity log.
import { sql } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import { id } from './columns';

/**
 * Who did what and when (DESIGN §7). Append-only: a trigger refuses every UPDATE, DELETE and
 * TRUNCATE (audit_log_append_only.sql). No foreign keys: deleting a user or a product must neither change
 * nor remove its entries, so the actor's name and role and the entity's name are copied in.
 */
export const auditLog = pg.pgTable(
  'audit_log',
  {
    id: id(),
    at: pg.timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** null (with name and role) only for a failed sign-in with an email nobody has. */
    actorId: pg.uuid('actor_id'),
    actorName: pg.text('actor_name'),
    actorRole: pg.text('actor_role'),
    action: pg.text('action').notNull(),
    entityType: pg.text('entity_type').notNull(),
    /** null only for a sign-in with an email nobody has. */
    entityId: pg.uuid('entity_id'),
    entityName: pg.text('entity_name').notNull(),
    /** [{field, old?, new?}]; never a password or a hash. */
    changes: pg.jsonb('changes'),
    /** The client address of a sign-in attempt. */
    address: pg.text('address'),
  },
  (t) => [
    pg.check(
      'audit_log_actor_whole',
      sql`(${t.actorId} is null) = (${t.actorName} is null) and (${t.actorId} is null) = (${t.actorRole} is null)`,
    ),
    pg.check(
      'audit_log_action_known',
      sql`${t.action} in ('signedIn','signInFailed','signInThrottled','created','updated','deleted','stockAdjusted','stockCounted','returned','ordered','received','cancelled','closed','deactivated','reactivated','passwordReset','discountApproved','stockOverridden','pinChanged','opened','cashMoved','refunded','creditAdjusted','imported','sent','posted','reversed','voided','paid','allocated')`,
    ),
    pg.check(
      'audit_log_entity_known',
      sql`${t.entityType} in ('user','product','category','supplier','order','purchaseOrder','customer','store','taxRate','sale','register','registerSession','refund','import','transfer','location','stocktake','item','account','journalEntry','books','bill','supplierPayment')`,
    ),
    // Each matches the list's order (newest first, then id) under one filter, so a page is read,
    // not sorted.
    pg.index('audit_log_at_id_idx').on(t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg.index('audit_log_actor_at_id_idx').on(t.actorId, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg
      .index('audit_log_entity_at_id_idx')
      .on(t.entityType, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    pg.index('audit_log_entity_id_at_idx').on(t.entityType, t.entityId, t.at.desc().nullsFirst()),
  ],
);
