import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginResponse } from '../../../shared/auth';
import { ApiError } from '../../../shared/common';
import type { Role } from '../../../shared/roles';
import {
  ProfileResponse,
  ResetPasswordResponse,
  UserListResponse,
  UserResponse,
} from '../../../shared/users';
import { type Account, PASSWORD, parsed, startApp, type TestApp, targets } from '../../test/harness';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const MUST_CHANGE = 'Change your password before you continue.';

type Entry = { action: string; actor_id: string; changes: unknown };

describe.each(targets)('staff management on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  const login = (email: string, password: string) =>
    t.call('POST', '/api/auth/login', { body: { email, password } });
  const patch = (caller: Account, id: string, body: unknown) =>
    t.call('PATCH', `/api/users/${id}`, { token: caller.token, body });
  const reset = (caller: Account, id: string) =>
    t.call('POST', `/api/users/${id}/reset-password`, { token: caller.token });
  const entries = (id: string) =>
    t.sql<Entry>(
      `select action, actor_id, changes from audit_log
       where entity_type = 'user' and entity_id = $1 and action not like 'signIn%' and action <> 'signedIn'
       order by at, id`,
      [id],
    );
  const order = async (caller: Account) => {
    const { id } = await t.product({ stock: 5 });
    const res = await t.call('POST', '/api/order/add', {
      token: caller.token,
      body: { productId: id, quantity: 1 },
    });
    const [row] = await t.sql<{ stock: number }>('select stock from products where id = $1', [id]);
    return { res, stock: row?.stock };
  };

  describe('PATCH /api/users/:id', () => {
    it("lets an admin change a rep's name and role, answers the user and audits old → new", async () => {
      const rep = await t.account('salesRep', 'Rosa Rep');
      const res = await patch(t.as.admin, rep.id, { name: '  Rosa Field ', role: 'medicalRep' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        user: {
          _id: rep.id,
          name: 'Rosa Field',
          email: rep.email,
          address: 'Rosa Rep street 1',
          role: 'medicalRep',
          active: true,
          mustChangePassword: false,
          location: null,
        },
      });
      expect(await entries(rep.id)).toEqual([
        {
          action: 'updated',
          actor_id: t.as.admin.id,
          changes: [
            { field: 'name', old: 'Rosa Rep', new: 'Rosa Field' },
            { field: 'role', old: 'salesRep', new: 'medicalRep' },
          ],
        },
      ]);
      // The new role holds on the rep's next call: a medicalRep still orders, and reads only itself.
      const me = await t.call('GET', `/api/users/${rep.id}`, { token: rep.token });
      expect(parsed(me, UserResponse).user.role).toBe('medicalRep');
    });

    it("lets the superAdmin rename an admin, but not give an admin's account another role", async () => {
      const admin = await t.account('admin', 'Adam Admin');
      const renamed = await patch(t.as.superAdmin, admin.id, { name: 'Adam Boss' });
      expect(renamed.status).toBe(200);
      expect(parsed(renamed, UserResponse).user.name).toBe('Adam Boss');
      const demoted = await patch(t.as.superAdmin, admin.id, { role: 'salesRep' });
      expect(demoted.status).toBe(403);
      expect(demoted.body).toEqual({
        success: false,
        code: 'FORBIDDEN',
        error: 'Your role cannot give the salesRep role.',
      });
      const [row] = await t.sql<{ role: string }>('select role from users where id = $1', [admin.id]);
      expect(row?.role).toBe('admin');
    });

    it.each([
      ['an admin changing an admin', 'admin', 'admin', { name: 'X' }],
      ['an admin changing the superAdmin', 'admin', 'superAdmin', { name: 'X' }],
      ['the superAdmin changing a rep', 'superAdmin', 'salesRep', { active: false }],
      ['the superAdmin changing a user', 'superAdmin', 'user', { name: 'X' }],
    ] as const)('answers 403 to %s, and changes nothing', async (_label, caller, targetRole, body) => {
      const target = await t.account(targetRole as Role, 'Kept Name');
      const res = await patch(t.as[caller], target.id, body);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        success: false,
        code: 'FORBIDDEN',
        error: 'Your role cannot change this user.',
      });
      const [row] = await t.sql<{ name: string; active: boolean }>(
        'select name, active from users where id = $1',
        [target.id],
      );
      expect(row).toEqual({ name: 'Kept Name', active: true });
      expect(await entries(target.id)).toEqual([]);
    });

    it.each(['admin', 'superAdmin'] as const)('answers 403 to an admin giving the %s role', async (role) => {
      const rep = await t.account('salesRep');
      const res = await patch(t.as.admin, rep.id, { role });
      expect(res.status).toBe(403);
      expect(parsed(res, ApiError).error).toBe(`Your role cannot give the ${role} role.`);
    });

    it.each(['admin', 'superAdmin'] as const)('answers 403 to a %s changing themselves', async (role) => {
      const me = await t.account(role);
      const res = await patch(me, me.id, { name: 'Myself' });
      expect(res.status).toBe(403);
      expect(parsed(res, ApiError).error).toBe(
        'You cannot change your own account here; edit your profile instead.',
      );
    });

    it.each(['salesRep', 'medicalRep', 'user'] as const)('answers 403 to a %s', async (role) => {
      const other = await t.account('user');
      const res = await patch(t.as[role], other.id, { name: 'X' });
      expect(res.status).toBe(403);
    });

    it('answers 404 for an unknown user and 400 for an empty change or a bad value', async () => {
      expect((await patch(t.as.admin, UNKNOWN_ID, { name: 'X' })).status).toBe(404);
      expect((await patch(t.as.admin, 'not-an-id', { name: 'X' })).status).toBe(404);
      const rep = await t.account('salesRep');
      const empty = await patch(t.as.admin, rep.id, {});
      expect(empty.status).toBe(400);
      expect(parsed(empty, ApiError).error).toBe('Give a name, a role, active or location to change.');
      expect((await patch(t.as.admin, rep.id, { name: '   ' })).status).toBe(400);
      expect((await patch(t.as.admin, rep.id, { active: 'no' })).status).toBe(400);
      expect((await patch(t.as.admin, rep.id, { role: 'owner' })).status).toBe(400);
    });
  });

  describe('deactivation', () => {
    it("stops a rep's tokens at once, on ordinary and one-statement calls, and refuses their sign-in after the right password", async () => {
      const rep = await t.account('salesRep', 'Dora Rep');
      expect((await t.call('GET', '/api/products', { token: rep.token })).status).toBe(200);
      const res = await patch(t.as.admin, rep.id, { active: false });
      expect(res.status).toBe(200);
      expect(parsed(res, UserResponse).user.active).toBe(false);

      expect((await t.call('GET', '/api/products', { token: rep.token })).status).toBe(401);
      expect((await t.call('GET', `/api/users/${rep.id}`, { token: rep.token })).status).toBe(401);
      const { res: ordered, stock } = await order(rep);
      expect(ordered.status).toBe(401);
      expect(stock).toBe(5);

      const wrong = await login(rep.email, 'not the password');
      expect(wrong.status).toBe(401);
      expect(parsed(wrong, ApiError).error).toBe('Invalid email or password');
      const right = await login(rep.email, PASSWORD);
      expect(right.status).toBe(403);
      expect(right.body).toEqual({
        success: false,
        code: 'DEACTIVATED',
        error: 'This account is deactivated.',
      });

      const list = await t.call('GET', '/api/users?search=Dora', { token: t.as.admin.token });
      expect(parsed(list, UserListResponse).users).toContainEqual(
        expect.objectContaining({ _id: rep.id, active: false }),
      );
      expect(await entries(rep.id)).toEqual([
        {
          action: 'deactivated',
          actor_id: t.as.admin.id,
          changes: [{ field: 'active', old: true, new: false }],
        },
      ]);
    });

    it('lets the rep sign in again once reactivated, while the tokens from before stay refused', async () => {
      const rep = await t.account('medicalRep');
      expect((await patch(t.as.admin, rep.id, { active: false })).status).toBe(200);
      const back = await patch(t.as.admin, rep.id, { active: true });
      expect(back.status).toBe(200);
      expect(parsed(back, UserResponse).user.active).toBe(true);
      expect((await t.call('GET', '/api/products', { token: rep.token })).status).toBe(401);
      const signedIn = await login(rep.email, PASSWORD);
      expect(signedIn.status).toBe(200);
      expect(
        (await t.call('GET', '/api/products', { token: parsed(signedIn, LoginResponse).token })).status,
      ).toBe(200);
      expect((await entries(rep.id)).map((entry) => entry.action)).toEqual(['deactivated', 'reactivated']);
      expect((await entries(rep.id))[1]?.changes).toEqual([{ field: 'active', old: false, new: true }]);
    });

    it('refuses a current token of an inactive user on every kind of call: the flag alone is checked', async () => {
      const rep = await t.account('salesRep');
      // Only the column, without the token version a deactivation also bumps.
      await t.sql('update users set active = false where id = $1', [rep.id]);
      expect((await t.call('GET', '/api/products', { token: rep.token })).status).toBe(401);
      expect((await t.call('GET', '/api/products/code/ANY-CODE', { token: rep.token })).status).toBe(401);
      const { res, stock } = await order(rep);
      expect(res.status).toBe(401);
      expect(stock).toBe(5);
    });

    it('writes no entry when nothing changes', async () => {
      const rep = await t.account('user', 'Same Name');
      const res = await patch(t.as.admin, rep.id, { name: 'Same Name', role: 'user', active: true });
      expect(res.status).toBe(200);
      expect(await entries(rep.id)).toEqual([]);
    });

    it("lets the superAdmin deactivate an admin, whose dashboard's one statement then answers 401", async () => {
      const admin = await t.account('admin');
      expect((await t.call('GET', '/api/dashboard', { token: admin.token })).status).toBe(200);
      expect((await patch(t.as.superAdmin, admin.id, { active: false })).status).toBe(200);
      expect((await t.call('GET', '/api/dashboard', { token: admin.token })).status).toBe(401);
    });
  });

  describe('POST /api/users/:id/reset-password', () => {
    it('answers a readable temporary password once; the old password and tokens stop at once', async () => {
      const rep = await t.account('salesRep', 'Reset Rep');
      const res = await reset(t.as.admin, rep.id);
      expect(res.status).toBe(200);
      expect(Object.keys(parsed(res, ResetPasswordResponse)).sort()).toEqual([
        'success',
        'temporaryPassword',
        'user',
      ]);
      expect(parsed(res, ResetPasswordResponse).temporaryPassword).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
      expect(parsed(res, ResetPasswordResponse).temporaryPassword).not.toMatch(/[01ilo]/);
      expect(parsed(res, UserResponse).user).toMatchObject({
        _id: rep.id,
        active: true,
        mustChangePassword: true,
      });
      const again = await reset(t.as.admin, rep.id);
      expect(parsed(again, ResetPasswordResponse).temporaryPassword).not.toBe(
        parsed(res, ResetPasswordResponse).temporaryPassword,
      );

      expect((await t.call('GET', '/api/products', { token: rep.token })).status).toBe(401);
      expect((await login(rep.email, PASSWORD)).status).toBe(401);
      expect((await login(rep.email, parsed(res, ResetPasswordResponse).temporaryPassword)).status).toBe(401);
      const signedIn = await login(rep.email, parsed(again, ResetPasswordResponse).temporaryPassword);
      expect(signedIn.status).toBe(200);
      expect(parsed(signedIn, LoginResponse).mustChangePassword).toBe(true);
      expect(parsed(signedIn, LoginResponse).user.mustChangePassword).toBe(true);

      const actions = await entries(rep.id);
      expect(actions.map((entry) => entry.action)).toEqual(['passwordReset', 'passwordReset']);
      expect(actions[0]).toEqual({
        action: 'passwordReset',
        actor_id: t.as.admin.id,
        changes: [{ field: 'password' }, { field: 'mustChangePassword', old: false, new: true }],
      });
      const logged = JSON.stringify(await t.sql('select * from audit_log where entity_id = $1', [rep.id]));
      expect(logged).not.toContain(parsed(res, ResetPasswordResponse).temporaryPassword);
      expect(logged).not.toContain(parsed(again, ResetPasswordResponse).temporaryPassword);
      expect(logged).not.toContain('$argon2');
    });

    it('answers 403 everywhere but their own user and sign-out until they choose a new password', async () => {
      const rep = await t.account('salesRep');
      const { temporaryPassword } = parsed(await reset(t.as.admin, rep.id), ResetPasswordResponse);
      const token = parsed(await login(rep.email, temporaryPassword), LoginResponse).token;

      const products = await t.call('GET', '/api/products', { token });
      expect(products.status).toBe(403);
      expect(products.body).toEqual({ success: false, code: 'MUST_CHANGE_PASSWORD', error: MUST_CHANGE });
      const { res: ordered, stock } = await order({ ...rep, token });
      expect(ordered.status).toBe(403);
      expect(parsed(ordered, ApiError).error).toBe(MUST_CHANGE);
      expect(stock).toBe(5);
      expect(parsed(await t.call('GET', '/api/products/code/ANY-CODE', { token }), ApiError).error).toBe(
        MUST_CHANGE,
      );

      const mine = await t.call('GET', `/api/users/${rep.id}`, { token });
      expect(mine.status).toBe(200);
      expect(parsed(mine, UserResponse).user.mustChangePassword).toBe(true);

      const unchanged = await t.call('PUT', `/api/users/${rep.id}`, {
        token,
        body: { name: 'Still Rep', email: rep.email },
      });
      expect(unchanged.status).toBe(400);
      expect(parsed(unchanged, ApiError).error).toBe('Choose a new password to continue.');
      const same = await t.call('PUT', `/api/users/${rep.id}`, {
        token,
        body: {
          name: 'Rep',
          email: rep.email,
          password: temporaryPassword,
          currentPassword: temporaryPassword,
        },
      });
      expect(same.status).toBe(400);
      expect(parsed(same, ApiError).error).toBe('Choose a password other than the temporary one.');

      const changed = await t.call('PUT', `/api/users/${rep.id}`, {
        token,
        body: {
          name: 'Rep',
          email: rep.email,
          password: 'my own new password',
          currentPassword: temporaryPassword,
        },
      });
      expect(changed.status).toBe(200);
      expect(parsed(changed, ProfileResponse).user.mustChangePassword).toBe(false);
      expect(typeof parsed(changed, ProfileResponse).token).toBe('string');
      expect(
        (await t.call('GET', '/api/products', { token: parsed(changed, ProfileResponse).token })).status,
      ).toBe(200);
      const { res: sold } = await order({ ...rep, token: parsed(changed, ProfileResponse).token as string });
      expect(sold.status).toBe(201);
      const fresh = await login(rep.email, 'my own new password');
      expect(parsed(fresh, LoginResponse).mustChangePassword).toBe(false);
    });

    it('lets a user who must change their password sign out', async () => {
      const rep = await t.account('user');
      const { temporaryPassword } = parsed(await reset(t.as.admin, rep.id), ResetPasswordResponse);
      const token = parsed(await login(rep.email, temporaryPassword), LoginResponse).token;
      const out = await t.call('POST', '/api/auth/logout', { token });
      expect(out.status).toBe(200);
      expect((await t.call('GET', `/api/users/${rep.id}`, { token })).status).toBe(401);
    });

    it("keeps an admin who must change their password from reading another user's account", async () => {
      const admin = await t.account('admin');
      const rep = await t.account('salesRep');
      const { temporaryPassword } = parsed(await reset(t.as.superAdmin, admin.id), ResetPasswordResponse);
      const token = parsed(await login(admin.email, temporaryPassword), LoginResponse).token;
      const other = await t.call('GET', `/api/users/${rep.id}`, { token });
      expect(other.status).toBe(403);
      expect(parsed(other, ApiError).error).toBe(MUST_CHANGE);
      expect((await t.call('GET', `/api/users/${admin.id}`, { token })).status).toBe(200);
      expect(parsed(await t.call('GET', '/api/dashboard', { token }), ApiError).error).toBe(MUST_CHANGE);
    });

    it('answers 403 for oneself, for a user of a role the caller cannot create, and 404 for nobody', async () => {
      const admin = await t.account('admin');
      const self = await reset(admin, admin.id);
      expect(self.status).toBe(403);
      expect(parsed(self, ApiError).error).toBe('Change your own password on your profile.');
      const peer = await t.account('admin');
      expect((await reset(admin, peer.id)).status).toBe(403);
      const rep = await t.account('salesRep');
      expect((await reset(t.as.superAdmin, rep.id)).status).toBe(403);
      expect((await reset(t.as.salesRep, rep.id)).status).toBe(403);
      expect((await reset(t.as.admin, UNKNOWN_ID)).status).toBe(404);
      // Nothing changed for the refused ones.
      expect(parsed(await login(peer.email, PASSWORD), LoginResponse).mustChangePassword).toBe(false);
      expect((await login(rep.email, PASSWORD)).status).toBe(200);
      expect(await entries(rep.id)).toEqual([]);
    });
  });
});
