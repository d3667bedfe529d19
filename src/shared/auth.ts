import { z } from 'zod';
import { MAX, Ok } from './common';
import { User } from './users';

export const LoginInput = z.object({
  email: z
    .string({ error: 'Email is required.' })
    .trim()
    .toLowerCase()
    .min(1, { error: 'Email is required.' })
    .max(MAX.email, { error: `Email must be at most ${MAX.email} characters.` }),
  password: z
    .string({ error: 'Password is required.' })
    .min(1, { error: 'Password is required.' })
    .max(MAX.password, { error: `Password must be at most ${MAX.password} characters.` }),
});
export type LoginInput = z.infer<typeof LoginInput>;

/** `mustChangePassword`: the password was reset, and only the profile answers until it changes. */
export const LoginResponse = Ok.extend({ token: z.string(), mustChangePassword: z.boolean(), user: User });
export type LoginResponse = z.infer<typeof LoginResponse>;

/** Sign out: this token only, or with `everywhere` every token of the user. The body is optional. */
export const LogoutInput = z
  .object({ everywhere: z.boolean({ error: 'everywhere must be true or false.' }).optional() })
  .nullish();
export type LogoutInput = z.input<typeof LogoutInput>;
