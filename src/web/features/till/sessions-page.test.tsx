import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Register, SessionSummary } from '../../../shared/till';
import { listCalls, userOf } from '../../test/helpers';
import type { Handler } from '../sales/sales-test-data';
import { callsOf, openSession, renderTill, summary, TILL } from './till-test-data';

const ADMIN_PATH = '/admin-dashboard/till/sessions';
const spare: Register = {
  _id: 'register2',
  name: 'Till 2',
  active: false,
  location: { _id: 'main', name: 'Main store' },
};

const sessions: SessionSummary[] = [
  summary({ _id: 'session13', number: 13 }),
  summary({
    ...openSession({
      _id: 'session12',
      number: 12,
      status: 'closed',
      closedAt: '2025-05-01T18:00:00.000Z',
      closedBy: { _id: 'salesRep-id', name: 'Test salesRep' },
      countedCash: 99.5,
    }),
    expectedCash: 100,
    difference: -0.5,
  }),
];

function server(rows: SessionSummary[] = sessions, extra: Record<string, Handler> = {}) {
  let registers = [TILL, spare];
  return {
    'GET /api/registers': () => ({ body: { success: true, registers } }),
    'GET /api/register-sessions': ({ query }) => ({
      body: {
        success: true,
        sessions: rows,
        total: query.page === '2' ? 51 : rows.length,
        page: Number(query.page),
        pageSize: 50,
      },
    }),
    'POST /api/registers': ({ body }) => {
      const made = {
        _id: 'register3',
        name: (body as { name: string }).name,
        active: true,
        location: { _id: 'main', name: 'Main store' },
      };
      registers = [...registers, made];
      return { status: 201, body: { success: true, register: made } };
    },
    'PUT /api/registers/*': ({ path, body }) => {
      const id = path.split('/').at(-1);
      registers = registers.map((one) => (one._id === id ? { ...one, ...(body as object) } : one));
      return { body: { success: true, register: registers.find((one) => one._id === id) } };
    },
    ...extra,
  } satisfies Record<string, Handler>;
}

const rows = () =>
  within(screen.getByRole('table', { name: 'Till sessions, newest first' }))
    .getAllByRole('row')
    .slice(1);

describe('the till sessions', () => {
  it('lists the sessions with their drawer and links each to its report', async () => {
    renderTill(ADMIN_PATH, server(), userOf('admin'));
    const link = await screen.findByRole('link', { name: 'Till 1 #12' });
    expect(link.getAttribute('href')).toBe('/admin-dashboard/till/sessions/session12');
    expect(rows()).toHaveLength(2);
    expect(rows()[0]?.textContent).toMatch(/Till 1 #13Open/);
    expect(rows()[1]?.textContent).toMatch(/\$100\.00.*\$99\.50.*Short by \$0\.50/);
  });

  it('puts the register, status and days chosen into the query, on page 1', async () => {
    const user = userEvent.setup();
    const { calls } = renderTill(`${ADMIN_PATH}?page=2`, server(), userOf('admin'));
    await screen.findByRole('link', { name: 'Till 1 #12' });
    expect(listCalls(calls, '/api/register-sessions')[0]?.query).toEqual({ page: '2', pageSize: '50' });
    await screen.findByRole('option', { name: 'Till 2 (inactive)' });
    await user.selectOptions(screen.getByLabelText('Register'), 'register2');
    await user.selectOptions(screen.getByLabelText('Status'), 'closed');
    await user.type(screen.getByLabelText('From'), '2025-05-01');
    await user.type(screen.getByLabelText('To'), '2025-05-31');
    await waitFor(() =>
      expect(listCalls(calls, '/api/register-sessions').at(-1)?.query).toEqual({
        register: 'register2',
        status: 'closed',
        from: '2025-05-01',
        to: '2025-05-31',
        page: '1',
        pageSize: '50',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() =>
      expect(listCalls(calls, '/api/register-sessions').at(-1)?.query).toEqual({ page: '1', pageSize: '50' }),
    );
  });

  it('sends nothing while the From day is after the To day', async () => {
    const { calls } = renderTill(`${ADMIN_PATH}?from=2025-06-01&to=2025-05-01`, server(), userOf('admin'));
    expect(await screen.findByText('Choose a From date on or before the To date.')).toBeTruthy();
    expect(listCalls(calls, '/api/register-sessions')).toHaveLength(0);
  });

  it('says when there are none, and when none match', async () => {
    const { unmount } = renderTill(ADMIN_PATH, server([]), userOf('admin'));
    expect(await screen.findByText('No till sessions yet.')).toBeTruthy();
    unmount();
    renderTill(`${ADMIN_PATH}?status=open`, server([]), userOf('admin'));
    expect(await screen.findByText('No till sessions match these filters.')).toBeTruthy();
  });

  it('shows a failure as a failure, not as an empty list, and says it is loading', async () => {
    const { unmount } = renderTill(
      ADMIN_PATH,
      server(sessions, {
        'GET /api/register-sessions': () => ({ status: 503, body: { success: false, error: 'Down.' } }),
      }),
      userOf('admin'),
    );
    expect(await screen.findByText('The till sessions could not be loaded: Down.')).toBeTruthy();
    expect(screen.queryByText('No till sessions yet.')).toBeNull();
    unmount();
    renderTill(
      ADMIN_PATH,
      server(sessions, { 'GET /api/register-sessions': () => new Promise(() => {}) }),
      userOf('admin'),
    );
    expect(screen.getByText('Loading till sessions...')).toBeTruthy();
  });

  it("shows a seller their own sessions under their area, without the registers' management", async () => {
    renderTill('/salesRep-dashboard/till/sessions', server());
    const link = await screen.findByRole('link', { name: 'Till 1 #12' });
    expect(link.getAttribute('href')).toBe('/salesRep-dashboard/till/sessions/session12');
    expect(screen.queryByRole('heading', { name: 'Registers' })).toBeNull();
  });
});

describe('the registers, for admins', () => {
  it('adds, renames, deactivates and activates a register', async () => {
    const user = userEvent.setup();
    const { calls } = renderTill(ADMIN_PATH, server(), userOf('admin'));
    const panel = (await screen.findByRole('heading', { name: 'Registers' })).closest(
      'section',
    ) as HTMLElement;
    await within(panel).findByText('Till 2');
    await user.click(within(panel).getByRole('button', { name: 'Add register' }));
    expect(within(panel).getByText('Give the register a name, like Till 2.')).toBeTruthy();
    expect(callsOf(calls, 'POST', '/api/registers')).toHaveLength(0);
    await user.type(within(panel).getByLabelText('New register'), '  Till 3 {Enter}');
    expect(await within(panel).findByText('Till 3')).toBeTruthy();
    expect(callsOf(calls, 'POST', '/api/registers')[0]?.body).toEqual({ name: 'Till 3' });

    await user.click(within(panel).getByRole('button', { name: 'Rename Till 1' }));
    const name = within(panel).getByLabelText('New name of Till 1');
    await user.clear(name);
    await user.type(name, 'Front till{Enter}');
    expect(await within(panel).findByText('Front till')).toBeTruthy();
    expect(callsOf(calls, 'PUT', '/api/registers/register1')[0]?.body).toEqual({ name: 'Front till' });

    await user.click(within(panel).getByRole('button', { name: 'Activate Till 2' }));
    expect(await within(panel).findByRole('button', { name: 'Deactivate Till 2' })).toBeTruthy();
    expect(callsOf(calls, 'PUT', '/api/registers/register2')[0]?.body).toEqual({ active: true });
  });

  it("shows the server's refusal next to the register", async () => {
    const user = userEvent.setup();
    renderTill(
      ADMIN_PATH,
      server(sessions, {
        'PUT /api/registers/*': () => ({
          status: 409,
          body: { success: false, error: 'Till 1 has an open session: close it first.' },
        }),
      }),
      userOf('admin'),
    );
    await user.click(await screen.findByRole('button', { name: 'Deactivate Till 1' }));
    expect(await screen.findByText('Till 1 has an open session: close it first.')).toBeTruthy();
  });
});
