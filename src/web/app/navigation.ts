import type { Role } from '../../shared/roles';
import type { IconName } from '../components/icon';
import {
  ACCOUNTING_PATH,
  BILLS_PATH,
  EXPIRING_PATH,
  ITEMS_PATH,
  REPORTS_PATH,
  STOCKTAKES_PATH,
  TRANSFERS_PATH,
} from '../lib/admin-paths';
import { CHANGE_PASSWORD_PATH, landingPathFor } from '../lib/role-home';
import type { Session } from '../lib/session';

export { HOME_PATH, homePathFor } from '../lib/role-home';

/** `/` sends a signed-in user to their dashboard and a visitor to the landing page. */
export function rootRedirect(session: Session | null): string {
  return session ? landingPathFor(session.user) : '/home';
}

export type GuardDecision =
  | { allow: true }
  | { allow: false; redirectTo: '/home' | '/unauthorized' | typeof CHANGE_PASSWORD_PATH };

/**
 * The route guard: visitors go to /home, a user who must choose a new password to that screen,
 * signed-in users without an allowed role to /unauthorized.
 */
export function guardDecision(session: Session | null, allowed: readonly Role[]): GuardDecision {
  if (!session) return { allow: false, redirectTo: '/home' };
  if (session.user.mustChangePassword) return { allow: false, redirectTo: CHANGE_PASSWORD_PATH };
  if (!allowed.includes(session.user.role)) return { allow: false, redirectTo: '/unauthorized' };
  return { allow: true };
}

export type MenuItem = { label: string; to: string; icon: IconName; end?: boolean };

const LOGOUT: MenuItem = { label: 'Logout', to: '/logout', icon: 'logout' };

function staffMenu(base: string): MenuItem[] {
  return [
    { label: 'Products', to: base, icon: 'products', end: true },
    { label: 'New sale', to: `${base}/sales/new`, icon: 'sale' },
    { label: 'Sales', to: `${base}/sales`, icon: 'sales', end: true },
    { label: 'Refunds', to: `${base}/refunds`, icon: 'refund' },
    { label: 'Till sessions', to: `${base}/till/sessions`, icon: 'till' },
    { label: 'Orders', to: `${base}/orders`, icon: 'orders' },
    { label: 'Customers', to: `${base}/customers`, icon: 'customers' },
    { label: 'Stocktake', to: `${base}/stocktakes`, icon: 'stocktake' },
    { label: 'Profile', to: `${base}/profile`, icon: 'profile' },
    LOGOUT,
  ];
}

/** The sidebar of each role (spec §2 Layout, with the medical rep's orders link fixed). */
export const MENUS: Record<Role, MenuItem[]> = {
  superAdmin: [
    { label: 'Super Dashboard', to: '/superAdmin-dashboard', icon: 'dashboard', end: true },
    { label: 'Users', to: '/superAdmin-dashboard/users', icon: 'users' },
    { label: 'Activity', to: '/superAdmin-dashboard/activity', icon: 'activity' },
    { label: 'Profile', to: '/superAdmin-dashboard/profile', icon: 'profile' },
    LOGOUT,
  ],
  admin: [
    { label: 'Dashboard', to: '/admin-dashboard', icon: 'dashboard', end: true },
    { label: 'Products', to: '/admin-dashboard/products', icon: 'products' },
    { label: 'Items', to: ITEMS_PATH, icon: 'products' },
    { label: 'Expiring', to: EXPIRING_PATH, icon: 'expiring' },
    { label: 'Categories', to: '/admin-dashboard/categories', icon: 'categories' },
    { label: 'New sale', to: '/admin-dashboard/sales/new', icon: 'sale' },
    { label: 'Sales', to: '/admin-dashboard/sales', icon: 'sales', end: true },
    { label: 'Refunds', to: '/admin-dashboard/refunds', icon: 'refund' },
    { label: 'Till sessions', to: '/admin-dashboard/till/sessions', icon: 'till' },
    { label: 'Orders', to: '/admin-dashboard/orders', icon: 'orders' },
    { label: 'Customers', to: '/admin-dashboard/customers', icon: 'customers' },
    { label: 'Suppliers', to: '/admin-dashboard/supplier', icon: 'suppliers' },
    { label: 'Purchasing', to: '/admin-dashboard/purchase-orders', icon: 'purchasing' },
    { label: 'Bills', to: BILLS_PATH, icon: 'bills' },
    { label: 'Transfers', to: TRANSFERS_PATH, icon: 'transfer' },
    { label: 'Stocktakes', to: STOCKTAKES_PATH, icon: 'stocktake' },
    { label: 'Reports', to: REPORTS_PATH, icon: 'reports' },
    { label: 'Accounting', to: ACCOUNTING_PATH, icon: 'accounting' },
    { label: 'Users', to: '/admin-dashboard/users', icon: 'users' },
    { label: 'Store settings', to: '/admin-dashboard/store', icon: 'store' },
    { label: 'Locations', to: '/admin-dashboard/locations', icon: 'store' },
    { label: 'Tax rates', to: '/admin-dashboard/tax-rates', icon: 'tax' },
    { label: 'Ledger check', to: '/admin-dashboard/stock-check', icon: 'check' },
    { label: 'Activity', to: '/admin-dashboard/activity', icon: 'activity' },
    { label: 'Profile', to: '/admin-dashboard/profile', icon: 'profile' },
    LOGOUT,
  ],
  salesRep: staffMenu('/salesRep-dashboard'),
  medicalRep: staffMenu('/medicalRep-dashboard'),
  user: staffMenu('/employee-dashboard'),
};
