import { describe, expect, it } from 'vitest';
import { LoginInput } from '../../../shared/auth';
import { MAX } from '../../../shared/limits';
import { checkLogin } from './login-rules';

/** What the shared schema answers, in checkLogin's shape: the data, or each field's first sentence. */
function bySchema(values: { email: string; password: string }) {
  const parsed = LoginInput.safeParse(values);
  if (parsed.success) return { success: true, data: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return { success: false, errors };
}

const a = (n: number) => 'a'.repeat(n);

const TABLE: { email: string; password: string }[] = [
  { email: '', password: '' },
  { email: '   ', password: 'secret' },
  { email: 'sam@example.com', password: '' },
  { email: '  Sam@Example.COM ', password: 'password123' },
  { email: 'not an email', password: ' ' },
  { email: 'ÉLODIE@EXEMPLE.FR', password: '  spaced  ' },
  { email: a(MAX.email), password: 'p' },
  { email: `  ${a(MAX.email)}\t`, password: 'p' },
  { email: a(MAX.email + 1), password: 'p' },
  { email: 'sam@example.com', password: a(MAX.password) },
  { email: 'sam@example.com', password: a(MAX.password + 1) },
  { email: a(MAX.email + 1), password: a(MAX.password + 1) },
  { email: '', password: a(MAX.password + 1) },
  // 'İ' lower-cases to two characters: the length is checked after lower-casing, as zod does.
  { email: 'İ'.repeat(MAX.email / 2), password: 'p' },
  { email: 'İ'.repeat(MAX.email / 2 + 1), password: 'p' },
];

describe('the login form rules', () => {
  it.each(TABLE)('answer as the shared LoginInput schema does for %j', (values) => {
    expect(checkLogin(values)).toEqual(bySchema(values));
  });
});
