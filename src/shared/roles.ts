import { z } from 'zod';

export const ROLES = ['superAdmin', 'admin', 'salesRep', 'medicalRep', 'user'] as const;
export const Role = z.enum(ROLES, { error: 'Choose a valid role.' });
export type Role = z.infer<typeof Role>;

/** Roles that place orders and see only their own. */
export const ORDERING_ROLES = ['user', 'salesRep', 'medicalRep'] as const satisfies readonly Role[];
const ALL: readonly Role[] = ROLES;
/** Who works with customers and reads sales: admins and the roles that sell. */
const STAFF = ['admin', ...ORDERING_ROLES] as const satisfies readonly Role[];

/**
 * Who may call what. The server declares one of these on every route; the web app uses the
 * same map only to hide what a role cannot do.
 */
export const PERMISSIONS = {
  'dashboard:read': ['admin'],
  'products:read': ALL,
  'products:write': ['admin'],
  /** Items and their variants (DESIGN §22): every role that works in the store reads them; admins make them. */
  'items:read': STAFF,
  'items:write': ['admin'],
  'categories:read': ALL,
  'categories:write': ['admin'],
  'suppliers:read': ['admin'],
  'suppliers:write': ['admin'],
  'users:manage': ['superAdmin', 'admin'],
  'users:self': ALL,
  'orders:create': ORDERING_ROLES,
  /** A sale at the counter (DESIGN §11): the roles that order, and admins (an owner works the till). */
  'sales:create': STAFF,
  'orders:read': ALL,
  'orders:return': ['admin'],
  'audit:read': ['superAdmin', 'admin'],
  'purchasing:manage': ['admin'],
  /** Transfers of stock between locations (DESIGN §17). */
  'transfers:manage': ['admin'],
  /** Stocktakes (DESIGN §18): the selling roles and admins count; admins make, review, post and cancel. */
  'stocktakes:count': STAFF,
  'stocktakes:manage': ['admin'],
  'reports:read': ['admin'],
  /** DESIGN §19: the books, read and kept by admins. */
  'accounting:read': ['admin'],
  'accounting:write': ['admin'],
  'customers:read': STAFF,
  'customers:create': STAFF,
  'customers:write': ['admin'],
  'sales:read': STAFF,
  /** Every seller's sales; the others read only the sales they made. */
  'sales:readAll': ['admin'],
  /** DESIGN §21: the offline sales to review, and closing a review. */
  'sales:review': ['admin'],
  /**
   * Unit costs and margins: the owner's business. A product, an order or a list answered to a
   * role without it carries no cost field and no cost column.
   */
  'costs:read': ['admin'],
  /** The store's settings and tax rates (DESIGN §12): every signed-in role reads them; the superAdmin manages accounts, not the store. */
  'store:read': ALL,
  'store:write': ['admin'],
  /**
   * The till (DESIGN §13): reading registers, opening, using and closing a session, refunds at the
   * counter and reading a customer's store credit are for the roles that sell and admins.
   */
  'till:use': STAFF,
  /** Creating and changing registers, every session (others see their own), adjusting store credit. */
  'till:manage': ['admin'],
  /** The CSV exports of whole lists: admin work, and each one streams every row there is. */
  'exports:read': ['admin'],
  /** The locations (DESIGN §17): every role that works in the store reads them; admins manage them. */
  'locations:read': STAFF,
  'locations:write': ['admin'],
} as const satisfies Record<string, readonly Role[]>;
export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** The roles each role may create, list and delete. */
export const MANAGED_ROLES: Record<Role, readonly Role[]> = {
  superAdmin: ['superAdmin', 'admin', 'salesRep', 'medicalRep', 'user'],
  admin: ['salesRep', 'medicalRep', 'user'],
  salesRep: [],
  medicalRep: [],
  user: [],
};

/** The roles each role may give to an account it creates. */
export const CREATABLE_ROLES: Record<Role, readonly Role[]> = {
  superAdmin: ['admin'],
  admin: ['salesRep', 'medicalRep', 'user'],
  salesRep: [],
  medicalRep: [],
  user: [],
};

export function manages(caller: Role, target: Role): boolean {
  return MANAGED_ROLES[caller].includes(target);
}
