import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, Message } from '../../../shared/common';
import { pageWindow } from '../../../shared/paging';
import { CREATABLE_ROLES, MANAGED_ROLES, manages, type Role } from '../../../shared/roles';
import {
  PinInput,
  ProfileInput,
  ProfileResponse,
  ResetPasswordResponse,
  StaffInput,
  UserInput,
  UserListResponse,
  UserQuery,
  UserResponse,
} from '../../../shared/users';
import { currentUser } from '../../lib/auth';
import { AppError, badRequest, forbidden, isId, notFound, refuse } from '../../lib/errors';
import type { AuthUser } from '../../lib/fastify';
import { hashPassword, temporaryPassword, verifyPassword } from '../../lib/passwords';
import { type Admission, LOGIN_LIMITS, limitsText, tooManyAttempts } from '../../lib/throttle';
import {
  changeStaff,
  deleteUser,
  emailTaken,
  findUser,
  insertUser,
  listUsers,
  passwordHashOf,
  resetPassword,
  setPin,
  toUser,
  updateUser,
} from './users.repository';

/**
 * A new password or email needs the current password (DESIGN §7), so a stolen session cannot
 * take the account over. Each try counts against the login throttle before it is checked, and
 * against the user's own counter whatever the address. The count is taken back only when the
 * change is made: a proposed email that is taken counts as a failure too, so the "already in
 * use" answer cannot be harvested address by address. Answers the admission to settle.
 */
async function checkCurrentPassword(
  request: FastifyRequest,
  me: AuthUser,
  input: { email: string; password?: string; currentPassword?: string },
): Promise<Admission | undefined> {
  if (!input.password && input.email === me.email) return undefined;
  if (!input.currentPassword)
    throw badRequest('Enter your current password to change your password or email.');
  const admission = await request.server.loginThrottle.admit({
    email: me.email,
    address: request.ip,
    userId: me.id,
  });
  if (!admission.admitted) throw tooManyAttempts(admission.waitMs);
  const hash = await passwordHashOf(request.server.db, me.id);
  if (!(await verifyPassword(hash, input.currentPassword))) throw refuse('WRONG_PASSWORD');
  return admission;
}

/** Staff changes go to whoever may create the user's role (DESIGN §16). */
const changes = (caller: Role) => (role: Role) => CREATABLE_ROLES[caller].includes(role);

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users',
    {
      config: { permission: 'users:manage' },
      schema: {
        tags: ['users'],
        summary: 'Users the caller manages',
        description: 'Without page or pageSize every such user; search matches words of the name or email.',
        querystring: UserQuery,
        response: { 200: UserListResponse },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { rows, total } = await listUsers(app.db, MANAGED_ROLES[me.role], request.query);
      const window = pageWindow(request.query);
      return {
        success: true as const,
        users: rows.map(toUser),
        total,
        ...(window ? { page: window.page, pageSize: window.pageSize } : {}),
      };
    },
  );

  app.post(
    '/users/add',
    {
      config: { permission: 'users:manage' },
      schema: { tags: ['users'], summary: 'Create a user', body: UserInput, response: { 201: UserResponse } },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const input = request.body;
      if (!CREATABLE_ROLES[me.role].includes(input.role)) {
        throw forbidden(`Your role cannot create ${input.role} accounts.`);
      }
      if (await emailTaken(app.db, input.email)) throw refuse('EMAIL_TAKEN');
      const row = await insertUser(
        app.db,
        {
          name: input.name,
          email: input.email,
          address: input.address,
          role: input.role,
          location: input.location,
          passwordHash: await hashPassword(input.password),
        },
        me,
      );
      return reply.code(201).send({ success: true as const, user: toUser(row) });
    },
  );

  app.delete(
    '/users/:id',
    {
      config: { permission: 'users:manage' },
      schema: { tags: ['users'], summary: 'Delete a user', params: IdParams, response: { 200: Message } },
    },
    async (request) => {
      const me = currentUser(request);
      const { id } = request.params;
      if (id === me.id) throw forbidden('You cannot delete your own account.');
      const target = isId(id) ? await findUser(app.db, id) : undefined;
      if (!target) throw notFound('User');
      if (!manages(me.role, target.role as Role)) throw forbidden('Your role cannot delete this user.');
      if (!(await deleteUser(app.db, id, me))) throw notFound('User');
      return { success: true as const, message: 'User deleted.' };
    },
  );

  app.patch(
    '/users/:id',
    {
      config: { permission: 'users:manage' },
      schema: {
        tags: ['users'],
        summary: 'Change a user you manage',
        description:
          'The name, the role or whether the account is active, for a user whose role the caller may create, to a role the caller may give (403 otherwise, and for the caller themselves: their own profile is PUT). active: false stops their tokens at once and refuses their sign-ins; active: true lets them sign in again.',
        params: IdParams,
        body: StaffInput,
        response: { 200: UserResponse },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { id } = request.params;
      if (id === me.id)
        throw forbidden('You cannot change your own account here; edit your profile instead.');
      if (!isId(id)) throw notFound('User');
      const input = request.body;
      if (
        input.name === undefined &&
        input.role === undefined &&
        input.active === undefined &&
        input.location === undefined
      )
        throw badRequest('Give a name, a role, active or location to change.');
      if (input.role !== undefined && !changes(me.role)(input.role))
        throw forbidden(`Your role cannot give the ${input.role} role.`);
      const changed = await changeStaff(app.db, id, input, me, changes(me.role));
      if (!changed) throw notFound('User');
      if ('forbidden' in changed) throw forbidden('Your role cannot change this user.');
      return { success: true as const, user: toUser(changed.row) };
    },
  );

  app.post(
    '/users/:id/reset-password',
    {
      config: { permission: 'users:manage' },
      schema: {
        tags: ['users'],
        summary: "Reset a user's password",
        description:
          'For a user whose role the caller may create (403 otherwise, and for the caller themselves). Answers a temporary password, shown this once; the old password and every token of the user stop at once, and until they choose a new password (PUT /api/users/:id) every call but reading and changing their own user answers 403.',
        params: IdParams,
        response: { 200: ResetPasswordResponse },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { id } = request.params;
      if (id === me.id) throw forbidden('Change your own password on your profile.');
      if (!isId(id)) throw notFound('User');
      const temporary = temporaryPassword();
      const reset = await resetPassword(app.db, id, await hashPassword(temporary), me, changes(me.role));
      if (!reset) throw notFound('User');
      if ('forbidden' in reset) throw forbidden("Your role cannot reset this user's password.");
      return { success: true as const, temporaryPassword: temporary, user: toUser(reset.row) };
    },
  );

  app.get(
    '/users/:id',
    {
      config: { permission: 'users:self', beforePasswordChange: true },
      schema: { tags: ['users'], summary: 'One user', params: IdParams, response: { 200: UserResponse } },
    },
    async (request) => {
      const me = currentUser(request);
      const { id } = request.params;
      if (id !== me.id && me.mustChangePassword) throw refuse('MUST_CHANGE_PASSWORD');
      if (id !== me.id && MANAGED_ROLES[me.role].length === 0)
        throw forbidden('You can only see your own account.');
      const target = isId(id) ? await findUser(app.db, id) : undefined;
      if (!target) throw notFound('User');
      if (id !== me.id && !manages(me.role, target.role as Role))
        throw forbidden('Your role cannot see this user.');
      return { success: true as const, user: toUser(target) };
    },
  );

  app.put(
    '/users/:id',
    {
      config: { permission: 'users:self', beforePasswordChange: true },
      schema: {
        tags: ['users'],
        summary: 'Update your own profile',
        description: `An empty or missing password leaves it unchanged; a new one returns a fresh token. A new password or email needs currentPassword (400 without it, 403 when wrong), checked before the email is; wrong ones and emails already in use count against the sign-in limits (${limitsText()}) and ${LOGIN_LIMITS.perUser} per user in the same window, then 429. After an admin's reset a new password, other than the temporary one, is required (400 without it) and clears mustChangePassword.`,
        params: IdParams,
        body: ProfileInput,
        response: { 200: ProfileResponse },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { id } = request.params;
      if (id !== me.id) {
        if (!isId(id)) throw notFound('User');
        throw forbidden('You can only edit your own profile.');
      }
      const input = request.body;
      if (me.mustChangePassword) {
        if (!input.password) throw badRequest('Choose a new password to continue.');
        if (input.password === input.currentPassword)
          throw badRequest('Choose a password other than the temporary one.');
      }
      const admission = await checkCurrentPassword(request, me, input);
      if (await emailTaken(app.db, input.email, me.id)) throw refuse('EMAIL_TAKEN');
      const passwordHash = input.password ? await hashPassword(input.password) : undefined;
      const row = await updateUser(app.db, me.id, { ...input, passwordHash }, me);
      if (!row) throw new AppError(401, 'Your account no longer exists.');
      if (admission) await app.loginThrottle.succeeded(admission);
      const token = passwordHash
        ? await app.tokens.sign({ userId: row.id, tokenVersion: row.tokenVersion })
        : undefined;
      return { success: true as const, user: toUser(row), ...(token ? { token } : {}) };
    },
  );

  app.put(
    '/users/me/pin',
    {
      config: { permission: 'users:self' },
      schema: {
        tags: ['users'],
        summary: 'Set your approval PIN (admins)',
        description: `The PIN an admin gives at the counter to approve a discount above the store's limit or a sale above stock (DESIGN §12): 4 to 8 digits, stored as an argon2id hash and never answered. Admins only (403 otherwise). Needs currentPassword: 403 when wrong; wrong ones count against the sign-in limits (${limitsText()}) and ${LOGIN_LIMITS.perUser} per user in the same window, then 429. An audit entry records the change, never the PIN.`,
        body: PinInput,
        response: { 200: Message },
      },
    },
    async (request) => {
      const me = currentUser(request);
      if (me.role !== 'admin') throw forbidden('Only an admin sets a PIN for approvals.');
      const { pin, currentPassword } = request.body;
      const admission = await app.loginThrottle.admit({
        email: me.email,
        address: request.ip,
        userId: me.id,
      });
      if (!admission.admitted) throw tooManyAttempts(admission.waitMs);
      const hash = await passwordHashOf(app.db, me.id);
      if (!(await verifyPassword(hash, currentPassword))) throw refuse('WRONG_PASSWORD');
      if (!(await setPin(app.db, me, await hashPassword(pin))))
        throw new AppError(401, 'Your account no longer exists.');
      await app.loginThrottle.succeeded(admission);
      return { success: true as const, message: 'Your PIN is set.' };
    },
  );
};
