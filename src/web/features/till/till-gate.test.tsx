import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { RegisterSession } from '../../../shared/till';
import type { Handler } from '../sales/sales-test-data';
import { callsOf, openSession, renderTill, report, summary, TILL } from './till-test-data';

const COUNTER = '/salesRep-dashboard/sales/new';
const spare = {
  _id: 'register2',
  name: 'Till 2',
  active: true,
  location: { _id: 'main', name: 'Main store' },
};
const retired = {
  _id: 'register9',
  name: 'Old till',
  active: false,
  location: { _id: 'main', name: 'Main store' },
};

/** A fake server for the counter's till: the registers, and the open session once opened. */
function till(options: { open?: RegisterSession | null; openReply?: Handler } = {}) {
  let open = options.open ?? null;
  const handlers: Record<string, Handler> = {
    'GET /api/registers': () => ({ body: { success: true, registers: [TILL, spare, retired] } }),
    'GET /api/register-sessions': ({ query }) => {
      const rows =
        open && query.register === open.register._id && query.status === 'open' ? [summary(open)] : [];
      return { body: { success: true, sessions: rows, total: rows.length, page: 1, pageSize: 1 } };
    },
  };
  for (const register of [TILL, spare]) {
    handlers[`POST /api/registers/${register._id}/open`] =
      options.openReply ??
      (({ body }) => {
        open = openSession({
          register: { _id: register._id, name: register.name },
          openingFloat: (body as { openingFloat: number }).openingFloat,
        });
        return { status: 201, body: { success: true, session: open, report: report() } };
      });
  }
  return handlers;
}

const scanBox = () => screen.queryByRole('combobox', { name: 'Scan or search a product' });

describe('the till gate at the counter', () => {
  it('asks which till this device sells on, offering only the active ones, and remembers it', async () => {
    const user = userEvent.setup();
    renderTill(COUNTER, till());
    expect(await screen.findByRole('heading', { name: 'Choose a till' })).toBeTruthy();
    expect(scanBox()).toBeNull();
    expect(await screen.findByRole('button', { name: 'Till 2' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Old till' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Till 2' }));
    expect(await screen.findByRole('heading', { name: 'Open Till 2' })).toBeTruthy();
    expect(localStorage.getItem('ims.till.register')).toBe('register2');
  });

  it('asks to open the till before selling, posts the float, then sells in that session', async () => {
    localStorage.setItem('ims.till.register', TILL._id);
    const user = userEvent.setup();
    const { calls } = renderTill(COUNTER, till());
    const float = await screen.findByLabelText('Opening float (USD)');
    expect(scanBox()).toBeNull();
    expect(document.activeElement).toBe(float);
    await user.type(float, '150.50{Enter}');
    const [post] = callsOf(calls, 'POST', '/api/registers/register1/open');
    expect(post?.body).toEqual({ openingFloat: 150.5 });
    expect(post?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    const bar = await screen.findByRole('region', { name: 'Till' });
    expect(bar.textContent).toMatch(/^Till 1 · session #12 · opened .+ by Test salesRep/);
    expect(scanBox()).toBeTruthy();
    for (const name of ['Cash in/out', 'Close till', 'Change till'])
      expect(within(bar).getByRole('button', { name })).toBeTruthy();
    expect(within(bar).getByRole('link', { name: 'X report' }).getAttribute('href')).toBe(
      '/salesRep-dashboard/till/sessions/session1',
    );
  });

  it('says what is wrong with the float and sends nothing; a refusal is said in a sentence', async () => {
    localStorage.setItem('ims.till.register', TILL._id);
    const user = userEvent.setup();
    const { calls } = renderTill(
      COUNTER,
      till({
        openReply: () => ({
          status: 409,
          body: { success: false, error: 'Till 1 already has an open session.' },
        }),
      }),
    );
    const float = await screen.findByLabelText('Opening float (USD)');
    await user.type(float, '12.345{Enter}');
    expect(screen.getByText(/Enter the opening float as an amount/)).toBeTruthy();
    await user.clear(float);
    await user.type(float, '-5{Enter}');
    expect(callsOf(calls, 'POST', '/api/registers/register1/open')).toHaveLength(0);
    await user.clear(float);
    await user.type(float, '0{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('Till 1 already has an open session.');
    expect(callsOf(calls, 'POST', '/api/registers/register1/open')[0]?.body).toEqual({ openingFloat: 0 });
    expect(scanBox()).toBeNull();
  });

  it('opens the counter at once on a till whose session is open, and Change till asks again', async () => {
    localStorage.setItem('ims.till.register', TILL._id);
    const user = userEvent.setup();
    renderTill(COUNTER, till({ open: openSession() }));
    const bar = await screen.findByRole('region', { name: 'Till' });
    expect(scanBox()).toBeTruthy();
    await user.click(within(bar).getByRole('button', { name: 'Change till' }));
    expect(await screen.findByRole('heading', { name: 'Choose a till' })).toBeTruthy();
    expect(localStorage.getItem('ims.till.register')).toBeNull();
  });

  it('asks for another till when the one remembered is no longer active', async () => {
    localStorage.setItem('ims.till.register', retired._id);
    renderTill(COUNTER, till());
    expect(
      await screen.findByText('The till this device used is no longer active. Choose another.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Till 1' })).toBeTruthy();
  });

  it('shows a failure to load the session as a failure, with Try again, never as a closed till', async () => {
    localStorage.setItem('ims.till.register', TILL._id);
    const user = userEvent.setup();
    let fail = true;
    const handlers = till({ open: openSession() });
    const answer = handlers['GET /api/register-sessions'] as Handler;
    handlers['GET /api/register-sessions'] = (call) =>
      fail ? { status: 503, body: { success: false, error: 'Down.' } } : answer(call);
    renderTill(COUNTER, handlers);
    expect(await screen.findByText(/session could not be loaded/)).toBeTruthy();
    expect(screen.queryByLabelText('Opening float (USD)')).toBeNull();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(scanBox()).toBeTruthy());
  });

  it('says when no till is active', async () => {
    const handlers = till();
    handlers['GET /api/registers'] = () => ({ body: { success: true, registers: [retired] } });
    renderTill(COUNTER, handlers);
    expect(await screen.findByText(/No till is active/)).toBeTruthy();
  });
});
