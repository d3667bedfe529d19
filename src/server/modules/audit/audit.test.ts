import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditActorsResponse, AuditListResponse } from '../../../shared/audit';
import { CategoryResponse } from '../../../shared/categories';
import { ProductResponse } from '../../../shared/products';
import { SupplierResponse } from '../../../shared/suppliers';
import { UserResponse } from '../../../shared/users';
import { nth, tag } from '../../test/fixtures';
import { type Account, PASSWORD, parsed, startApp, type TestApp, targets } from '../../test/harness';
import { recordAudit } from './audit.repository';

type Entry = AuditListResponse['entries'][number];

describe.each(targets)('audit log on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t?.close());

  /** GET /api/audit as the superAdmin, checked against the shared contract. */
  const audit = async (query: Record<string, string | number> = {}) => {
    const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const res = await t.call('GET', `/api/audit?${params}`, { token: t.as.superAdmin.token });
    expect(res.status, res.text).toBe(200);
    return AuditListResponse.parse(res.body);
  };
  const entriesBy = async (actor: Account, query: Record<string, string | number> = {}) =>
    (await audit({ actor: actor.id, pageSize: 100, ...query })).entries;
  const actorOf = (a: Account) => ({ _id: a.id, name: a.name, role: a.role });

  describe('changes are recorded with who, what and each field old → new', () => {
    it('a product created, changed and deleted', async () => {
      const admin = await t.account('admin', `Ada Admin ${tag()}`);
      const first = await t.product({ price: 9.99 });
      const second = await t.product();
      const [secondCategory] = await t.sql<{ name: string }>('select name from categories where id = $1', [
        second.categoryId,
      ]);
      const [firstCategory] = await t.sql<{ name: string }>('select name from categories where id = $1', [
        first.categoryId,
      ]);
      const name = `Lamp ${tag()}`;
      const body = {
        name,
        description: '',
        price: 9.99,
        stock: 7,
        category: first.categoryId,
        supplier: first.supplierId,
      };
      const added = await t.call('POST', '/api/products/add', { token: admin.token, body });
      expect(added.status).toBe(201);
      const id = parsed(added, ProductResponse).product._id;
      const put = await t.call('PUT', `/api/products/${id}`, {
        token: admin.token,
        body: { ...body, price: 12.5, category: second.categoryId },
      });
      expect(put.status).toBe(200);
      expect((await t.call('DELETE', `/api/products/${id}`, { token: admin.token })).status).toBe(200);

      const [deleted, updated, created] = await entriesBy(admin);
      expect(created).toMatchObject({
        actor: actorOf(admin),
        action: 'created',
        entity: { type: 'product', _id: id, name },
      });
      expect(created?.changes).toEqual([
        { field: 'name', new: name },
        { field: 'price', new: '9.99' },
        { field: 'stock', new: 7 },
        { field: 'category', new: firstCategory?.name },
        { field: 'supplier', new: expect.any(String) },
      ]);
      expect(updated).toMatchObject({ action: 'updated', entity: { type: 'product', _id: id, name } });
      expect(updated?.changes).toEqual([
        { field: 'price', old: '9.99', new: '12.50' },
        { field: 'category', old: firstCategory?.name, new: secondCategory?.name },
      ]);
      expect(deleted).toMatchObject({ action: 'deleted', entity: { type: 'product', _id: id, name } });
      expect(deleted?.changes).toContainEqual({ field: 'price', old: '12.50' });
      expect(Date.parse(deleted?.at ?? '')).toBeGreaterThanOrEqual(Date.parse(created?.at ?? ''));
    });

    it('an edit that changes nothing records nothing', async () => {
      const admin = await t.account('admin');
      const product = await t.product({ name: `Same ${tag()}`, price: 3, stock: 2 });
      const body = {
        name: (await t.sql<{ name: string }>('select name from products where id = $1', [product.id]))[0]
          ?.name,
        description: '',
        price: 3,
        stock: 2,
        category: product.categoryId,
        supplier: product.supplierId,
      };
      expect((await t.call('PUT', `/api/products/${product.id}`, { token: admin.token, body })).status).toBe(
        200,
      );
      expect(await entriesBy(admin)).toEqual([]);
    });

    it('a change of cost reaches only the roles that read costs, in the list and in the CSV', async () => {
      const admin = await t.account('admin');
      const product = await t.product({ price: 4 });
      const [row] = await t.sql<{ name: string; stock: number }>(
        'select name, stock from products where id = $1',
        [product.id],
      );
      const body = {
        name: row?.name,
        description: '',
        price: 4,
        stock: row?.stock,
        cost: 1.25,
        category: product.categoryId,
        supplier: product.supplierId,
      };
      const put = await t.call('PUT', `/api/products/${product.id}`, { token: admin.token, body });
      expect(put.status, put.text).toBe(200);
      const query = `/api/audit?actor=${admin.id}&pageSize=5`;
      const fieldsFor = async (reader: Account) => {
        const res = await t.call('GET', query, { token: reader.token });
        expect(res.status).toBe(200);
        return AuditListResponse.parse(res.body).entries[0]?.changes?.map((change) => change.field) ?? [];
      };
      expect(await fieldsFor(t.as.admin)).toContain('cost');
      expect(await fieldsFor(t.as.superAdmin)).not.toContain('cost');
      const csvFor = async (reader: Account) =>
        (await t.call('GET', `${query}&format=csv`, { token: reader.token })).text;
      expect(await csvFor(t.as.admin)).toContain('cost: ');
      expect(await csvFor(t.as.superAdmin)).not.toContain('cost: ');
    });

    it('a category created, renamed and deleted', async () => {
      const admin = await t.account('admin');
      const name = `Teas ${tag()}`;
      const added = await t.call('POST', '/api/category/add', {
        token: admin.token,
        body: { formCategory: name, formDescription: 'Leaves' },
      });
      const id = parsed(added, CategoryResponse).category._id;
      await t.call('PUT', `/api/category/${id}`, {
        token: admin.token,
        body: { formCategory: `${name} and herbs`, formDescription: 'Leaves' },
      });
      await t.call('DELETE', `/api/category/${id}`, { token: admin.token });
      const entries = await entriesBy(admin);
      expect(entries.map((e) => [e.action, e.entity, e.changes])).toEqual([
        [
          'deleted',
          { type: 'category', _id: id, name: `${name} and herbs` },
          [
            { field: 'name', old: `${name} and herbs` },
            { field: 'description', old: 'Leaves' },
          ],
        ],
        [
          'updated',
          { type: 'category', _id: id, name: `${name} and herbs` },
          [{ field: 'name', old: name, new: `${name} and herbs` }],
        ],
        [
          'created',
          { type: 'category', _id: id, name },
          [
            { field: 'name', new: name },
            { field: 'description', new: 'Leaves' },
          ],
        ],
      ]);
    });

    it('a supplier created, changed and deleted', async () => {
      const admin = await t.account('admin');
      const name = `Mills ${tag()}`;
      const added = await t.call('POST', '/api/supplier/add', {
        token: admin.token,
        body: { name, email: 'a@mills.test', phone: '1', address: '' },
      });
      const id = parsed(added, SupplierResponse).supplier._id;
      await t.call('PUT', `/api/supplier/${id}`, {
        token: admin.token,
        body: { name, email: 'b@mills.test', phone: '1', address: 'Quay 2' },
      });
      await t.call('DELETE', `/api/supplier/${id}`, { token: admin.token });
      const [deleted, updated, created] = await entriesBy(admin, { entity: 'supplier' });
      expect(created?.changes).toEqual([
        { field: 'name', new: name },
        { field: 'email', new: 'a@mills.test' },
        { field: 'phone', new: '1' },
      ]);
      expect(updated?.changes).toEqual([
        { field: 'email', old: 'a@mills.test', new: 'b@mills.test' },
        { field: 'address', old: '', new: 'Quay 2' },
      ]);
      expect(deleted).toMatchObject({ action: 'deleted', entity: { type: 'supplier', _id: id, name } });
    });

    it('users created and deleted, and a profile change without the password or its hash', async () => {
      const admin = await t.account('admin');
      const email = `rep.${tag()}@example.com`;
      const added = await t.call('POST', '/api/users/add', {
        token: admin.token,
        body: { name: 'Rita Rep', email, password: 'a secret password', address: '', role: 'salesRep' },
      });
      expect(added.status).toBe(201);
      const repId = parsed(added, UserResponse).user._id;
      expect((await t.call('DELETE', `/api/users/${repId}`, { token: admin.token })).status).toBe(200);
      const [deleted, created] = await entriesBy(admin);
      expect(created).toMatchObject({
        action: 'created',
        entity: { type: 'user', _id: repId, name: 'Rita Rep' },
      });
      expect(created?.changes).toEqual([
        { field: 'name', new: 'Rita Rep' },
        { field: 'email', new: email },
        { field: 'role', new: 'salesRep' },
      ]);
      expect(deleted).toMatchObject({ action: 'deleted', entity: { type: 'user', _id: repId } });
      expect(deleted?.changes).toContainEqual({ field: 'role', old: 'salesRep' });

      const me = await t.account('user');
      const newPassword = 'my brand new password';
      const res = await t.call('PUT', `/api/users/${me.id}`, {
        token: me.token,
        body: {
          name: 'Renamed Person',
          email: me.email,
          address: 'Elm Row 4',
          password: newPassword,
          currentPassword: PASSWORD,
        },
      });
      expect(res.status, res.text).toBe(200);
      const [profile] = await entriesBy(me);
      expect(profile).toMatchObject({
        // Who acted, as they were when they did: the new name is the entity's.
        actor: actorOf(me),
        action: 'updated',
        entity: { type: 'user', _id: me.id, name: 'Renamed Person' },
      });
      expect(profile?.changes).toEqual([
        { field: 'name', old: me.name, new: 'Renamed Person' },
        { field: 'address', old: `${me.name} street 1`, new: 'Elm Row 4' },
        { field: 'password' },
      ]);
      const stored = await t.sql<{ row: string }>(
        'select a::text as row from audit_log a where entity_id = $1',
        [me.id],
      );
      expect(stored.length).toBeGreaterThan(0);
      for (const { row } of stored) {
        expect(row).not.toContain(newPassword);
        expect(row).not.toContain(PASSWORD);
        expect(row).not.toContain('$argon2');
      }
    });

    it("a deleted user's entries keep their name and role and can still be filtered by their id", async () => {
      const boss = await t.account('superAdmin');
      const gone = await t.account('admin', `Gone Admin ${tag()}`);
      const added = await t.call('POST', '/api/category/add', {
        token: gone.token,
        body: { formCategory: `Left behind ${tag()}` },
      });
      expect(added.status).toBe(201);
      expect((await t.call('DELETE', `/api/users/${gone.id}`, { token: boss.token })).status).toBe(200);
      const [entry] = await entriesBy(gone);
      expect(entry?.actor).toEqual({ _id: gone.id, name: gone.name, role: 'admin' });
      const actors = await t.call('GET', '/api/audit/actors', { token: t.as.admin.token });
      expect(actors.status).toBe(200);
      expect(parsed(actors, AuditActorsResponse).actors).toContainEqual({
        _id: gone.id,
        name: gone.name,
        role: 'admin',
      });
    });
  });

  describe('each entry is written in the transaction of its change', () => {
    it('an entry written in a transaction that rolls back is gone with it', async () => {
      const admin = await t.account('admin');
      await expect(
        t.app.db.transaction(async (tx) => {
          await recordAudit(tx, {
            actor: { id: admin.id, name: admin.name, role: admin.role },
            action: 'created',
            entity: { type: 'category', id: randomUUID(), name: 'Never happened' },
          });
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(await entriesBy(admin)).toEqual([]);
    });

    it('racing creations of one name leave one category and one entry', async () => {
      const admin = await t.account('admin');
      const name = `Raced ${tag()}`;
      const answers = await Promise.all(
        [name, name.toUpperCase(), name].map((formCategory) =>
          t.call('POST', '/api/category/add', { token: admin.token, body: { formCategory } }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
      const entries = await entriesBy(admin);
      expect(entries.map((e) => [e.action, e.entity._id])).toEqual([
        ['created', parsed(nth(answers.filter((a) => a.status === 201)), CategoryResponse).category._id],
      ]);
    });

    it('a change whose entry cannot be written does not happen', async () => {
      const admin = await t.account('admin');
      const refused = `Refused ${tag()}`;
      // Stands in for any failure of the entry's insert: the database refuses this one entry.
      await t.sql(
        `alter table audit_log add constraint audit_test_refuse check (entity_name not like 'Refused %')`,
      );
      try {
        const added = await t.call('POST', '/api/category/add', {
          token: admin.token,
          body: { formCategory: refused },
        });
        expect(added.status).toBe(400);
        expect(await t.sql('select 1 from categories where name = $1', [refused])).toHaveLength(0);

        const product = await t.product({ name: `Kept ${tag()}`, price: 2 });
        const [before] = await t.sql<{ name: string }>('select name from products where id = $1', [
          product.id,
        ]);
        const put = await t.call('PUT', `/api/products/${product.id}`, {
          token: admin.token,
          body: {
            name: refused,
            description: '',
            price: 5,
            stock: 1,
            category: product.categoryId,
            supplier: product.supplierId,
          },
        });
        expect(put.status).toBe(400);
        const [after] = await t.sql<{ name: string; price: string }>(
          'select name, price::text as price from products where id = $1',
          [product.id],
        );
        expect(after).toEqual({ name: before?.name, price: '2.00' });
      } finally {
        await t.sql('alter table audit_log drop constraint audit_test_refuse');
      }
      expect(await entriesBy(admin)).toEqual([]);
    });
  });

  describe('entries are never changed or removed', () => {
    it.each([
      ['UPDATE', "update audit_log set entity_name = 'rewritten'"],
      ['UPDATE of no row', "update audit_log set entity_name = 'x' where false"],
      ['DELETE', 'delete from audit_log'],
      ['TRUNCATE', 'truncate audit_log'],
    ])('the database refuses %s', async (_label, statement) => {
      const admin = await t.account('admin');
      await t.call('POST', '/api/category/add', {
        token: admin.token,
        body: { formCategory: `Kept forever ${tag()}` },
      });
      const before = await t.sql<{ n: number }>('select count(*)::int as n from audit_log');
      await expect(t.sql(statement)).rejects.toThrow(/append-only/);
      expect(await t.sql<{ n: number }>('select count(*)::int as n from audit_log')).toEqual(before);
      const [entry] = await entriesBy(admin);
      expect(entry?.entity.name).toMatch(/^Kept forever /);
    });

    it('no route changes or deletes an entry', async () => {
      const doc = (await t.call('GET', '/api/docs/json')).body as { paths: Record<string, object> };
      const calls = Object.entries(doc.paths)
        .filter(([path]) => path.startsWith('/api/audit'))
        .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
      expect(calls.sort()).toEqual(['get /api/audit', 'get /api/audit/actors']);
    });
  });

  describe('sign-ins', () => {
    const login = (email: string, password: string, remoteAddress = '203.0.113.7') =>
      t.call('POST', '/api/auth/login', { body: { email, password }, remoteAddress });

    it('a success and a wrong password are recorded against the account, with the address', async () => {
      const rep = await t.account('salesRep');
      expect((await login(rep.email, 'wrong password')).status).toBe(401);
      expect((await login(rep.email.toUpperCase(), PASSWORD)).status).toBe(200);
      const [succeeded, failed] = await entriesBy(rep);
      expect(succeeded).toMatchObject({
        actor: actorOf(rep),
        action: 'signedIn',
        entity: { type: 'user', _id: rep.id, name: rep.email },
        address: '203.0.113.7',
      });
      expect(succeeded?.changes).toBeUndefined();
      expect(failed).toMatchObject({
        actor: actorOf(rep),
        action: 'signInFailed',
        entity: { type: 'user', _id: rep.id, name: rep.email },
      });
    });

    it('a failure with an email that names no account has no actor and keeps only a masked form of it', async () => {
      const secret = `zq${tag()}`;
      const email = `${secret}@${secret}.org`;
      expect((await login(email, 'whatever')).status).toBe(401);
      expect(await t.sql('select 1 from audit_log a where a::text like $1', [`%${secret}%`])).toHaveLength(0);
      const { entries } = await audit({ action: 'signInFailed', pageSize: 1 });
      expect(entries[0]).toMatchObject({
        actor: null,
        entity: { type: 'user', _id: null, name: 'z***@***.org' },
      });
    });

    it('text with an @ that is not an email (a password typed in the wrong box) is not kept', async () => {
      const typed = `P@ss ${tag()}`;
      expect((await login(typed, 'whatever')).status).toBe(401);
      const rows = await t.sql('select 1 from audit_log a where a::text like $1', [`%${typed.slice(5)}%`]);
      expect(rows).toHaveLength(0);
      const { entries } = await audit({ action: 'signInFailed', pageSize: 1 });
      expect(entries[0]?.entity.name).toBe('(not an email address)');
    });

    it('an attempt refused by the throttle is recorded as such', async () => {
      const strict = await startApp(target, { throttle: { perPair: 1, perEmail: 100, perAddress: 100 } });
      try {
        const rep = await strict.account('medicalRep');
        const attempt = () =>
          strict.call('POST', '/api/auth/login', { body: { email: rep.email, password: 'nope nope' } });
        expect((await attempt()).status).toBe(401);
        expect((await attempt()).status).toBe(429);
        const res = await strict.call('GET', `/api/audit?actor=${rep.id}`, { token: strict.as.admin.token });
        expect(parsed(res, AuditListResponse).entries.map((e: Entry) => e.action)).toEqual([
          'signInThrottled',
          'signInFailed',
        ]);
        expect(nth(parsed(res, AuditListResponse).entries).entity).toEqual({
          type: 'user',
          _id: rep.id,
          name: rep.email,
        });
        expect(nth(parsed(res, AuditListResponse).entries).changes).toEqual([
          { field: 'limit', new: 'pair' },
        ]);
      } finally {
        await strict.close();
      }
    });

    it('a stranger hammering the sign-in writes one throttled entry per refusing counter and window, not one per attempt', async () => {
      const strict = await startApp(target, { throttle: { perPair: 1, perEmail: 100, perAddress: 3 } });
      try {
        const rep = await strict.account('user');
        const count = async (action: string) =>
          (
            await strict.sql<{ n: number }>('select count(*)::int as n from audit_log where action = $1', [
              action,
            ])
          )[0]?.n;
        const from = (address: string, email = rep.email) =>
          strict.call('POST', '/api/auth/login', {
            body: { email, password: 'nope nope' },
            remoteAddress: address,
          });
        expect((await from('198.51.100.1')).status).toBe(401);
        for (let i = 0; i < 60; i++) expect((await from('198.51.100.1')).status).toBe(429);
        expect(await count('signInThrottled')).toBe(1);
        // Another address spending its own allowance is another counter: one entry more.
        expect((await from('198.51.100.2', 'a@example.com')).status).toBe(401);
        expect((await from('198.51.100.2', 'b@example.com')).status).toBe(401);
        expect((await from('198.51.100.2', 'c@example.com')).status).toBe(401);
        for (let i = 0; i < 40; i++)
          expect((await from('198.51.100.2', `n${i}@example.com`)).status).toBe(429);
        expect(await count('signInThrottled')).toBe(2);
        expect(await count('signInFailed')).toBe(4);
      } finally {
        await strict.close();
      }
    });
  });

  describe('GET /api/audit', () => {
    /** Entries written straight into the table, for one fresh actor, at the given times. */
    async function seeded(times: string[], action = 'updated', entity = 'product') {
      const actor = { id: randomUUID(), name: `Seeded ${tag()}`, role: 'admin' as const };
      for (const [index, at] of times.entries()) {
        await t.sql(
          `insert into audit_log (at, actor_id, actor_name, actor_role, action, entity_type, entity_id, entity_name)
           values ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [at, actor.id, actor.name, actor.role, action, entity, randomUUID(), `Item ${index}`],
        );
      }
      return actor;
    }

    it('answers exactly the contract, newest first, a page at a time with the total', async () => {
      const times = Array.from({ length: 5 }, (_, i) => new Date(Date.UTC(2024, 0, 1, 12, i)).toISOString());
      const actor = await seeded(times);
      const res = await t.call('GET', `/api/audit?actor=${actor.id}&page=2&pageSize=2`, {
        token: t.as.admin.token,
      });
      expect(res.status).toBe(200);
      expect(Object.keys(parsed(res, AuditListResponse)).sort()).toEqual([
        'entries',
        'page',
        'pageSize',
        'success',
        'total',
      ]);
      expect(res.body).toMatchObject({ success: true, total: 5, page: 2, pageSize: 2 });
      expect(parsed(res, AuditListResponse).entries.map((e: Entry) => e.entity.name)).toEqual([
        'Item 2',
        'Item 1',
      ]);
      expect(Object.keys(nth(parsed(res, AuditListResponse).entries)).sort()).toEqual([
        '_id',
        'action',
        'actor',
        'at',
        'entity',
      ]);
      expect(nth(parsed(res, AuditListResponse).entries).at).toBe(times[2]);
      const fallback = await t.call('GET', `/api/audit?actor=${actor.id}`, { token: t.as.admin.token });
      expect(fallback.body).toMatchObject({ total: 5, page: 1, pageSize: 20 });
      expect(parsed(fallback, AuditListResponse).entries).toHaveLength(5);
    });

    it('filters by action and entity type', async () => {
      const at = '2024-02-01T10:00:00Z';
      const actor = await seeded([at, at], 'created', 'supplier');
      await t.sql(
        `insert into audit_log (at, actor_id, actor_name, actor_role, action, entity_type, entity_id, entity_name)
         values ($1, $2, $3, 'admin', 'deleted', 'category', $4, 'Other')`,
        [at, actor.id, actor.name, randomUUID()],
      );
      expect((await audit({ actor: actor.id })).total).toBe(3);
      expect((await audit({ actor: actor.id, entity: 'supplier' })).total).toBe(2);
      expect((await audit({ actor: actor.id, action: 'deleted' })).entries.map((e) => e.entity.name)).toEqual(
        ['Other'],
      );
      expect((await audit({ actor: actor.id, action: 'deleted', entity: 'supplier' })).total).toBe(0);
    });

    it('from and to are whole days in the server time zone, both included', async () => {
      const times = [
        '2024-03-09T23:59:59.999Z',
        '2024-03-10T00:00:00.000Z',
        '2024-03-10T23:59:59.999Z',
        '2024-03-11T00:00:00.000Z',
      ];
      const actor = await seeded(times);
      const day = await audit({ actor: actor.id, from: '2024-03-10', to: '2024-03-10' });
      expect(day.entries.map((e) => e.at)).toEqual([times[2], times[1]]);
      expect((await audit({ actor: actor.id, from: '2024-03-10' })).total).toBe(3);
      expect((await audit({ actor: actor.id, to: '2024-03-10' })).total).toBe(3);

      // UTC+14: the local 10 March runs from 9 March 10:00 to 10 March 10:00 UTC.
      const east = await startApp(target, { config: { timeZone: 'Pacific/Kiritimati' } });
      try {
        for (const at of [
          '2024-03-09T09:59:59Z',
          '2024-03-09T10:00:00Z',
          '2024-03-10T09:59:59Z',
          '2024-03-10T10:00:00Z',
        ])
          await east.sql(
            `insert into audit_log (at, actor_id, actor_name, actor_role, action, entity_type, entity_id, entity_name)
             values ($1, $2, 'East', 'admin', 'created', 'product', $3, 'East item')`,
            [at, actor.id, randomUUID()],
          );
        const res = await east.call('GET', `/api/audit?actor=${actor.id}&from=2024-03-10&to=2024-03-10`, {
          token: east.as.admin.token,
        });
        expect(parsed(res, AuditListResponse).entries.map((e: Entry) => e.at)).toEqual([
          '2024-03-10T09:59:59.000Z',
          '2024-03-09T10:00:00.000Z',
        ]);
      } finally {
        await east.close();
      }
    });

    it('an actor id that is no user matches nothing', async () => {
      for (const actor of ['nope', randomUUID()]) {
        const page = await audit({ actor });
        expect(page.entries).toEqual([]);
        expect(page.total).toBe(0);
      }
    });

    it.each([
      ['from after to', 'from=2024-03-11&to=2024-03-10', 'The from date must be on or before the to date.'],
      ['a date that does not exist', 'from=2024-02-30', 'That date does not exist.'],
      ['a date in another form', 'to=10/03/2024', 'Dates look like 2025-01-31.'],
      ['an unknown action', 'action=hacked', 'action must be one of'],
      ['an unknown entity', 'entity=orders', 'entity must be one of'],
      ['a page size over 100', 'pageSize=101', 'pageSize must be at most 100.'],
      ['page 0', 'page=0', 'page starts at 1.'],
    ])('refuses %s with 400', async (_label, query, sentence) => {
      const res = await t.call('GET', `/api/audit?${query}`, { token: t.as.admin.token });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: expect.stringContaining(sentence) });
    });

    it('GET /api/audit/actors lists each actor once with their latest name, by name', async () => {
      const actor = await seeded(['2024-04-01T00:00:00Z', '2024-04-02T00:00:00Z']);
      await t.sql(
        `insert into audit_log (at, actor_id, actor_name, actor_role, action, entity_type, entity_id, entity_name)
         values ('2024-04-03T00:00:00Z', $1, 'Aaron Renamed', 'superAdmin', 'created', 'product', $2, 'x')`,
        [actor.id, randomUUID()],
      );
      const res = await t.call('GET', '/api/audit/actors', { token: t.as.superAdmin.token });
      expect(res.status).toBe(200);
      const mine = parsed(res, AuditActorsResponse).actors.filter((a: { _id: string }) => a._id === actor.id);
      expect(mine).toEqual([{ _id: actor.id, name: 'Aaron Renamed', role: 'superAdmin' }]);
      const zed = await seeded(['2024-04-01T00:00:00Z']);
      await t.sql(
        `insert into audit_log (actor_id, actor_name, actor_role, action, entity_type, entity_name)
         values ($1, 'zz last', 'admin', 'created', 'product', 'y')`,
        [zed.id],
      );
      const ids = parsed(
        await t.call('GET', '/api/audit/actors', { token: t.as.admin.token }),
        AuditActorsResponse,
      ).actors.map((a: { _id: string }) => a._id);
      expect(ids.indexOf(actor.id)).toBeLessThan(ids.indexOf(zed.id));
    });
  });
});
