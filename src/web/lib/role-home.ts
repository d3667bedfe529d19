import type { Role } from '../../shared/roles';

/** Where each role lands after login and from `/` (spec §2, with DESIGN §5's medical rep fix). */
export const HOME_PATH: Record<Role, string> = {
  superAdmin: '/superAdmin-dashboard',
  admin: '/admin-dashboard',
  salesRep: '/salesRep-dashboard',
  medicalRep: '/medicalRep-dashboard',
  user: '/employee-dashboard',
};

/** Anyone whose role is not one of the named ones goes to the employee area. */
export function homePathFor(role: Role): string {
  return HOME_PATH[role] ?? HOME_PATH.user;
}

/** Where a user whose password an admin reset must go before anything else (DESIGN §16). */
export const CHANGE_PASSWORD_PATH = '/change-password';

/** Where a signed-in user lands: their home, or first the new-password screen. */
export function landingPathFor(user: { role: Role; mustChangePassword: boolean }): string {
  return user.mustChangePassword ? CHANGE_PASSWORD_PATH : homePathFor(user.role);
}
