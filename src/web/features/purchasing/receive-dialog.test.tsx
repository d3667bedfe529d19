import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PurchaseOrder, ReceiveInput } from '../../../shared/purchasing';
import type { FetchCall } from '../../test/helpers';
import {
  answerOrder,
  callsTo,
  type Handler,
  line,
  purchaseOrder,
  renderPurchasing,
} from './purchasing-test-data';
import { receiveProblem } from './receive-dialog';

/** Ordered: Blue Pen 6 of 10 open, Red Pen all in, Stapler 2 open. */
const ordered = () =>
  purchaseOrder({
    status: 'partially_received',
    orderedAt: '2025-05-02T09:00:00.000Z',
    lines: [
      line('p1', 'Blue Pen', { _id: 'l1', quantity: 10, received: 4, unitCost: 0.1 }),
      line('p2', 'Red Pen', { _id: 'l2', quantity: 5, received: 5, unitCost: 0.2 }),
      line('p3', 'Stapler', { _id: 'l3', quantity: 2, received: 0, unitCost: 4.5 }),
    ],
    total: 11,
  });

/** A server that receives as the real one does: all lines or none, never more than is open. */
function renderReceiving(overrides: Record<string, Handler> = {}) {
  const state: { order: PurchaseOrder } = { order: ordered() };
  const result = renderPurchasing('/admin-dashboard/purchase-orders/po1', {
    'GET /api/purchase-orders/po1': () => answerOrder(state.order),
    'POST /api/purchase-orders/po1/receive': ({ body }) => {
      const { lines } = body as ReceiveInput;
      for (const wanted of lines) {
        const found = state.order.lines.find((one) => one._id === wanted.line);
        if (!found || found.received + wanted.quantity > found.quantity)
          return { status: 409, body: { success: false, error: 'Too many.' } };
      }
      const updated = state.order.lines.map((one) => ({
        ...one,
        received: one.received + (lines.find((wanted) => wanted.line === one._id)?.quantity ?? 0),
      }));
      const done = updated.every((one) => one.received === one.quantity);
      state.order = { ...state.order, lines: updated, status: done ? 'received' : 'partially_received' };
      return answerOrder(state.order);
    },
    ...overrides,
  });
  return { ...result, state };
}

async function openDialog() {
  await userEvent.click(await screen.findByRole('button', { name: 'Receive' }));
  return screen.getByRole('dialog', { name: 'Receive: PO-000001' });
}

const receipts = (calls: FetchCall[]) => callsTo(calls, 'POST', '/api/purchase-orders/po1/receive');

describe('what can be received', () => {
  it('is a whole number from 0 to what is open; an empty box is 0', () => {
    expect(receiveProblem('0', 6)).toBeNull();
    expect(receiveProblem('', 6)).toBeNull();
    expect(receiveProblem('6', 6)).toBeNull();
    expect(receiveProblem('7', 6)).toBe('At most 6 are open.');
    expect(receiveProblem('2', 1)).toBe('At most 1 is open.');
    expect(receiveProblem('-1', 6)).toBe('Quantity must be 0 or more.');
    expect(receiveProblem('1.5', 6)).toBe('Quantity must be a whole number.');
  });
});

describe('the receive dialog', () => {
  it('lists the open lines at 0, and "Receive all" sends each with its open quantity', async () => {
    const { calls, state } = renderReceiving();
    const dialog = await openDialog();
    const table = within(dialog).getByRole('table', { name: 'Open lines of PO-000001' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Product', 'Ordered', 'Received', 'Open', 'Receive now']);
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).queryByText('Red Pen')).toBeNull();
    const blue = within(dialog).getByLabelText('Receive now: Blue Pen') as HTMLInputElement;
    expect(blue.value).toBe('0');
    expect(blue.max).toBe('6');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive all' }));
    expect(blue.value).toBe('6');
    expect((within(dialog).getByLabelText('Receive now: Stapler') as HTMLInputElement).value).toBe('2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(receipts(calls)[0]?.body).toEqual({
      lines: [
        { line: 'l1', quantity: 6 },
        { line: 'l3', quantity: 2 },
      ],
    });
    expect(receipts(calls)[0]?.headers['Idempotency-Key']).toMatch(/^[\x21-\x7e]{1,200}$/);
    expect(state.order.status).toBe('received');
    expect(await screen.findByText('8 units received on PO-000001.')).toBeTruthy();
    expect(screen.getByText('Received', { selector: '[data-status]' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Receive' })).toBeNull();
  });

  it('sends only the lines with a quantity, and blocks more than is open without calling', async () => {
    const { calls } = renderReceiving();
    const dialog = await openDialog();
    const submit = within(dialog).getByRole('button', { name: 'Receive' });
    await userEvent.click(submit);
    expect(within(dialog).getByRole('alert').textContent).toBe('Receive at least one line.');

    const blue = within(dialog).getByLabelText('Receive now: Blue Pen');
    await userEvent.clear(blue);
    await userEvent.type(blue, '7');
    await userEvent.click(submit);
    expect(within(dialog).getByText('At most 6 are open.')).toBeTruthy();
    expect(blue.getAttribute('aria-invalid')).toBe('true');
    expect(receipts(calls)).toHaveLength(0);

    await userEvent.clear(blue);
    await userEvent.type(blue, '2');
    await userEvent.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(receipts(calls).map((call) => call.body)).toEqual([{ lines: [{ line: 'l1', quantity: 2 }] }]);
    expect(await screen.findByText('2 units received on PO-000001.')).toBeTruthy();
    const lines = screen.getByRole('table', { name: 'Lines of PO-000001' });
    expect(within(lines).getAllByRole('row')[1]?.textContent).toContain('Received 6Billed 0Open 4');
  });

  it("shows the server's 409 sentence and refreshes the order, so the open quantities are today's", async () => {
    const { calls, state } = renderReceiving({
      'POST /api/purchase-orders/po1/receive': () => {
        // Someone received 3 Blue Pens meanwhile.
        const [blue, red, stapler] = ordered().lines;
        if (!blue || !red || !stapler) throw new Error('test data');
        state.order = { ...state.order, lines: [{ ...blue, received: 7 }, red, stapler] };
        return {
          status: 409,
          body: { success: false, error: 'Blue Pen has 3 open on PO-000001; 6 cannot be received.' },
        };
      },
    });
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive all' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Blue Pen has 3 open on PO-000001; 6 cannot be received.',
    );
    await waitFor(() =>
      expect((within(dialog).getByLabelText('Receive now: Blue Pen') as HTMLInputElement).max).toBe('3'),
    );
    expect(callsTo(calls, 'GET', '/api/purchase-orders/po1')).toHaveLength(2);
    expect(screen.getByRole('dialog')).toBeTruthy();
    // What was typed stays, and is now more than is open.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    expect(within(dialog).getByText('At most 3 are open.')).toBeTruthy();
    expect(receipts(calls)).toHaveLength(1);
  });

  it('sends a retried receipt with the same Idempotency-Key after the server could not be reached', async () => {
    let attempts = 0;
    const { calls } = renderReceiving({
      'POST /api/purchase-orders/po1/receive': () => {
        attempts += 1;
        if (attempts === 1) throw new TypeError('network down');
        return answerOrder({ ...ordered(), status: 'received' });
      },
    });
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive all' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/cannot be reached/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [first, retry] = receipts(calls).map((call) => call.headers['Idempotency-Key']);
    expect(first).toBeTruthy();
    expect(retry).toBe(first);
  });

  it('a new receipt after an answer gets a new key', async () => {
    const { calls } = renderReceiving();
    let dialog = await openDialog();
    const blue = () => within(dialog).getByLabelText('Receive now: Blue Pen');
    await userEvent.clear(blue());
    await userEvent.type(blue(), '1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    dialog = await openDialog();
    await userEvent.clear(blue());
    await userEvent.type(blue(), '1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    await waitFor(() => expect(receipts(calls)).toHaveLength(2));
    const [first, second] = receipts(calls).map((call) => call.headers['Idempotency-Key']);
    expect(second).not.toBe(first);
  });
});

describe('receiving a lot-tracked line (DESIGN §15)', () => {
  /** Blue Pen is lot-tracked with 6 open; Stapler is not, with 2 open. */
  const withLots = () =>
    purchaseOrder({
      status: 'ordered',
      orderedAt: '2025-05-02T09:00:00.000Z',
      lines: [
        line('p1', 'Blue Pen', {
          _id: 'l1',
          product: { _id: 'p1', name: 'Blue Pen', tracking: 'lot' },
          quantity: 10,
          received: 4,
        }),
        line('p3', 'Stapler', { _id: 'l3', quantity: 2, received: 0 }),
      ],
      total: 11,
    });

  /** A server that refuses a tracked line without lots adding up to its quantity, as the real one does. */
  function renderLots(overrides: Record<string, Handler> = {}) {
    const state: { order: PurchaseOrder } = { order: withLots() };
    const result = renderPurchasing('/admin-dashboard/purchase-orders/po1', {
      'GET /api/purchase-orders/po1': () => answerOrder(state.order),
      'POST /api/purchase-orders/po1/receive': ({ body }) => {
        const { lines } = body as ReceiveInput;
        for (const wanted of lines) {
          const found = state.order.lines.find((one) => one._id === wanted.line);
          const sum = wanted.lots?.reduce((total, lot) => total + lot.quantity, 0);
          if (found?.product.tracking === 'lot' && sum !== wanted.quantity)
            return {
              status: 400,
              body: { success: false, error: "A line's lots must add up to its quantity." },
            };
        }
        state.order = {
          ...state.order,
          lines: state.order.lines.map((one) => ({
            ...one,
            received: one.received + (lines.find((wanted) => wanted.line === one._id)?.quantity ?? 0),
          })),
        };
        return answerOrder(state.order);
      },
      ...overrides,
    });
    return { ...result, state };
  }

  const lotsOf = (dialog: HTMLElement) => within(dialog).getByRole('group', { name: 'Lots of Blue Pen' });
  const lotRow = (dialog: HTMLElement, index: number) =>
    within(lotsOf(dialog)).getByRole('group', { name: `Lot ${index}` });
  const statusOf = (dialog: HTMLElement) =>
    (lotsOf(dialog).querySelector('[aria-live]') as HTMLElement).textContent;
  async function fillLot(
    dialog: HTMLElement,
    index: number,
    number: string,
    expiry: string | null,
    units?: string,
  ) {
    const row = lotRow(dialog, index);
    await userEvent.type(within(row).getByLabelText('Lot number'), number);
    if (expiry === null) await userEvent.click(within(row).getByLabelText('Does not expire'));
    else await userEvent.type(within(row).getByLabelText('Expires on'), expiry);
    if (units !== undefined) {
      await userEvent.clear(within(row).getByLabelText('Quantity'));
      await userEvent.type(within(row).getByLabelText('Quantity'), units);
    }
  }

  it('asks the lots of the tracked line only; a lone lot takes the whole quantity and is sent with it', async () => {
    const { calls } = renderLots();
    const dialog = await openDialog();
    expect(within(dialog).queryByRole('group', { name: 'Lots of Stapler' })).toBeNull();
    expect(statusOf(dialog)).toBe('Lots are asked for the units received now.');
    expect(within(lotsOf(dialog)).queryByRole('button', { name: /Remove/ })).toBeNull();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive all' }));
    expect((within(lotRow(dialog, 1)).getByLabelText('Quantity') as HTMLInputElement).value).toBe('6');
    expect(statusOf(dialog)).toBe('The lots hold all 6 received.');
    await fillLot(dialog, 1, 'A-100', '2027-01-31');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(receipts(calls)[0]?.body).toEqual({
      lines: [
        { line: 'l1', quantity: 6, lots: [{ number: 'A-100', expiresOn: '2027-01-31', quantity: 6 }] },
        { line: 'l3', quantity: 2 },
      ],
    });
  });

  it('"Add lot" splits the line; the lots must add up to the quantity, said inline before anything is sent', async () => {
    const { calls } = renderLots();
    const dialog = await openDialog();
    const blue = within(dialog).getByLabelText('Receive now: Blue Pen');
    await userEvent.clear(blue);
    await userEvent.type(blue, '6');
    await fillLot(dialog, 1, 'A-100', '2027-01-31', '4');
    expect(statusOf(dialog)).toBe('The lots hold 4 of the 6 received; they must add up to 6.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add lot to Blue Pen' }));
    // The new lot's number takes the focus, so typing goes on there.
    expect(document.activeElement).toBe(within(lotRow(dialog, 2)).getByLabelText('Lot number'));
    await fillLot(dialog, 2, 'B-200', null, '1');
    expect(statusOf(dialog)).toBe('The lots hold 5 of the 6 received; they must add up to 6.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    expect(statusOf(dialog)).toBe('The lots hold 5 of the 6 received; they must add up to 6.');
    expect(lotsOf(dialog).querySelector('[aria-live]')?.className).toMatch(/red/);
    expect(receipts(calls)).toHaveLength(0);

    await userEvent.clear(within(lotRow(dialog, 2)).getByLabelText('Quantity'));
    await userEvent.type(within(lotRow(dialog, 2)).getByLabelText('Quantity'), '2');
    expect(statusOf(dialog)).toBe('The lots hold all 6 received.');
    expect((within(lotRow(dialog, 2)).getByLabelText('Expires on') as HTMLInputElement).disabled).toBe(true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(receipts(calls)[0]?.body).toEqual({
      lines: [
        {
          line: 'l1',
          quantity: 6,
          lots: [
            { number: 'A-100', expiresOn: '2027-01-31', quantity: 4 },
            { number: 'B-200', expiresOn: null, quantity: 2 },
          ],
        },
      ],
    });
    expect(await screen.findByText('6 units received on PO-000001.')).toBeTruthy();
  });

  it('removes a lot by keyboard, and the focus goes back to Add lot', async () => {
    renderLots();
    const dialog = await openDialog();
    within(dialog).getByRole('button', { name: 'Add lot to Blue Pen' }).focus();
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard('SECOND');
    expect((within(lotRow(dialog, 2)).getByLabelText('Lot number') as HTMLInputElement).value).toBe('SECOND');
    const remove = within(dialog).getByRole('button', { name: 'Remove lot 2 of Blue Pen' });
    remove.focus();
    await userEvent.keyboard('{Enter}');
    expect(within(lotsOf(dialog)).queryByRole('group', { name: 'Lot 2' })).toBeNull();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Add lot to Blue Pen' }));
    expect(within(lotsOf(dialog)).queryByRole('button', { name: /Remove/ })).toBeNull();
  });

  it('a lot without a number or expiry, a lot of 0, or a number twice is refused beside it and nothing is sent', async () => {
    const { calls } = renderLots();
    const dialog = await openDialog();
    const blue = within(dialog).getByLabelText('Receive now: Blue Pen');
    await userEvent.clear(blue);
    await userEvent.type(blue, '3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    const first = lotRow(dialog, 1);
    expect(within(first).getByText('Lot number is required.')).toBeTruthy();
    expect(within(first).getByText('Enter the expiry date, or tick Does not expire.')).toBeTruthy();
    expect(within(first).getByLabelText('Lot number').getAttribute('aria-invalid')).toBe('true');

    await fillLot(dialog, 1, 'lot-7', null, '2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add lot to Blue Pen' }));
    await fillLot(dialog, 2, 'LOT-7', '2027-03-01', '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    expect(
      within(lotRow(dialog, 2)).getByText('Quantity must be a whole number of at least 1.'),
    ).toBeTruthy();
    await userEvent.clear(within(lotRow(dialog, 2)).getByLabelText('Quantity'));
    await userEvent.type(within(lotRow(dialog, 2)).getByLabelText('Quantity'), '1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    expect(statusOf(dialog)).toBe('Each lot may appear once per line.');
    expect(receipts(calls)).toHaveLength(0);
  });

  it('a tracked line left at 0 waits without lots, and the server’s refusal is shown in the dialog', async () => {
    const { calls } = renderLots({
      'POST /api/purchase-orders/po1/receive': () => ({
        status: 409,
        body: { success: false, error: 'Lot A-100 of Blue Pen expires on 2027-01-31, not 2027-02-01.' },
      }),
    });
    let dialog = await openDialog();
    const stapler = within(dialog).getByLabelText('Receive now: Stapler');
    await userEvent.clear(stapler);
    await userEvent.type(stapler, '2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    await waitFor(() => expect(receipts(calls)).toHaveLength(1));
    expect(receipts(calls)[0]?.body).toEqual({ lines: [{ line: 'l3', quantity: 2 }] });
    await within(dialog).findByRole('alert');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    dialog = await openDialog();
    const blue = within(dialog).getByLabelText('Receive now: Blue Pen');
    await userEvent.clear(blue);
    await userEvent.type(blue, '1');
    await fillLot(dialog, 1, 'A-100', '2027-02-01');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Lot A-100 of Blue Pen expires on 2027-01-31, not 2027-02-01.',
    );
    expect(receipts(calls)[1]?.body).toEqual({
      lines: [{ line: 'l1', quantity: 1, lots: [{ number: 'A-100', expiresOn: '2027-02-01', quantity: 1 }] }],
    });
  });
});
