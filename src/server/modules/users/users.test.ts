import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginResponse } from '../../../shared/auth';
import { ApiError } from '../../../shared/common';
import { OrderListResponse, OrderResponse } from '../../../shared/orders';
import type { Role } from '../../../shared/roles';
import { ProfileResponse, UserListResponse, UserResponse } from '../../../shared/users';
import { tag } from '../../test/fixtures';
import { type Account, PASSWORD, parsed, startApp, type TestApp, targets } from '../../test/harness';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const REPS_AND_USER = ['salesRep', 'medicalRep', 'user'] as const;
const USER_KEYS = ['_id', 'active', 'address', 'email', 'location', 'mustChangePassword', 'name', 'role'];

const freshEmail = (prefix = 'new') => `${prefix}.${tag()}@example.com`;

describe.each(targets)('users on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  const newUser = (role: Role, change: Record<string, unknown> = {}) => ({
    name: 'Nora New',
    email: freshEmail(),
    password: 'long enough password',
    address: '12 Market Street',
    role,
    ...change,
  });

  const login = (email: string, password: string) =>
    t.call('POST', '/api/auth/login', { body: { email, password } });

  describe('GET /api/users', () => {
    it('lets the superAdmin list every user with exactly the public fields', async () => {
      const someone = await t.account('admin', 'Listed Admin');
      const res = await t.call('GET', '/api/users', { token: t.as.superAdmin.token });
      expect(res.status).toBe(200);
      expect(Object.keys(parsed(res, UserListResponse)).sort()).toEqual(['success', 'total', 'users']);
      expect(parsed(res, UserListResponse).total).toBe(parsed(res, UserListResponse).users.length);
      const roles = new Set(parsed(res, UserListResponse).users.map((u) => u.role));
      expect([...roles].sort()).toEqual(['admin', 'medicalRep', 'salesRep', 'superAdmin', 'user']);
      for (const user of parsed(res, UserListResponse).users)
        expect(Object.keys(user).sort()).toEqual(USER_KEYS);
      expect(parsed(res, UserListResponse).users).toContainEqual({
        _id: someone.id,
        name: 'Listed Admin',
        email: someone.email,
        address: 'Listed Admin street 1',
        role: 'admin',
        active: true,
        mustChangePassword: false,
        location: null,
      });
    });

    it('lets an admin list only salesRep, medicalRep and user accounts', async () => {
      const rep = await t.account('salesRep');
      const res = await t.call('GET', '/api/users', { token: t.as.admin.token });
      expect(res.status).toBe(200);
      const roles = new Set(parsed(res, UserListResponse).users.map((u) => u.role));
      expect([...roles].sort()).toEqual(['medicalRep', 'salesRep', 'user']);
      expect(parsed(res, UserListResponse).users.map((u) => u._id)).toContain(rep.id);
      expect(parsed(res, UserListResponse).users.map((u) => u._id)).not.toContain(t.as.admin.id);
    });

    it.each(REPS_AND_USER)('answers 403 to a %s', async (role) => {
      const res = await t.call('GET', '/api/users', { token: t.as[role].token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, code: 'FORBIDDEN', error: expect.any(String) });
    });
  });

  describe('POST /api/users/add', () => {
    it('lets the superAdmin create an admin, who can then sign in', async () => {
      const body = newUser('admin', { name: '  Ada Admin ', email: `  ${freshEmail('Ada').toUpperCase()}` });
      const res = await t.call('POST', '/api/users/add', { token: t.as.superAdmin.token, body });
      expect(res.status).toBe(201);
      expect(Object.keys(parsed(res, UserResponse)).sort()).toEqual(['success', 'user']);
      expect(parsed(res, UserResponse).user).toEqual({
        _id: expect.any(String),
        name: 'Ada Admin',
        email: body.email.trim().toLowerCase(),
        address: '12 Market Street',
        role: 'admin',
        active: true,
        mustChangePassword: false,
        location: null,
      });
      const signIn = await login(body.email, 'long enough password');
      expect(signIn.status).toBe(200);
      expect(parsed(signIn, LoginResponse).user._id).toBe(parsed(res, UserResponse).user._id);
    });

    it('stores a missing address as an empty one', async () => {
      const { address: _address, ...body } = newUser('user');
      const res = await t.call('POST', '/api/users/add', { token: t.as.admin.token, body });
      expect(res.status).toBe(201);
      expect(parsed(res, UserResponse).user.address).toBe('');
    });

    it.each(['superAdmin', 'salesRep', 'medicalRep', 'user'] as const)(
      'refuses the superAdmin creating a %s with 403',
      async (role) => {
        const body = newUser(role);
        const res = await t.call('POST', '/api/users/add', { token: t.as.superAdmin.token, body });
        expect(res.status).toBe(403);
        expect(parsed(res, ApiError).success).toBe(false);
        const rows = await t.sql('select 1 from users where email = $1', [body.email]);
        expect(rows).toHaveLength(0);
      },
    );

    it.each(REPS_AND_USER)('lets an admin create a %s', async (role) => {
      const res = await t.call('POST', '/api/users/add', { token: t.as.admin.token, body: newUser(role) });
      expect(res.status).toBe(201);
      expect(parsed(res, UserResponse).user.role).toBe(role);
    });

    it.each(['admin', 'superAdmin'] as const)('refuses an admin creating a %s with 403', async (role) => {
      const body = newUser(role);
      const res = await t.call('POST', '/api/users/add', { token: t.as.admin.token, body });
      expect(res.status).toBe(403);
      expect(parsed(res, ApiError).success).toBe(false);
      const rows = await t.sql('select 1 from users where email = $1', [body.email]);
      expect(rows).toHaveLength(0);
    });

    it.each(REPS_AND_USER)('answers 403 to a %s', async (role) => {
      const res = await t.call('POST', '/api/users/add', { token: t.as[role].token, body: newUser('user') });
      expect(res.status).toBe(403);
    });

    it('refuses an email already taken with 409, also when it differs only in case', async () => {
      const first = newUser('user');
      expect((await t.call('POST', '/api/users/add', { token: t.as.admin.token, body: first })).status).toBe(
        201,
      );
      for (const email of [first.email, first.email.toUpperCase(), ` ${first.email} `]) {
        const res = await t.call('POST', '/api/users/add', {
          token: t.as.admin.token,
          body: newUser('salesRep', { email }),
        });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({
          success: false,
          code: 'EMAIL_TAKEN',
          error: 'That email is already in use.',
        });
      }
      const rows = await t.sql('select 1 from users where email = $1', [first.email]);
      expect(rows).toHaveLength(1);
    });

    // Well-formed addresses of 255 and 254 characters: one over the limit, and the limit.
    const longDomain = `${['b', 'c', 'd'].map((c) => c.repeat(63)).join('.')}.co`;
    const longEmail = `${'a'.repeat(60)}@${longDomain}`;
    const longestEmail = `${'a'.repeat(59)}@${longDomain}`;

    it.each([
      ['an invalid email', { email: 'not-an-email' }],
      ['a 255-character email', { email: longEmail }],
      ['a 7-character password', { password: '1234567' }],
      ['a missing password', { password: undefined }],
      ['an unknown role', { role: 'owner' }],
      ['a blank name', { name: '   ' }],
      ['a name given as a number', { name: 42 }],
      ['a password given as a number', { password: 123456789 }],
      ['an email given as an array', { email: ['a@example.com'] }],
      ['a NUL character in the name', { name: 'Nul\u0000Name' }],
      ['a NUL character in the address', { address: 'Street\u0000 1' }],
      ['a 201-character name', { name: 'n'.repeat(201) }],
      ['a 501-character address', { address: 'a'.repeat(501) }],
    ])('refuses %s with 400', async (_label, change) => {
      const body = newUser('user', change);
      const res = await t.call('POST', '/api/users/add', { token: t.as.admin.token, body });
      expect(res.status).toBe(400);
      expect(parsed(res, ApiError).success).toBe(false);
      expect(parsed(res, ApiError).error).toMatch(/^[^\n]+$/);
      expect(parsed(res, ApiError).details).toEqual(
        expect.arrayContaining([{ path: expect.any(String), message: expect.any(String) }]),
      );
    });

    it('accepts a 254-character email', async () => {
      expect(longEmail).toHaveLength(255);
      expect(longestEmail).toHaveLength(254);
      const res = await t.call('POST', '/api/users/add', {
        token: t.as.admin.token,
        body: newUser('user', { email: longestEmail }),
      });
      expect(res.status).toBe(201);
      expect(parsed(res, UserResponse).user.email).toBe(longestEmail);
    });

    it('accepts an 8-character password and ignores unknown fields', async () => {
      const body = newUser('user', { password: '12345678', isAdmin: true, _id: UNKNOWN_ID });
      const res = await t.call('POST', '/api/users/add', { token: t.as.admin.token, body });
      expect(res.status).toBe(201);
      expect(parsed(res, UserResponse).user._id).not.toBe(UNKNOWN_ID);
      expect(parsed(res, UserResponse).user.role).toBe('user');
      expect((await login(body.email as string, '12345678')).status).toBe(200);
    });
  });

  describe('DELETE /api/users/:id', () => {
    it.each(['superAdmin', 'admin', 'salesRep', 'medicalRep', 'user'] as const)(
      'lets the superAdmin delete a %s',
      async (role) => {
        const target = await t.account(role);
        const res = await t.call('DELETE', `/api/users/${target.id}`, { token: t.as.superAdmin.token });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, message: expect.any(String) });
        expect(await t.sql('select 1 from users where id = $1', [target.id])).toHaveLength(0);
      },
    );

    it('refuses the superAdmin deleting itself with 403', async () => {
      const me = await t.account('superAdmin');
      const res = await t.call('DELETE', `/api/users/${me.id}`, { token: me.token });
      expect(res.status).toBe(403);
      expect(await t.sql('select 1 from users where id = $1', [me.id])).toHaveLength(1);
    });

    it.each(REPS_AND_USER)('lets an admin delete a %s', async (role) => {
      const target = await t.account(role);
      const res = await t.call('DELETE', `/api/users/${target.id}`, { token: t.as.admin.token });
      expect(res.status).toBe(200);
      expect(await t.sql('select 1 from users where id = $1', [target.id])).toHaveLength(0);
    });

    it('refuses an admin deleting an admin, a superAdmin or itself with 403', async () => {
      const me = await t.account('admin');
      const other = await t.account('admin');
      const boss = await t.account('superAdmin');
      for (const target of [other, boss, me]) {
        const res = await t.call('DELETE', `/api/users/${target.id}`, { token: me.token });
        expect(res.status).toBe(403);
        expect(parsed(res, ApiError).success).toBe(false);
        expect(await t.sql('select 1 from users where id = $1', [target.id])).toHaveLength(1);
      }
    });

    it.each(REPS_AND_USER)('answers 403 to a %s', async (role) => {
      const target = await t.account('user');
      const res = await t.call('DELETE', `/api/users/${target.id}`, { token: t.as[role].token });
      expect(res.status).toBe(403);
      expect(await t.sql('select 1 from users where id = $1', [target.id])).toHaveLength(1);
    });

    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of [UNKNOWN_ID, 'nope', "1' or '1'='1", '12345']) {
        const res = await t.call('DELETE', `/api/users/${encodeURIComponent(id)}`, {
          token: t.as.superAdmin.token,
        });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'User not found.' });
      }
    });

    it("keeps a deleted user's past orders", async () => {
      const buyer = await t.account('salesRep', 'Gone Buyer');
      const { id: productId } = await t.product({ name: 'Kept item', stock: 5, price: 2.5 });
      const placed = await t.call('POST', '/api/order/add', {
        token: buyer.token,
        body: { productId, quantity: 2 },
      });
      expect(placed.status).toBe(201);
      const orderId = parsed(placed, OrderResponse).order._id;
      expect((await t.call('DELETE', `/api/users/${buyer.id}`, { token: t.as.admin.token })).status).toBe(
        200,
      );
      const all = await t.call('GET', `/api/order/${t.as.admin.id}`, { token: t.as.admin.token });
      expect(all.status).toBe(200);
      const kept = parsed(all, OrderListResponse).orders.find((o) => o._id === orderId);
      expect(kept).toMatchObject({
        user: { name: 'Gone Buyer', address: 'Gone Buyer street 1' },
        product: { name: 'Kept item' },
        quantity: 2,
        totalPrice: 5,
      });
    });
  });

  describe('GET /api/users/:id', () => {
    it.each(['superAdmin', 'admin', 'salesRep', 'medicalRep', 'user'] as const)(
      'lets a %s read its own account',
      async (role) => {
        const me = t.as[role];
        const res = await t.call('GET', `/api/users/${me.id}`, { token: me.token });
        expect(res.status).toBe(200);
        expect(Object.keys(parsed(res, UserResponse)).sort()).toEqual(['success', 'user']);
        expect(parsed(res, UserResponse).user).toEqual({
          _id: me.id,
          name: me.name,
          email: me.email,
          address: `${me.name} street 1`,
          role,
          active: true,
          mustChangePassword: false,
          location: null,
        });
      },
    );

    it.each(['superAdmin', 'admin', 'salesRep', 'medicalRep', 'user'] as const)(
      'lets the superAdmin read a %s',
      async (role) => {
        const other = await t.account(role);
        const res = await t.call('GET', `/api/users/${other.id}`, { token: t.as.superAdmin.token });
        expect(res.status).toBe(200);
        expect(parsed(res, UserResponse).user._id).toBe(other.id);
      },
    );

    it('lets an admin read the roles it manages but not an admin or a superAdmin', async () => {
      for (const role of REPS_AND_USER) {
        const other = await t.account(role);
        const res = await t.call('GET', `/api/users/${other.id}`, { token: t.as.admin.token });
        expect(res.status).toBe(200);
        expect(parsed(res, UserResponse).user.role).toBe(role);
      }
      for (const role of ['admin', 'superAdmin'] as const) {
        const other = await t.account(role);
        const res = await t.call('GET', `/api/users/${other.id}`, { token: t.as.admin.token });
        expect(res.status).toBe(403);
        expect(parsed(res, ApiError).success).toBe(false);
      }
    });

    it.each(REPS_AND_USER)("refuses a %s reading someone else's account with 403", async (role) => {
      const other = await t.account('user');
      const res = await t.call('GET', `/api/users/${other.id}`, { token: t.as[role].token });
      expect(res.status).toBe(403);
      expect(res.text).not.toContain(other.email);
    });

    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of [UNKNOWN_ID, 'nope']) {
        const res = await t.call('GET', `/api/users/${id}`, { token: t.as.superAdmin.token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ success: false, code: 'NOT_FOUND', error: 'User not found.' });
      }
    });
  });

  describe('PUT /api/users/:id', () => {
    const profile = (me: Account, change: Record<string, unknown> = {}) => ({
      name: me.name,
      email: me.email,
      address: 'Old Road 1',
      ...change,
    });

    it('updates the own name, email and address and answers the user without a token', async () => {
      const me = await t.account('user');
      const email = freshEmail('renamed');
      const res = await t.call('PUT', `/api/users/${me.id}`, {
        token: me.token,
        body: {
          name: ' Renamed Person ',
          email: email.toUpperCase(),
          address: 'New Road 2',
          password: '',
          currentPassword: PASSWORD,
        },
      });
      expect(res.status).toBe(200);
      expect(Object.keys(parsed(res, ProfileResponse)).sort()).toEqual(['success', 'user']);
      expect(parsed(res, ProfileResponse).user).toEqual({
        _id: me.id,
        name: 'Renamed Person',
        email,
        address: 'New Road 2',
        role: 'user',
        active: true,
        mustChangePassword: false,
        location: null,
      });
      // The token stays valid and the new email signs in with the unchanged password.
      expect(
        parsed(await t.call('GET', `/api/users/${me.id}`, { token: me.token }), UserResponse).user.email,
      ).toBe(email);
      expect((await login(email, PASSWORD)).status).toBe(200);
    });

    it('leaves the password unchanged when it is empty or missing', async () => {
      const me = await t.account('salesRep');
      for (const body of [profile(me, { password: '' }), profile(me)]) {
        const res = await t.call('PUT', `/api/users/${me.id}`, { token: me.token, body });
        expect(res.status).toBe(200);
        expect(parsed(res, ProfileResponse).token).toBeUndefined();
      }
      expect((await login(me.email, PASSWORD)).status).toBe(200);
      expect((await t.call('GET', '/api/products', { token: me.token })).status).toBe(200);
    });

    it('changes the password and answers a fresh token', async () => {
      const me = await t.account('admin');
      const res = await t.call('PUT', `/api/users/${me.id}`, {
        token: me.token,
        body: profile(me, { password: 'another fine password', currentPassword: PASSWORD }),
      });
      expect(res.status).toBe(200);
      expect(Object.keys(parsed(res, ProfileResponse)).sort()).toEqual(['success', 'token', 'user']);
      expect((await login(me.email, 'another fine password')).status).toBe(200);
      expect((await login(me.email, PASSWORD)).status).toBe(401);
    });

    it.each([
      ['a new password', { password: 'a takeover password' }],
      ['a new email', { email: 'takeover@example.com' }],
    ])(
      'refuses %s without the current password (400) and with a wrong one (403), changing nothing',
      async (_label, change) => {
        const me = await t.account('user');
        const missing = await t.call('PUT', `/api/users/${me.id}`, {
          token: me.token,
          body: profile(me, change),
        });
        expect(missing.status).toBe(400);
        expect(missing.body).toEqual({
          success: false,
          code: 'BAD_REQUEST',
          error: 'Enter your current password to change your password or email.',
        });
        const wrong = await t.call('PUT', `/api/users/${me.id}`, {
          token: me.token,
          body: profile(me, { ...change, currentPassword: 'not my password' }),
        });
        expect(wrong.status).toBe(403);
        expect(wrong.body).toEqual({
          success: false,
          code: 'WRONG_PASSWORD',
          error: 'Your current password is wrong.',
        });
        const [row] = await t.sql<{ email: string; v: number }>(
          'select email, token_version as v from users where id = $1',
          [me.id],
        );
        expect(row).toEqual({ email: me.email, v: 0 });
        expect((await login(me.email, PASSWORD)).status).toBe(200);
        expect((await t.call('GET', '/api/products', { token: me.token })).status).toBe(200);
      },
    );

    it('a name or address change needs no current password', async () => {
      const me = await t.account('salesRep');
      const res = await t.call('PUT', `/api/users/${me.id}`, {
        token: me.token,
        body: profile(me, { name: 'Only The Name', email: me.email.toUpperCase() }),
      });
      expect(res.status).toBe(200);
      expect(parsed(res, ProfileResponse).user.name).toBe('Only The Name');
    });

    it('wrong current passwords count against the sign-in throttle', async () => {
      const limited = await startApp(t.target, { throttle: { perPair: 2, perEmail: 100, perAddress: 100 } });
      try {
        const me = await limited.account('user');
        const attempt = (currentPassword: string) =>
          limited.call('PUT', `/api/users/${me.id}`, {
            token: me.token,
            body: { name: me.name, email: me.email, password: 'a whole new password', currentPassword },
          });
        expect((await attempt('guess one')).status).toBe(403);
        expect((await attempt('guess two')).status).toBe(403);
        expect((await attempt(PASSWORD)).status).toBe(429);
      } finally {
        await limited.close();
      }
    });

    it.each(['superAdmin', 'admin', 'salesRep', 'user'] as const)(
      "refuses a %s editing someone else's profile with 403",
      async (role) => {
        const other = await t.account('medicalRep');
        const res = await t.call('PUT', `/api/users/${other.id}`, {
          token: t.as[role].token,
          body: profile(other, { name: 'Hijacked', password: 'hijacked password' }),
        });
        expect(res.status).toBe(403);
        const [row] = await t.sql<{ name: string }>('select name from users where id = $1', [other.id]);
        expect(row?.name).toBe(other.name);
        expect((await login(other.email, PASSWORD)).status).toBe(200);
      },
    );

    it('refuses taking an email already in use with 409, in any case', async () => {
      const me = await t.account('user');
      const other = await t.account('user');
      const res = await t.call('PUT', `/api/users/${me.id}`, {
        token: me.token,
        body: profile(me, { email: other.email.toUpperCase(), currentPassword: PASSWORD }),
      });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        success: false,
        code: 'EMAIL_TAKEN',
        error: 'That email is already in use.',
      });
      const [row] = await t.sql<{ email: string }>('select email from users where id = $1', [me.id]);
      expect(row?.email).toBe(me.email);
    });

    it('emails already in use cannot be harvested: the password is checked first, and each taken email or wrong password counts against 5 per user from any address', async () => {
      // DESIGN §7's limits (the shared app raises them).
      const strict = await startApp(t.target, { throttle: { perPair: 5, perEmail: 50, perAddress: 100 } });
      try {
        const me = await strict.account('user');
        const taken = await Promise.all(Array.from({ length: 4 }, () => strict.account('user')));
        let n = 0;
        const propose = (email: string, currentPassword: string) =>
          strict.call('PUT', `/api/users/${me.id}`, {
            token: me.token,
            body: { name: me.name, email, address: '', currentPassword },
            remoteAddress: `198.51.100.${++n}`,
          });
        // A wrong current password answers 403 before anything is said about the email.
        expect((await propose(taken[0]?.email as string, 'not my password')).status).toBe(403);
        expect((await propose(freshEmail('free'), 'still not it')).status).toBe(403);
        for (const other of taken.slice(0, 3))
          expect((await propose(other.email, PASSWORD)).status).toBe(409);
        const refused = await propose(taken[3]?.email as string, PASSWORD);
        expect(refused.status).toBe(429);
        expect(parsed(refused, ApiError).error).toMatch(/^Too many failed sign-in attempts/);
        expect((await propose(freshEmail('free'), PASSWORD)).status).toBe(429);
        const [row] = await strict.sql<{ email: string }>('select email from users where id = $1', [me.id]);
        expect(row?.email).toBe(me.email);
      } finally {
        await strict.close();
      }
    });

    it.each([
      ['a blank name', { name: ' ' }],
      ['an invalid email', { email: 'nope' }],
      ['a 7-character password', { password: 'short12' }],
      ['a name given as a number', { name: 7 }],
      ['a NUL character in the address', { address: 'a\u0000b' }],
    ])('refuses %s with 400', async (_label, change) => {
      const me = await t.account('user');
      const res = await t.call('PUT', `/api/users/${me.id}`, { token: me.token, body: profile(me, change) });
      expect(res.status).toBe(400);
      expect(parsed(res, ApiError).success).toBe(false);
    });

    it('answers 404 for a malformed id', async () => {
      const res = await t.call('PUT', '/api/users/nope', {
        token: t.as.user.token,
        body: profile(t.as.user),
      });
      expect(res.status).toBe(404);
    });
  });
});
