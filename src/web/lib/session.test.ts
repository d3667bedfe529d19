import { describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module, as after a page reload. */
async function reload() {
  vi.resetModules();
  return import('./session');
}

const user = { _id: 'u1', name: 'Ann', email: 'ann@example.com', address: '', role: 'admin' };

describe('session storage', () => {
  it('restores the token and user stored before a reload', async () => {
    localStorage.setItem('ims_token', 'abc');
    localStorage.setItem('ims_user', JSON.stringify(user));
    const session = await reload();
    expect(session.getSession()).toEqual({ token: 'abc', user });
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
    session.setSession({ token: 'tok', user: { ...user, role: 'salesRep' } });
    expect(localStorage.getItem('ims_token')).toBe('tok');
    expect(JSON.parse(localStorage.getItem('ims_user') ?? '{}').role).toBe('salesRep');
    session.clearSession();
    expect(localStorage.getItem('ims_token')).toBeNull();
    expect(localStorage.getItem('ims_user')).toBeNull();
    expect(session.getSession()).toBeNull();
  });
});
