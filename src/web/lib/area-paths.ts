import type { Role } from '../../shared/roles';
import { homePathFor } from './role-home';

/**
 * Screens that sit in every selling role's area (and the admin's), addressed inside the signed-in
 * user's own area: `/salesRep-dashboard/customers/…`, `/admin-dashboard/sales/…`.
 */
export const customersPath = (role: Role) => `${homePathFor(role)}/customers`;
export const customerPath = (role: Role, id: string) => `${customersPath(role)}/${encodeURIComponent(id)}`;
/** A sale's receipt. */
export const salePath = (role: Role, id: string) => `${homePathFor(role)}/sales/${encodeURIComponent(id)}`;
/** The refund screen; with a sale's number it opens on that receipt. */
export const refundsPath = (role: Role, saleNumber?: number) =>
  `${homePathFor(role)}/refunds${saleNumber === undefined ? '' : `?receipt=${saleNumber}`}`;
/** A refund's receipt. */
export const refundPath = (role: Role, id: string) =>
  `${homePathFor(role)}/refunds/${encodeURIComponent(id)}`;
/** The till sessions: every session for an admin, a seller's own otherwise (DESIGN §13). */
export const sessionsPath = (role: Role) => `${homePathFor(role)}/till/sessions`;
/** A till session's report: X while open, Z once closed. */
export const sessionPath = (role: Role, id: string) => `${sessionsPath(role)}/${encodeURIComponent(id)}`;
/**
 * Stocktakes (DESIGN §18): the counters' list of open ones (an admin's is every stocktake), the
 * count screen and the printable count sheet, in the signed-in user's own area.
 */
export const stocktakesPath = (role: Role) => `${homePathFor(role)}/stocktakes`;
export const countPath = (role: Role, id: string) =>
  `${stocktakesPath(role)}/${encodeURIComponent(id)}/count`;
export const countSheetPath = (role: Role, id: string) =>
  `${stocktakesPath(role)}/${encodeURIComponent(id)}/sheet`;
