import { describe, expect, it, vi } from 'vitest';
import { ROLES } from '../../shared/roles';
import { User } from '../../shared/users';
import { storedUser } from './session';

/** A fresh copy of the module, as after a page reload. */
async function reload() {
  vi.resetModules();
  return import('./session');
}

const user = { _id: 'u1', name: 'Ann', email: 'ann@example.com', address: '', role: 'admin' as const };

describe('session storage', () => {
  it('restores the token and user stored before a reload', async () => {
    localStorage.setItem('ims_token', 'abc');
    localStorage.setItem('ims_user', JSON.stringify(user));
    const session = await reload();
    expect(session.getSession()).toEqual({
      token: 'abc',
      user: { ...user, active: true, mustChangePassword: false, location: null },
    });
    localStorage.clear();
  });

  it('treats a malformed stored user as signed out', async () => {
    localStorage.setItem('ims_token', 'abc');
    localStorage.setItem('ims_user', '{"role":"pirate"}');
    const session = await reload();
    expect(session.getSession()).toBeNull();
    localStorage.clear();
  });

  it('writes both keys on login and removes both on logout', async () => {
    const session = await reload();
    session.setSession({
      token: 'tok',
      user: { ...user, role: 'salesRep', active: true, mustChangePassword: false, location: null },
    });
    expect(localStorage.getItem('ims_token')).toBe('tok');
    expect(JSON.parse(localStorage.getItem('ims_user') ?? '{}').role).toBe('salesRep');
    session.clearSession();
    expect(localStorage.getItem('ims_token')).toBeNull();
    expect(localStorage.getItem('ims_user')).toBeNull();
    expect(session.getSession()).toBeNull();
  });
});

describe('storedUser', () => {
  const STORED: unknown[] = [
    user,
    ...ROLES.map((role) => ({ ...user, role })),
    { ...user, extra: 'dropped', token: 'not kept' },
    { ...user, active: false, mustChangePassword: true },
    { ...user, active: 'no' },
    { ...user, mustChangePassword: 1 },
    { ...user, role: 'pirate' },
    { ...user, role: 'toString' },
    { ...user, role: undefined },
    { ...user, name: 5 },
    { ...user, address: null },
    { _id: 'u1', name: 'Ann', email: 'ann@example.com', role: 'admin' },
    [],
    'admin',
    null,
    42,
  ];

  it.each(STORED)('keeps what the shared User schema keeps, and refuses what it refuses: %j', (value) => {
    const parsed = User.safeParse(value);
    expect(storedUser(value)).toEqual(parsed.success ? parsed.data : null);
  });
});
