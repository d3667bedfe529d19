import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../../app/routes';
import { getSession } from '../../lib/session';
import { SignedInContext } from '../../lib/signed-in';
import { type FetchCall, mockFetch, renderWithClient, signIn, userOf } from '../../test/helpers';
import { ProfilePage } from './profile-page';
import { CURRENT_PASSWORD_NEEDED, needsCurrentPassword, profileUpdateBody } from './profile-rules';

const me = userOf('salesRep', {
  _id: 'u1',
  name: 'Sam Seller',
  email: 'sam@example.com',
  address: 'Old Road 1',
});

type Handler = Parameters<typeof mockFetch>[0][string];

function renderProfile(put: Handler) {
  signIn(me, 'old-token');
  const mock = mockFetch({
    'GET /api/users/u1': () => ({ body: { success: true, user: me } }),
    'PUT /api/users/u1': put,
  });
  renderWithClient(
    <MemoryRouter>
      <SignedInContext value={me}>
        <ProfilePage />
      </SignedInContext>
    </MemoryRouter>,
  );
  return mock;
}

/** The profile inside the whole app, where signing out leads on to other pages. */
function renderProfileInApp(logout: Handler) {
  signIn(me, 'old-token');
  const mock = mockFetch({
    'GET /api/users/u1': () => ({ body: { success: true, user: me } }),
    'POST /api/auth/logout': logout,
  });
  // The router is made with the test's query client, which renderWithClient creates.
  let router!: ReturnType<typeof createMemoryRouter>;
  renderWithClient((client) => {
    router = createMemoryRouter(appRoutes(client), { initialEntries: ['/salesRep-dashboard/profile'] });
    return <RouterProvider router={router} />;
  });
  return { ...mock, router };
}

function field(name: string) {
  return screen.getByLabelText(name) as HTMLInputElement;
}

async function startEditing() {
  await waitFor(() => expect(field('Name').value).toBe('Sam Seller'));
  await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
}

const puts = (calls: FetchCall[]) => calls.filter((call) => call.method === 'PUT');

describe('profile password rule', () => {
  it('leaves an empty password out of the update', () => {
    expect(profileUpdateBody({ name: 'A', email: 'a@example.com', address: '', password: '' })).toEqual({
      name: 'A',
      email: 'a@example.com',
      address: '',
    });
    expect('password' in profileUpdateBody({ name: 'A', email: 'a@example.com', address: '' })).toBe(false);
  });

  it('sends a typed current password, and leaves an empty one out', () => {
    const form = { name: 'A', email: 'a@example.com', address: '' };
    expect(profileUpdateBody({ ...form, password: 'new-pass-1', currentPassword: 'old-pass-1' })).toEqual({
      ...form,
      password: 'new-pass-1',
      currentPassword: 'old-pass-1',
    });
    expect('currentPassword' in profileUpdateBody({ ...form, currentPassword: '' })).toBe(false);
  });

  it('needs the current password for a new password or another email, not for the same email typed differently', () => {
    const stored = 'sam@example.com';
    expect(needsCurrentPassword({ email: stored, password: '' }, stored)).toBe(false);
    expect(needsCurrentPassword({ email: stored }, stored)).toBe(false);
    expect(needsCurrentPassword({ email: '  SAM@Example.com ', password: '' }, stored)).toBe(false);
    expect(needsCurrentPassword({ email: stored, password: 'new-pass-1' }, stored)).toBe(true);
    expect(needsCurrentPassword({ email: 'sam@example.org', password: '' }, stored)).toBe(true);
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
    expect(screen.queryByLabelText('Current password')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    expect(field('Name').readOnly).toBe(false);
    expect(field('Password').placeholder).toBe('Enter new password (optional)');
    expect(field('Current password').type).toBe('password');
    expect(field('Current password').autocomplete).toBe('current-password');
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

  it('sends a new password with the current one and stores the fresh token from the answer', async () => {
    const { calls } = renderProfile(() => ({ body: { success: true, user: me, token: 'fresh-token' } }));
    await startEditing();
    await userEvent.type(field('Password'), 'new-secret-9');
    await userEvent.type(field('Current password'), 'old-secret-1');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

    await screen.findByRole('button', { name: 'Edit Profile' });
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({
      ...{ name: 'Sam Seller', email: 'sam@example.com', address: 'Old Road 1' },
      password: 'new-secret-9',
      currentPassword: 'old-secret-1',
    });
    expect(put?.headers.Authorization).toBe('Bearer old-token');
    expect(localStorage.getItem('ims_token')).toBe('fresh-token');
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.queryByLabelText('Current password')).toBeNull();
    // Both password fields are empty when the form opens again.
    await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    expect(field('Password').value).toBe('');
    expect(field('Current password').value).toBe('');
  });

  it('asks for the current password next to its field before sending a new password', async () => {
    const { calls } = renderProfile(() => ({ body: { success: true, user: me } }));
    await startEditing();
    await userEvent.type(field('Password'), 'new-secret-9');
    expect(field('Current password').getAttribute('aria-required')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(CURRENT_PASSWORD_NEEDED)).toBeTruthy();
    expect(field('Current password').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(field('Current password'));
    expect(puts(calls)).toHaveLength(0);
  });

  it('asks for the current password before changing the email, and sends it with the new email', async () => {
    const changed = { ...me, email: 'sam@example.org' };
    const { calls } = renderProfile(() => ({ body: { success: true, user: changed } }));
    await startEditing();
    expect(field('Current password').getAttribute('aria-required')).toBe('false');
    await userEvent.clear(field('Email'));
    await userEvent.type(field('Email'), 'Sam@Example.org');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(CURRENT_PASSWORD_NEEDED)).toBeTruthy();
    expect(puts(calls)).toHaveLength(0);

    await userEvent.type(field('Current password'), 'old-secret-1');
    expect(screen.queryByText(CURRENT_PASSWORD_NEEDED)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByRole('button', { name: 'Edit Profile' });
    expect(puts(calls).map((call) => call.body)).toEqual([
      {
        name: 'Sam Seller',
        email: 'sam@example.org',
        address: 'Old Road 1',
        currentPassword: 'old-secret-1',
      },
    ]);
    expect(field('Email').value).toBe('sam@example.org');
    expect(getSession()?.user.email).toBe('sam@example.org');
  });

  it('does not ask for the current password when the email only differs in case or spaces', async () => {
    const { calls } = renderProfile(() => ({ body: { success: true, user: me } }));
    await startEditing();
    await userEvent.clear(field('Email'));
    await userEvent.type(field('Email'), ' SAM@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByRole('button', { name: 'Edit Profile' });
    expect(puts(calls).map((call) => call.body)).toEqual([
      { name: 'Sam Seller', email: 'sam@example.com', address: 'Old Road 1' },
    ]);
  });

  it.each([
    [403, 'Your current password is wrong.', 'WRONG_PASSWORD'],
    [400, 'Enter your current password to change your password or email.', 'BAD_REQUEST'],
  ])(
    "shows the server's %i '%s' in the form's alert and keeps the form open",
    async (status, error, code) => {
      const { calls } = renderProfile(() => ({ status, body: { success: false, error, code } }));
      await startEditing();
      await userEvent.type(field('Password'), 'new-secret-9');
      await userEvent.type(field('Current password'), 'a-wrong-guess');
      await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain('Failed to update user information');
      expect(alert.textContent).toContain(error);
      expect(puts(calls)).toHaveLength(1);
      expect(field('Name').readOnly).toBe(false);
      expect(field('Password').value).toBe('new-secret-9');
      expect(localStorage.getItem('ims_token')).toBe('old-token');
      if (status === 403) expect(document.activeElement).toBe(field('Current password'));
    },
  );

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

describe('Sign out everywhere', () => {
  it('asks first; Cancel signs nobody out', async () => {
    const { calls, router } = renderProfileInApp(() => ({ body: { success: true, message: 'x' } }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Sign out everywhere?' });
    expect(dialog.textContent).toContain('this one included');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.filter((call) => call.path === '/api/auth/logout')).toHaveLength(0);
    expect(getSession()).not.toBeNull();
    expect(router.state.location.pathname).toBe('/salesRep-dashboard/profile');
  });

  it('revokes every session on the server, then ends this one and opens the login page with a status', async () => {
    let answer: (reply: { body: unknown }) => void = () => {};
    const { calls, router } = renderProfileInApp(() => new Promise((resolve) => (answer = resolve)));
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const dialog = screen.getByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    expect(
      (within(dialog).getByRole('button', { name: 'Signing out...' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    // Still signed in while the server works.
    expect(getSession()).not.toBeNull();
    answer({ body: { success: true, message: 'Signed out on every device.' } });

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getSession()).toBeNull();
    expect(localStorage.getItem('ims_token')).toBeNull();
    expect((await screen.findByRole('status')).textContent).toBe('Signed out on every device.');
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy();
    const logouts = calls.filter((call) => call.path === '/api/auth/logout');
    expect(logouts).toHaveLength(1);
    expect(logouts[0]?.method).toBe('POST');
    expect(logouts[0]?.body).toEqual({ everywhere: true });
    expect(logouts[0]?.headers.Authorization).toBe('Bearer old-token');
  });

  it('when the server cannot be reached, stays signed in and says the other sessions were not ended', async () => {
    const { router } = renderProfileInApp(() => ({ body: {} }));
    await screen.findByRole('button', { name: 'Sign out everywhere' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Sign out everywhere' }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not sign out everywhere');
    expect(alert.textContent).toContain('The server cannot be reached.');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(getSession()).not.toBeNull();
    expect(router.state.location.pathname).toBe('/salesRep-dashboard/profile');
  });
});

describe('the approval PIN (admins)', () => {
  const admin = userOf('admin', { _id: 'a1', name: 'Ada Admin', email: 'ada@example.com' });

  function renderAdminProfile(put: Handler) {
    signIn(admin, 'admin-token');
    const mock = mockFetch({
      'GET /api/users/a1': () => ({ body: { success: true, user: admin } }),
      'PUT /api/users/me/pin': put,
    });
    renderWithClient(
      <MemoryRouter>
        <SignedInContext value={admin}>
          <ProfilePage />
        </SignedInContext>
      </MemoryRouter>,
    );
    return mock;
  }

  const pinSection = () => screen.getByRole('region', { name: 'Approval PIN' });

  it('is not offered to the other roles', async () => {
    renderProfile(() => ({ body: { success: true } }));
    await waitFor(() => expect(field('Name').value).toBe('Sam Seller'));
    expect(screen.queryByRole('region', { name: 'Approval PIN' })).toBeNull();
    expect(screen.queryByLabelText('New PIN')).toBeNull();
  });

  it('sets the PIN with the current password, as numeric password fields, and empties the form', async () => {
    const { calls } = renderAdminProfile(() => ({ body: { success: true, message: 'PIN set.' } }));
    const section = pinSection();
    const pin = within(section).getByLabelText('New PIN') as HTMLInputElement;
    expect(pin.type).toBe('password');
    expect(pin.inputMode).toBe('numeric');
    await userEvent.type(pin, '482913');
    await userEvent.type(within(section).getByLabelText('Repeat the PIN'), '482913');
    await userEvent.type(within(section).getByLabelText('Your password, to confirm'), 'secret-pass-1');
    await userEvent.click(within(section).getByRole('button', { name: 'Set PIN' }));
    expect(await screen.findByText('Your approval PIN is set.')).toBeTruthy();
    expect(puts(calls)).toEqual([
      expect.objectContaining({
        path: '/api/users/me/pin',
        body: { pin: '482913', currentPassword: 'secret-pass-1' },
      }),
    ]);
    expect(pin.value).toBe('');
  });

  it('says what is wrong before sending: not 4–8 digits, two different PINs, no current password', async () => {
    const { calls } = renderAdminProfile(() => ({ body: { success: true } }));
    const section = pinSection();
    const pin = within(section).getByLabelText('New PIN');
    await userEvent.type(pin, '12a4');
    await userEvent.click(within(section).getByRole('button', { name: 'Set PIN' }));
    expect(within(section).getByText('A PIN is 4 to 8 digits.')).toBeTruthy();
    expect(within(section).getByText('Enter your current password to set a PIN.')).toBeTruthy();
    expect(document.activeElement).toBe(pin);
    await userEvent.clear(pin);
    await userEvent.type(pin, '123');
    await userEvent.click(within(section).getByRole('button', { name: 'Set PIN' }));
    expect(within(section).getByText('A PIN is 4 to 8 digits.')).toBeTruthy();
    await userEvent.clear(pin);
    await userEvent.type(pin, '1234');
    await userEvent.type(within(section).getByLabelText('Repeat the PIN'), '1243');
    await userEvent.type(within(section).getByLabelText('Your password, to confirm'), 'pw');
    await userEvent.click(within(section).getByRole('button', { name: 'Set PIN' }));
    expect(within(section).getByText('The two PINs differ: type the same PIN twice.')).toBeTruthy();
    expect(puts(calls)).toEqual([]);
  });

  it("shows the server's refusal of a wrong current password and keeps the PIN typed", async () => {
    renderAdminProfile(() => ({
      status: 403,
      body: { success: false, error: 'Your current password is wrong.', code: 'WRONG_PASSWORD' },
    }));
    const section = pinSection();
    await userEvent.type(within(section).getByLabelText('New PIN'), '2468');
    await userEvent.type(within(section).getByLabelText('Repeat the PIN'), '2468');
    await userEvent.type(within(section).getByLabelText('Your password, to confirm'), 'not-it');
    await userEvent.click(within(section).getByRole('button', { name: 'Set PIN' }));
    const alert = await within(section).findByRole('alert');
    expect(alert.textContent).toBe('The PIN was not setYour current password is wrong.');
    expect((within(section).getByLabelText('New PIN') as HTMLInputElement).value).toBe('2468');
  });
});
