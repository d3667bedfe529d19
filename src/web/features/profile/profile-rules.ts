import { Pin, type ProfileInput } from '../../../shared/users';

export type ProfileForm = {
  name: string;
  email: string;
  address: string;
  password?: string;
  currentPassword?: string;
};

/** The server's own sentence for the same rule. */
export const CURRENT_PASSWORD_NEEDED = 'Enter your current password to change your password or email.';

const asStored = (email: string) => email.trim().toLowerCase();

/**
 * A new password or another email needs the current password (the server enforces it; this only
 * says so before the call). Emails compare as the server stores them: trimmed, lower-case.
 */
export function needsCurrentPassword(
  form: Pick<ProfileForm, 'email' | 'password'>,
  storedEmail: string,
): boolean {
  return Boolean(form.password) || asStored(form.email) !== asStored(storedEmail);
}

/**
 * The body of a profile save. An empty (or absent) password means "keep my password": it is left
 * out, and so is an empty current password. The stored password is never read or compared here
 * (DESIGN §5): the server checks the current one.
 */
export function profileUpdateBody(form: ProfileForm): ProfileInput {
  const body: ProfileInput = { name: form.name, email: form.email, address: form.address };
  if (form.password) body.password = form.password;
  if (form.currentPassword) body.currentPassword = form.currentPassword;
  return body;
}

/** The approval PIN form (admins only): the PIN twice and the current password. */
export type PinForm = { pin: string; repeat: string; currentPassword: string };

/** What is wrong with the PIN form before it is sent (the server judges the password). */
export function pinProblems(form: PinForm): Partial<Record<keyof PinForm, string>> {
  const problems: Partial<Record<keyof PinForm, string>> = {};
  const pin = Pin.safeParse(form.pin);
  if (!pin.success) problems.pin = pin.error.issues[0]?.message;
  else if (form.repeat !== form.pin) problems.repeat = 'The two PINs differ: type the same PIN twice.';
  if (!form.currentPassword) problems.currentPassword = 'Enter your current password to set a PIN.';
  return problems;
}
