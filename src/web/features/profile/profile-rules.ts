import type { ProfileInput } from '../../../shared/users';

export type ProfileForm = { name: string; email: string; address: string; password?: string };

/**
 * The body of a profile save. An empty (or absent) password means "keep my password": it is left out.
 * The stored password is never read or compared (DESIGN §5).
 */
export function profileUpdateBody(form: ProfileForm): ProfileInput {
  const body: ProfileInput = { name: form.name, email: form.email, address: form.address };
  if (form.password) body.password = form.password;
  return body;
}
