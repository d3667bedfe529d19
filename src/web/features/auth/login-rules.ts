import type { LoginInput } from '../../../shared/auth';
import { MAX } from '../../../shared/limits';

export type LoginErrors = Partial<Record<keyof LoginInput, string>>;

export type LoginCheck = { success: true; data: LoginInput } | { success: false; errors: LoginErrors };

/**
 * The shared LoginInput's rules and sentences (the email trimmed and lower-cased, then both
 * fields required and bounded), written out so the login page does not download zod before it
 * can show; login-rules.test.ts holds the two to the same answers.
 */
export function checkLogin(values: { email: string; password: string }): LoginCheck {
  const email = values.email.trim().toLowerCase();
  const { password } = values;
  const errors: LoginErrors = {};
  if (email.length < 1) errors.email = 'Email is required.';
  else if (email.length > MAX.email) errors.email = `Email must be at most ${MAX.email} characters.`;
  if (password.length < 1) errors.password = 'Password is required.';
  else if (password.length > MAX.password)
    errors.password = `Password must be at most ${MAX.password} characters.`;
  return errors.email || errors.password
    ? { success: false, errors }
    : { success: true, data: { email, password } };
}
