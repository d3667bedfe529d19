import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Transfer } from '../../../shared/transfers';
import { atViewport } from '../../test/viewport';
import { answerTransfer, callsTo, line, refusal, renderTransfers, transfer } from './transfers-test-data';

/** A fake server holding one transfer: GET answers it as it is now, each step answers `after`. */
function serving(
  start: Transfer,
  steps: Record<string, (body: unknown) => ReturnType<typeof answerTransfer>>,
) {
  let now = start;
  const handlers: Record<string, (call: { body: unknown }) => ReturnType<typeof answerTransfer>> = {
    'GET /api/transfers/t1': () => answerTransfer(now),
  };
  for (const [step, answer] of Object.entries(steps))
    handlers[`POST /api/transfers/t1/${step}`] = ({ body }) => {
      const reply = answer(body);
      if ((reply.status ?? 200) < 300) now = (reply.body as { transfer: Transfer }).transfer;
      return reply;
    };
  return handlers;
}

const sent = (overrides: Partial<Transfer> = {}) =>
  transfer({
    status: 'inTransit',
    sentAt: '2025-05-02T09:00:00.000Z',
    lines: [
      line('p1', 'Blue Pen', { quantity: 4, sent: 4 }),
      line('p2', 'Serum', {
        quantity: 3,
        sent: 3,
        received: 1,
        lots: [
          { _id: 'lot1', number: 'A1', expiresOn: '2027-03-03', sent: 3, received: 1, lost: 0, returned: 0 },
        ],
      }),
    ],
    ...overrides,
  });

const actions = () =>
  screen
    .queryAllByRole('button')
    .filter((button) => !button.closest('[data-testid="notifications"]'))
    .map((button) => button.textContent)
    .concat(screen.queryAllByRole('link', { name: /^Edit$/ }).map((link) => link.textContent));

describe('a transfer', () => {
  it('shows a draft with Edit, Send and Cancel; Send asks first, then sends with a key', async () => {
    const { calls } = renderTransfers('/admin-dashboard/transfers/t1', {
      ...serving(transfer({ note: 'Shelf B' }), {
        send: () => answerTransfer(sent()),
      }),
    });
    expect(await screen.findByRole('heading', { name: 'TR-000001' })).toBeTruthy();
    expect(screen.getByText('Shelf B')).toBeTruthy();
    expect(actions()).toEqual(['Send', 'Cancel transfer', 'Edit']);
    expect(screen.getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe(
      '/admin-dashboard/transfers/t1/edit',
    );
    expect(screen.getByRole('link', { name: 'Print packing list' }).getAttribute('href')).toBe(
      '/admin-dashboard/transfers/t1/packing-list',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Send TR-000001?' });
    expect(dialog.textContent).toContain('Every line leaves Main store now');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('TR-000001 is on its way to Stockroom.')).toBeTruthy();
    const [send] = callsTo(calls, 'POST', '/api/transfers/t1/send');
    expect(send?.body).toBeUndefined();
    expect(send?.headers['Idempotency-Key']).toBeTruthy();
    await waitFor(() => expect(actions()).toEqual(['Receive', 'Close transfer']));
  });

  it('shows the lines: quantity, sent, received, lost, returned, in transit and lots with expiries', async () => {
    renderTransfers('/admin-dashboard/transfers/t1', serving(sent(), {}));
    const table = await screen.findByRole('table', { name: 'Lines of TR-000001' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]?.textContent).toBe('Blue PenQuantity 4Sent 4Received 0Lost 0Returned 0In transit 4—');
    expect(rows[1]?.textContent).toBe(
      'SerumQuantity 3Sent 3Received 1Lost 0Returned 0In transit 2Lot A1 (3) · expires Mar 3, 2027',
    );
  });

  it('receives with lost units: received defaults to what is in transit, and received + lost is checked', async () => {
    const { calls } = renderTransfers('/admin-dashboard/transfers/t1', {
      ...serving(sent(), {
        receive: () =>
          answerTransfer(
            sent({
              status: 'partiallyReceived',
              lines: [
                line('p1', 'Blue Pen', { quantity: 4, sent: 4, received: 3, lost: 1 }),
                line('p2', 'Serum', { quantity: 3, sent: 3, received: 1 }),
              ],
            }),
          ),
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Receive' }));
    const dialog = await screen.findByRole('dialog', { name: 'Receive TR-000001 at Stockroom' });
    const received = within(dialog).getByLabelText('Received: Blue Pen') as HTMLInputElement;
    const lost = within(dialog).getByLabelText('Lost: Blue Pen') as HTMLInputElement;
    expect(received.value).toBe('4');
    expect(lost.value).toBe('0');
    expect((within(dialog).getByLabelText('Received: Serum') as HTMLInputElement).value).toBe('2');
    await userEvent.clear(lost);
    await userEvent.type(lost, '1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    expect(
      await within(dialog).findByText('Received and lost add up to 5; only 4 are in transit.'),
    ).toBeTruthy();
    expect(received.getAttribute('aria-invalid')).toBe('true');
    expect(callsTo(calls, 'POST', '/api/transfers/t1/receive')).toHaveLength(0);
    await userEvent.clear(received);
    await userEvent.type(received, '3');
    await userEvent.clear(within(dialog).getByLabelText('Received: Serum'));
    await userEvent.type(within(dialog).getByLabelText('Received: Serum'), '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    expect(await screen.findByText('3 units received at Stockroom, 1 unit lost (TR-000001).')).toBeTruthy();
    const [receive] = callsTo(calls, 'POST', '/api/transfers/t1/receive');
    // The line left at 0 and 0 stays in transit: it is not sent.
    expect(receive?.body).toEqual({ lines: [{ line: 'line-p1', received: 3, lost: 1 }] });
    expect(receive?.headers['Idempotency-Key']).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows the server's refusal in the receive dialog", async () => {
    renderTransfers('/admin-dashboard/transfers/t1', {
      ...serving(sent(), {
        receive: () =>
          refusal(409, 'TRANSFER_OVER_RECEIVED', 'Only 2 of Blue Pen are still in transit on this transfer.'),
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Receive' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Only 2 of Blue Pen are still in transit on this transfer.',
    );
  });

  it('a send refused for a short line says where else the product is', async () => {
    renderTransfers('/admin-dashboard/transfers/t1', {
      ...serving(transfer(), {
        send: () =>
          refusal(409, 'SHORT_AT_LOCATION', 'Not enough stock of Blue Pen at Main store: 1 left.', {
            elsewhere: [{ location: { _id: 'l2', name: 'Stockroom' }, stock: 12 }],
          }),
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Send' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Send' }),
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Not enough stock of Blue Pen at Main store: 1 left. Elsewhere: 12 at Stockroom.',
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('closing one on the road says the rest goes back to from', async () => {
    const { calls } = renderTransfers('/admin-dashboard/transfers/t1', {
      ...serving(sent(), {
        cancel: () => answerTransfer(sent({ status: 'closed', closedAt: '2025-05-03T09:00:00.000Z' })),
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Close transfer' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Close TR-000001?' });
    expect(dialog.textContent).toContain('What is still in transit (6 units) goes back to Main store');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close transfer' }));
    expect(
      await screen.findByText('TR-000001 is closed; what was in transit is back at Main store.'),
    ).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/transfers/t1/cancel')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Receive' })).toBeNull());
  });

  it('cancels a draft after asking; a status refusal is shown as the server words it', async () => {
    renderTransfers('/admin-dashboard/transfers/t1', {
      ...serving(transfer(), {
        cancel: () => refusal(409, 'TRANSFER_STATUS', 'TR-000001 is in transit: it cannot be cancelled.'),
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel transfer' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel TR-000001?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel transfer' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'TR-000001 is in transit: it cannot be cancelled.',
    );
  });

  it('offers no step once received, and says when the transfer does not exist', async () => {
    renderTransfers('/admin-dashboard/transfers/t1', serving(sent({ status: 'received' }), {}));
    await screen.findByRole('heading', { name: 'TR-000001' });
    expect(actions()).toEqual([]);
    renderTransfers('/admin-dashboard/transfers/nope', {
      'GET /api/transfers/nope': () => refusal(404, 'NOT_FOUND', 'Transfer not found.'),
    });
    expect(await screen.findByText('This transfer does not exist.')).toBeTruthy();
  });
});

describe('a transfer on a phone', () => {
  it('stacks its lines as cards, each number named, and keeps every step reachable', async () => {
    atViewport(375);
    renderTransfers('/admin-dashboard/transfers/t1', serving(sent(), {}));
    const table = await screen.findByRole('table', { name: 'Lines of TR-000001' });
    expect(table.querySelector('thead')?.className).toContain('max-sm:sr-only');
    expect(within(table).getAllByRole('row')[1]?.className).toContain('max-sm:grid');
    expect(screen.getByRole('button', { name: 'Receive' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Close transfer' })).toBeTruthy();
  });
});
