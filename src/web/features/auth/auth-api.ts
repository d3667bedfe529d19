import { type LoginInput, LoginResponse } from '../../../shared/auth';
import { api } from '../../lib/api';

/** Signs in. A 401 here is an answer to show (wrong credentials), not an ended session. */
export function logIn(input: LoginInput): Promise<LoginResponse> {
  return api('/auth/login', { method: 'POST', body: input, schema: LoginResponse, signedIn: false });
}
