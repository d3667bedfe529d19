import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getSession } from '../../lib/session';
import { SignedInContext } from '../../lib/signed-in';
import { mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { ProfilePage } from './profile-page';
import { profileUpdateBody } from './profile-rules';

const me = userOf('salesRep', {
  _id: 'u1',
  name: 'Sam Seller',
  email: 'sam@example.com',
  address: 'Old Road 1',
});

function renderProfile(put: Parameters<typeof mockFetch>[0][string]) {
  signIn(me, 'old-token');
  const mock = mockFetch({
    'GET /api/users/u1': () => ({ body: { success: true, user: me } }),
    'PUT /api/users/u1': put,
  });
  renderWithClient(
    <SignedInContext value={me}>
      <ProfilePage />
    </SignedInContext>,
  );
  return mock;
}

function field(name: string) {
  return screen.getByLabelText(name) as HTMLInputElement;
}

describe('profile password rule', () => {
  it('leaves an empty password out of the update', () => {
    expect(profileUpdateBody({ name: 'A', email: 'a@example.com', address: '', password: '' })).toEqual({
      name: 'A',
      email: 'a@example.com',
      address: '',
    });
    expect('password' in profileUpdateBody({ name: 'A', email: 'a@example.com', address: '' })).toBe(false);
  });

  it('sends a typed password', () => {
    expect(
      profileUpdateBody({ name: 'A', email: 'a@example.com', address: '', password: 'new-pass-1' }),
    ).toEqual({
      name: 'A',
      email: 'a@example.com',
      address: '',
      password: 'new-pass-1',
    });
  });
});

describe('Profile screen', () => {
  it('is read-only until Edit Profile, then offers an optional password', async () => {
    renderProfile(() => ({ body: { success: true, user: me } }));
    await waitFor(() => expect(field('Name').value).toBe('Sam Seller'));
    expect(field('Name').readOnly).toBe(true);
    expect(field('Email').readOnly).toBe(true);
    expect(field('Address').readOnly).toBe(true);
    expect(screen.queryByLabelText('Password')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    expect(field('Name').readOnly).toBe(false);
    expect(field('Password').placeholder).toBe('Enter new password (optional)');
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('saves without a password when the field is empty, and keeps the token', async () => {
    const renamed = { ...me, name: 'Sam S.' };
    const { calls } = renderProfile(() => ({ body: { success: true, user: renamed } }));
    await waitFor(() => expect(field('Name').value).toBe('Sam Seller'));
    await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await userEvent.clear(field('Name'));
    await userEvent.type(field('Name'), 'Sam S.');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

    await screen.findByRole('button', { name: 'Edit Profile' });
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({ name: 'Sam S.', email: 'sam@example.com', address: 'Old Road 1' });
    expect(localStorage.getItem('ims_token')).toBe('old-token');
    expect(getSession()?.user.name).toBe('Sam S.');
    expect(field('Name').readOnly).toBe(true);
  });

  it('sends a new password and stores the fresh token from the answer', async () => {
    const { calls } = renderProfile(() => ({ body: { success: true, user: me, token: 'fresh-token' } }));
    await waitFor(() => expect(field('Name').value).toBe('Sam Seller'));
    await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await userEvent.type(field('Password'), 'new-secret-9');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

    await screen.findByRole('button', { name: 'Edit Profile' });
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({
      ...{ name: 'Sam Seller', email: 'sam@example.com', address: 'Old Road 1' },
      password: 'new-secret-9',
    });
    expect(put?.headers.Authorization).toBe('Bearer old-token');
    expect(localStorage.getItem('ims_token')).toBe('fresh-token');
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('refuses a password shorter than 8 characters next to the field', async () => {
    const { calls } = renderProfile(() => ({ body: { success: true, user: me } }));
    await waitFor(() => expect(field('Name').value).toBe('Sam Seller'));
    await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await userEvent.type(field('Password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Password must be at least 8 characters.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it("shows 'Failed to update user information' with the server's sentence", async () => {
    renderProfile(() => ({ status: 409, body: { success: false, error: 'That email is already in use.' } }));
    await waitFor(() => expect(field('Name').value).toBe('Sam Seller'));
    await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to update user information');
    expect(alert.textContent).toContain('That email is already in use.');
    expect(field('Name').readOnly).toBe(false);
  });
});
