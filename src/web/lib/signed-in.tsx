import { createContext, useContext } from 'react';
import type { User } from '../../shared/users';

/** The signed-in user, provided by the route guard to every screen of a role area. */
export const SignedInContext = createContext<User | null>(null);

export function useSignedInUser(): User {
  const user = useContext(SignedInContext);
  if (!user) throw new Error('This screen is only shown to a signed-in user.');
  return user;
}
