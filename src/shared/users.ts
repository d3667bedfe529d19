import { z } from 'zod';
import { Email, MAX, Ok, optionalText, requiredText } from './common';
import { LocationId, LocationName } from './locations';
import { PageInfo, PageQuery } from './paging';
import { Role } from './roles';

export const User = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  address: z.string(),
  role: Role,
  /**
   * A deactivated user cannot sign in, and their tokens stop at once (DESIGN §16). Defaults keep
   * a session stored before the flags existed.
   */
  active: z.boolean().default(true),
  /** An admin reset the password: the user must choose a new one before anything else. */
  mustChangePassword: z.boolean().default(false),
  /**
   * Where their sales outside a till session take stock from (DESIGN §17); null: the default
   * location. The default keeps a session stored before locations existed.
   */
  location: LocationName.nullable().default(null),
});
export type User = z.infer<typeof User>;

export const Password = z
  .string({ error: 'Password must be text.' })
  .min(8, { error: 'Password must be at least 8 characters.' })
  .max(MAX.password, { error: `Password must be at most ${MAX.password} characters.` });

export const UserInput = z.object({
  name: requiredText(MAX.name, 'Name'),
  email: Email,
  password: Password,
  address: optionalText(MAX.address).default(''),
  role: Role,
  /** A location id; null or missing: the default location. */
  location: LocationId.nullable().optional(),
});
export type UserInput = z.input<typeof UserInput>;

/**
 * Profile update: an empty or missing password means "unchanged". Changing the password or the
 * email needs the current password (DESIGN §7), so a stolen session cannot take the account over.
 */
export const ProfileInput = z.object({
  name: requiredText(MAX.name, 'Name'),
  email: Email,
  address: optionalText(MAX.address).default(''),
  password: z
    .union([z.literal(''), Password])
    .optional()
    .transform((value) => (value ? value : undefined)),
  currentPassword: z
    .string({ error: 'Current password must be text.' })
    .max(MAX.password, { error: `Current password must be at most ${MAX.password} characters.` })
    .optional()
    .transform((value) => (value ? value : undefined)),
});
export type ProfileInput = z.input<typeof ProfileInput>;

/**
 * An admin's PIN for approvals at the counter (DESIGN §12): 4 to 8 digits, set with the current
 * password. Stored as an argon2id hash, never answered.
 */
export const Pin = z
  .string({ error: 'The PIN must be text.' })
  .regex(/^\d{4,8}$/, { error: 'A PIN is 4 to 8 digits.' });

export const PinInput = z.object({
  pin: Pin,
  currentPassword: z
    .string({ error: 'Current password must be text.' })
    .min(1, { error: 'Enter your current password to set a PIN.' })
    .max(MAX.password, { error: `Current password must be at most ${MAX.password} characters.` }),
});
export type PinInput = z.input<typeof PinInput>;

export const UserResponse = Ok.extend({ user: User });

/**
 * An admin's change to someone they manage (DESIGN §16): the name, the role (within the roles the
 * caller may give), or whether the account is active. Missing fields stay as they are.
 */
export const StaffInput = z.object({
  name: requiredText(MAX.name, 'Name').optional(),
  role: Role.optional(),
  active: z.boolean({ error: 'active must be true or false.' }).optional(),
  /** A location id; null: the default location. */
  location: LocationId.nullable().optional(),
});
export type StaffInput = z.input<typeof StaffInput>;

/** A password reset's answer: the temporary password, shown this once and never again. */
export const ResetPasswordResponse = Ok.extend({ temporaryPassword: z.string(), user: User });
export type ResetPasswordResponse = z.infer<typeof ResetPasswordResponse>;
export const USER_SORTS = ['name', '-name', 'email', '-email', 'role', '-role'] as const;
/** search matches the name or the email. */
export const UserQuery = PageQuery.extend({
  sort: z.enum(USER_SORTS, { error: `sort must be one of ${USER_SORTS.join(', ')}.` }).optional(),
});
export type UserQuery = z.input<typeof UserQuery>;
export const UserListResponse = Ok.extend({ users: z.array(User) }).extend(PageInfo.shape);
export const ProfileResponse = Ok.extend({ user: User, token: z.string().optional() });
export type ProfileResponse = z.infer<typeof ProfileResponse>;
