import type { AuditChange } from '../../../shared/audit';
import {
  type Transfer,
  type TransferInput,
  type TransferLine,
  type TransferStatus,
  type TransferSummary,
  transferNumber,
} from '../../../shared/transfers';
import { type Runner, runnerOf, type Tx } from '../../db/connection';
import { badRequest, isId, notFound, refuse, refuseWith } from '../../lib/errors';
import { type Actor, recordAudit } from '../audit/audit.repository';
import { locationFor } from '../locations/location-for';
import { type NewMovement, recordMovements } from '../stock/movements';

/**
 * Transfers between locations (DESIGN §17, decision 0043). A draft holds nothing; sending takes
 * every line out of `from` (transferOut) in one transaction, and the units are then in transit:
 * they belong to no location until they are received at `to` (transferIn), written off as lost
 * (transferIn at `to`, then transferLoss there, so each location's stock stays the sum of its
 * movements), or returned to `from` when the transfer is closed (transferIn at `from`). Every step
 * locks the transfer's row first, then its products in id order (as every sale and the ledger's
 * trigger lock them), so steps of one transfer run one after another and never deadlock a sale.
 */

type Q = Pick<Runner, 'query'>;
/** A draft's values as the route parsed them. */
export type TransferValues = Omit<TransferInput, 'note'> & { note: string };

const STATUS_WORDS: Record<TransferStatus, string> = {
  draft: 'a draft',
  inTransit: 'in transit',
  partiallyReceived: 'partly received',
  received: 'received',
  cancelled: 'cancelled',
  closed: 'closed',
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
/** In transit on a line or a lot of it: sent and neither received, lost nor returned. */
const OPEN = 'sent - received - lost - returned';
/** The order lots travel in: unexpired first, the earliest expiry first, no expiry last. */
const FEFO = `(l.expires_on is not null and l.expires_on < store_today()), l.expires_on asc nulls last, l.created_at, l.id`;

type TransferRow = {
  id: string;
  number: string | number;
  status: TransferStatus;
  note: string;
  user_id: string | null;
  user_name: string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
  received_at: Date | string | null;
  closed_at: Date | string | null;
  from_id: string;
  from_name: string;
  to_id: string;
  to_name: string;
};

const TRANSFER_FIELDS = `t.id, t.number, t.status, t.note, t.user_id, t.user_name, t.created_at, t.sent_at,
  t.received_at, t.closed_at, f.id as from_id, f.name as from_name, o.id as to_id, o.name as to_name`;
const TRANSFER_FROM = `transfers t join locations f on f.id = t.from_location_id
  join locations o on o.id = t.to_location_id`;

function toTransfer(row: TransferRow): Omit<Transfer, 'lines'> {
  return {
    _id: row.id,
    number: transferNumber(Number(row.number)),
    from: { _id: row.from_id, name: row.from_name },
    to: { _id: row.to_id, name: row.to_name },
    status: row.status,
    note: row.note,
    createdBy: row.user_name === null ? null : { _id: row.user_id, name: row.user_name },
    createdAt: iso(row.created_at) as string,
    sentAt: iso(row.sent_at),
    receivedAt: iso(row.received_at),
    closedAt: iso(row.closed_at),
  };
}

/** One transfer with its lines (in the order entered) and the lots each was sent with. */
export async function findTransfer(q: Q, id: string): Promise<Transfer | undefined> {
  if (!isId(id)) return undefined;
  const [row] = await q.query<TransferRow>(
    `select ${TRANSFER_FIELDS} from ${TRANSFER_FROM} where t.id = $1`,
    [id],
  );
  if (!row) return undefined;
  const [lines, lots] = await Promise.all([
    q.query<{
      id: string;
      product_id: string;
      name: string;
      quantity: number;
      sent: number;
      received: number;
      lost: number;
      returned: number;
      lots: { number: string; quantity: number }[] | null;
    }>(
      `select tl.id, tl.product_id, p.name, tl.quantity, tl.sent, tl.received, tl.lost, tl.returned, tl.lots
       from transfer_lines tl join products p on p.id = tl.product_id
       where tl.transfer_id = $1 order by tl.line_no`,
      [id],
    ),
    q.query<{
      line_id: string;
      lot_id: string;
      number: string;
      expires_on: string | null;
      sent: number;
      received: number;
      lost: number;
      returned: number;
    }>(
      `select ll.line_id, ll.lot_id, l.number, l.expires_on::text as expires_on, ll.sent, ll.received, ll.lost,
              ll.returned
       from transfer_line_lots ll join transfer_lines tl on tl.id = ll.line_id join lots l on l.id = ll.lot_id
       where tl.transfer_id = $1 order by ${FEFO}`,
      [id],
    ),
  ]);
  const lotsOf = new Map<string, NonNullable<TransferLine['lots']>>();
  for (const lot of lots) {
    const list = lotsOf.get(lot.line_id) ?? [];
    list.push({
      _id: lot.lot_id,
      number: lot.number,
      expiresOn: lot.expires_on,
      sent: lot.sent,
      received: lot.received,
      lost: lot.lost,
      returned: lot.returned,
    });
    lotsOf.set(lot.line_id, list);
  }
  return {
    ...toTransfer(row),
    lines: lines.map((line) => ({
      _id: line.id,
      product: { _id: line.product_id, name: line.name },
      quantity: line.quantity,
      sent: line.sent,
      received: line.received,
      lost: line.lost,
      returned: line.returned,
      ...(line.lots ? { requestedLots: line.lots } : {}),
      ...(lotsOf.has(line.id) ? { lots: lotsOf.get(line.id) } : {}),
    })),
  };
}

export type TransferFilter = { status?: TransferStatus; location?: string };

/** One page of transfers, newest first, by status and by a location they leave or go to. */
export async function transferPage(
  q: Q,
  filter: TransferFilter,
  window: { limit: number; offset: number },
): Promise<{ transfers: TransferSummary[]; total: number }> {
  const where = `($1::text is null or t.status = $1) and ($2::uuid is null or t.from_location_id = $2 or t.to_location_id = $2)`;
  const params = [filter.status ?? null, filter.location ?? null];
  const [rows, [counted]] = await Promise.all([
    q.query<TransferRow & { line_count: number; units: number; in_transit: number }>(
      `select ${TRANSFER_FIELDS}, s.line_count, s.units, s.in_transit
       from ${TRANSFER_FROM}
       cross join lateral (select count(*)::int as line_count, coalesce(sum(quantity), 0)::int as units,
                                  coalesce(sum(${OPEN}), 0)::int as in_transit
                           from transfer_lines where transfer_id = t.id) s
       where ${where}
       order by t.created_at desc, t.id desc limit $3 offset $4`,
      [...params, window.limit, window.offset],
    ),
    q.query<{ n: number }>(`select count(*)::int as n from transfers t where ${where}`, params),
  ]);
  return {
    transfers: rows.map((row) => ({
      ...toTransfer(row),
      lineCount: row.line_count,
      units: row.units,
      inTransit: row.in_transit,
    })),
    total: counted?.n ?? 0,
  };
}

type Product = { id: string; name: string; tracking: string };

/**
 * The two locations (400 when they are one, 404 unknown, 409 inactive) and the lines' products
 * and named lots (400 for a product that does not exist or appears twice, lots named for an
 * untracked product, lots that are not the product's or do not add up to the line).
 */
async function checkDraft(q: Q, values: TransferValues) {
  if (values.from.toLowerCase() === values.to.toLowerCase())
    throw badRequest('A transfer goes from one location to another: choose two different locations.');
  const from = await locationFor(q, values.from);
  const to = await locationFor(q, values.to);
  if (from.id === to.id)
    throw badRequest('A transfer goes from one location to another: choose two different locations.');
  const ids = values.lines.map((line) => line.product);
  if (!ids.every(isId)) throw badRequest('Choose existing products for every line.');
  if (new Set(ids.map((id) => id.toLowerCase())).size !== ids.length)
    throw badRequest('Each product may appear once on a transfer.');
  const products = await q.query<Product>(
    'select id, name, tracking from products where id = any($1::uuid[])',
    [ids],
  );
  if (products.length !== ids.length) throw badRequest('Choose existing products for every line.');
  const byId = new Map(products.map((p) => [p.id, p]));
  const named = values.lines.flatMap((line) =>
    (line.lots ?? []).map((lot) => ({ product: line.product.toLowerCase(), number: lot.number })),
  );
  const known =
    named.length === 0
      ? []
      : await q.query<{ product_id: string; number: string }>(
          `select l.product_id, lower(l.number) as number from lots l
           join jsonb_to_recordset($1::jsonb) as x(product uuid, number text)
             on x.product = l.product_id and lower(x.number) = lower(l.number)`,
          [JSON.stringify(named)],
        );
  const knownLots = new Set(known.map((row) => `${row.product_id} ${row.number}`));
  const lines = values.lines.map((line, n) => {
    const product = byId.get(line.product.toLowerCase()) as Product;
    if (line.lots !== undefined) {
      if (product.tracking !== 'lot')
        throw badRequest(`${product.name} is not tracked by lot, so name no lot.`);
      const numbers = line.lots.map((lot) => lot.number.toLowerCase());
      if (new Set(numbers).size !== numbers.length)
        throw badRequest(`Name each lot of ${product.name} once.`);
      for (const number of numbers)
        if (!knownLots.has(`${product.id} ${number}`))
          throw badRequest(`${product.name} has no lot ${line.lots[numbers.indexOf(number)]?.number}.`);
      if (line.lots.reduce((sum, lot) => sum + lot.quantity, 0) !== line.quantity)
        throw badRequest(`The lots of ${product.name} must add up to its quantity, ${line.quantity}.`);
    }
    return {
      n: n + 1,
      product: product.id,
      name: product.name,
      quantity: line.quantity,
      lots: line.lots ?? null,
    };
  });
  return { from, to, lines };
}

async function insertLines(q: Q, transferId: string, lines: Awaited<ReturnType<typeof checkDraft>>['lines']) {
  await q.query(
    `insert into transfer_lines (transfer_id, line_no, product_id, product_name, quantity, lots)
     select $1, x.n, x.product, x.name, x.quantity, x.lots
     from jsonb_to_recordset($2::jsonb) as x(n int, product uuid, name text, quantity int, lots jsonb)`,
    [transferId, JSON.stringify(lines)],
  );
}

/** What an audit entry says of a draft: its places, lines, units and note. */
function content(draft: Awaited<ReturnType<typeof checkDraft>>, note: string): AuditChange[] {
  return [
    { field: 'from', new: draft.from.name },
    { field: 'to', new: draft.to.name },
    { field: 'lines', new: draft.lines.length },
    { field: 'units', new: draft.lines.reduce((sum, line) => sum + line.quantity, 0) },
    ...(note ? [{ field: 'note', new: note }] : []),
  ];
}

/** A new draft; its id. */
export async function insertTransfer(tx: Tx, values: TransferValues, actor: Actor): Promise<string> {
  const q = runnerOf(tx);
  const draft = await checkDraft(q, values);
  const [row] = await q.query<{ id: string; number: string }>(
    `insert into transfers (from_location_id, to_location_id, note, user_id, user_name)
     values ($1, $2, $3, $4, $5) returning id, number`,
    [draft.from.id, draft.to.id, values.note, actor.id, actor.name],
  );
  const { id, number } = row as { id: string; number: string };
  await insertLines(q, id, draft.lines);
  await recordAudit(tx, {
    actor,
    action: 'created',
    entity: { type: 'transfer', id, name: transferNumber(Number(number)) },
    changes: content(draft, values.note),
  });
  return id;
}

type Locked = { id: string; name: string; status: TransferStatus; fromId: string; toId: string };

/** The transfer's row, locked until the transaction ends; 404 when there is none. */
async function lockTransfer(q: Q, id: string): Promise<Locked> {
  if (!isId(id)) throw notFound('Transfer');
  const [row] = await q.query<{
    id: string;
    number: string;
    status: TransferStatus;
    from_location_id: string;
    to_location_id: string;
  }>('select id, number, status, from_location_id, to_location_id from transfers where id = $1 for update', [
    id,
  ]);
  if (!row) throw notFound('Transfer');
  return {
    id: row.id,
    name: transferNumber(Number(row.number)),
    status: row.status,
    fromId: row.from_location_id,
    toId: row.to_location_id,
  };
}

const refuseStep = (transfer: Locked, step: string) =>
  refuse('TRANSFER_STATUS', { transfer: transfer.name, status: STATUS_WORDS[transfer.status], step });

/** Replaces a draft's places, lines and note (409 once it is not a draft). */
export async function updateTransfer(
  tx: Tx,
  id: string,
  values: TransferValues,
  actor: Actor,
): Promise<void> {
  const q = runnerOf(tx);
  const transfer = await lockTransfer(q, id);
  if (transfer.status !== 'draft') throw refuseStep(transfer, 'changed');
  const before = await findTransfer(q, id);
  const draft = await checkDraft(q, values);
  await q.query('update transfers set from_location_id = $2, to_location_id = $3, note = $4 where id = $1', [
    id,
    draft.from.id,
    draft.to.id,
    values.note,
  ]);
  await q.query('delete from transfer_lines where transfer_id = $1', [id]);
  await insertLines(q, id, draft.lines);
  const old: Record<string, string | number> = {
    from: before?.from.name ?? '',
    to: before?.to.name ?? '',
    lines: before?.lines.length ?? 0,
    units: before?.lines.reduce((sum, line) => sum + line.quantity, 0) ?? 0,
    note: before?.note ?? '',
  };
  const changes = content(draft, values.note)
    .map((change) => ({ field: change.field, old: old[change.field] ?? null, new: change.new }))
    .filter((change) => change.old !== change.new);
  if (before?.note && !values.note) changes.push({ field: 'note', old: before.note, new: '' });
  await recordAudit(tx, {
    actor,
    action: 'updated',
    entity: { type: 'transfer', id, name: transfer.name },
    changes: changes.length > 0 ? changes : [{ field: 'lines', old: 'changed', new: 'changed' }],
  });
}

type SendLine = {
  id: string;
  line_no: number;
  product_id: string;
  name: string;
  tracking: string;
  quantity: number;
  lots: { number: string; quantity: number }[] | null;
};

/** Where else a product short at `from` is held (the refusal's `elsewhere`), most first. */
async function elsewhere(q: Q, productId: string, fromId: string) {
  const rows = await q.query<{ id: string; name: string; stock: number }>(
    `select l.id, l.name, s.stock from location_stock s join locations l on l.id = s.location_id
     where s.product_id = $1 and s.location_id <> $2 and s.stock > 0 and l.active
     order by s.stock desc, l.name`,
    [productId, fromId],
  );
  return rows.map((row) => ({ location: { _id: row.id, name: row.name }, stock: row.stock }));
}

/**
 * Sends a draft (DESIGN §17), all in the caller's transaction:
 * 1. the transfer's row is locked (a second send waits, then finds it sent: 409), and both places
 *    must still be active;
 * 2. its products are locked in id order, so no sale takes their stock at `from` between the
 *    check and the movements, and two sends or a send and a sale never wait in a circle;
 * 3. a line short at `from` is a 409 naming the product and `from`, with where else it is held,
 *    and nothing moves;
 * 4. a lot-tracked line takes the lots it names, else the lots at `from` first-expiry-first-out
 *    (unexpired first), recorded in transfer_line_lots so that they arrive with their expiries;
 * 5. every line leaves `from` by transferOut movements in one statement (product id order), each
 *    line's `sent` is its quantity, and the transfer is in transit.
 */
export async function sendTransfer(tx: Tx, id: string, actor: Actor): Promise<void> {
  const q = runnerOf(tx);
  const transfer = await lockTransfer(q, id);
  if (transfer.status !== 'draft') throw refuseStep(transfer, 'sent');
  const from = await locationFor(q, transfer.fromId);
  const to = await locationFor(q, transfer.toId);
  const lines = await q.query<SendLine>(
    `select tl.id, tl.line_no, tl.product_id, p.name, p.tracking, tl.quantity, tl.lots
     from transfer_lines tl join products p on p.id = tl.product_id
     where tl.transfer_id = $1 order by tl.product_id for no key update of p`,
    [id],
  );
  const productIds = lines.map((line) => line.product_id);
  const stock = new Map(
    (
      await q.query<{ product_id: string; stock: number }>(
        'select product_id, stock from location_stock where location_id = $1 and product_id = any($2::uuid[])',
        [from.id, productIds],
      )
    ).map((row) => [row.product_id, row.stock]),
  );
  for (const line of [...lines].sort((a, b) => a.line_no - b.line_no)) {
    const left = stock.get(line.product_id) ?? 0;
    if (left < line.quantity)
      throw refuseWith(
        'SHORT_AT_LOCATION',
        { elsewhere: await elsewhere(q, line.product_id, from.id) },
        { product: line.name, location: from.name, left },
      );
  }
  const tracked = lines.filter((line) => line.tracking === 'lot');
  const atFrom =
    tracked.length === 0
      ? []
      : await q.query<{ product_id: string; lot_id: string; number: string; quantity: number }>(
          `select s.product_id, s.lot_id, lower(l.number) as number, s.quantity
           from lot_stock s join lots l on l.id = s.lot_id
           where s.location_id = $1 and s.product_id = any($2::uuid[]) and s.quantity > 0
           order by ${FEFO}`,
          [from.id, tracked.map((line) => line.product_id)],
        );
  const lineLots: { line: string; lot: string; sent: number }[] = [];
  for (const line of tracked) {
    const here = atFrom.filter((lot) => lot.product_id === line.product_id);
    if (line.lots) {
      for (const named of line.lots) {
        const lot = here.find((l) => l.number === named.number.toLowerCase());
        if (!lot || lot.quantity < named.quantity) throw refuse('LOT_SHORT', { lot: named.number });
        lineLots.push({ line: line.id, lot: lot.lot_id, sent: named.quantity });
      }
    } else {
      let wanted = line.quantity;
      for (const lot of here) {
        if (wanted === 0) break;
        const part = Math.min(wanted, lot.quantity);
        lineLots.push({ line: line.id, lot: lot.lot_id, sent: part });
        wanted -= part;
      }
      // location_stock at `from` is the sum of its lots there, so the check above covers this.
      if (wanted > 0) throw refuse('SHORT_AT_LOCATION', { product: line.name, location: from.name, left: 0 });
    }
  }
  const note = `Sent on ${transfer.name} to ${to.name}`;
  const movements: NewMovement[] = lines.flatMap((line) => {
    const base = {
      productId: line.product_id,
      kind: 'transferOut' as const,
      note,
      actor,
      locationId: from.id,
      transferId: id,
    };
    return line.tracking === 'lot'
      ? lineLots.filter((l) => l.line === line.id).map((l) => ({ ...base, quantity: -l.sent, lotId: l.lot }))
      : [{ ...base, quantity: -line.quantity }];
  });
  await recordMovements(q, movements);
  if (lineLots.length > 0)
    await q.query(
      `insert into transfer_line_lots (line_id, lot_id, sent)
       select x.line, x.lot, x.sent from jsonb_to_recordset($1::jsonb) as x(line uuid, lot uuid, sent int)`,
      [JSON.stringify(lineLots)],
    );
  await q.query('update transfer_lines set sent = quantity where transfer_id = $1', [id]);
  await q.query(`update transfers set status = 'inTransit', sent_at = now() where id = $1`, [id]);
  await recordAudit(tx, {
    actor,
    action: 'sent',
    entity: { type: 'transfer', id, name: transfer.name },
    changes: [
      { field: 'status', old: 'draft', new: 'inTransit' },
      { field: 'units', new: lines.reduce((sum, line) => sum + line.quantity, 0) },
    ],
  });
}

type OpenLine = {
  id: string;
  product_id: string;
  name: string;
  tracking: string;
  open: number;
};
type OpenLot = { line_id: string; lot_id: string; open: number };

/** A sent transfer's lines (all, or those named) with what is still open, products locked in id order. */
async function openLines(q: Q, id: string, lineIds?: string[]) {
  const lines = await q.query<OpenLine>(
    `select tl.id, tl.product_id, p.name, p.tracking, (tl.${OPEN.replaceAll(' - ', ' - tl.')})::int as open
     from transfer_lines tl join products p on p.id = tl.product_id
     where tl.transfer_id = $1 and ($2::uuid[] is null or tl.id = any($2::uuid[]))
     order by tl.product_id for no key update of p`,
    [id, lineIds ?? null],
  );
  const lots = await q.query<OpenLot>(
    `select ll.line_id, ll.lot_id, (ll.${OPEN.replaceAll(' - ', ' - ll.')})::int as open
     from transfer_line_lots ll join transfer_lines tl on tl.id = ll.line_id join lots l on l.id = ll.lot_id
     where tl.transfer_id = $1 and ($2::uuid[] is null or tl.id = any($2::uuid[]))
     order by ${FEFO}`,
    [id, lineIds ?? null],
  );
  return { lines, lots };
}

/** Splits `units` over a line's open lots, the earliest expiry first. */
function fromLots(lots: OpenLot[], lineId: string, taken: Map<string, number>, units: number) {
  const parts: { lot: string; units: number }[] = [];
  let wanted = units;
  for (const lot of lots) {
    if (wanted === 0) break;
    if (lot.line_id !== lineId) continue;
    const left = lot.open - (taken.get(lot.lot_id) ?? 0);
    const part = Math.min(wanted, left);
    if (part <= 0) continue;
    parts.push({ lot: lot.lot_id, units: part });
    taken.set(lot.lot_id, (taken.get(lot.lot_id) ?? 0) + part);
    wanted -= part;
  }
  return parts;
}

export type ReceiveLine = { line: string; received: number; lost: number };

/**
 * Receives units of a sent transfer at `to` (DESIGN §17), all lines or none: per line received +
 * lost ≤ what is open on it (409 TRANSFER_OVER_RECEIVED); received units arrive by transferIn at
 * `to`; lost ones arrive there too and are written off there at once (transferLoss), decision
 * 0043. A tracked line's units come from the lots it was sent with, earliest expiry first (the
 * received ones, then the lost), the same lots, so their expiries travel. The transfer is then
 * received once every unit sent is received or lost, else partly received.
 */
export async function receiveTransfer(tx: Tx, id: string, input: ReceiveLine[], actor: Actor): Promise<void> {
  const q = runnerOf(tx);
  const transfer = await lockTransfer(q, id);
  if (transfer.status !== 'inTransit' && transfer.status !== 'partiallyReceived')
    throw refuseStep(transfer, 'received');
  const ids = input.map((line) => line.line.toLowerCase());
  if (!ids.every(isId)) throw badRequest(`Every line must be a line of ${transfer.name}.`);
  if (new Set(ids).size !== ids.length) throw badRequest('Name each line once.');
  if (input.every((line) => line.received + line.lost === 0))
    throw badRequest('Receive or write off at least one unit.');
  const { lines, lots } = await openLines(q, id, ids);
  if (lines.length !== ids.length) throw badRequest(`Every line must be a line of ${transfer.name}.`);
  const asked = new Map(input.map((line) => [line.line.toLowerCase(), line]));
  for (const line of lines) {
    const { received, lost } = asked.get(line.id) as ReceiveLine;
    if (received + lost > line.open)
      throw refuse('TRANSFER_OVER_RECEIVED', { product: line.name, open: line.open });
  }
  const to = await locationFor(q, transfer.toId, { inactive: 'allowed' });
  const base = { actor, locationId: to.id, transferId: id };
  const movements: NewMovement[] = [];
  const lotChanges: { line: string; lot: string; received: number; lost: number }[] = [];
  const taken = new Map<string, number>();
  for (const line of lines) {
    const { received, lost } = asked.get(line.id) as ReceiveLine;
    if (received + lost === 0) continue;
    const arrive = { ...base, productId: line.product_id, kind: 'transferIn' as const };
    const writeOff = {
      ...base,
      productId: line.product_id,
      kind: 'transferLoss' as const,
      reason: 'lost' as const,
      note: `Lost on ${transfer.name}`,
    };
    if (line.tracking !== 'lot') {
      movements.push({ ...arrive, quantity: received + lost, note: `Received on ${transfer.name}` });
      if (lost > 0) movements.push({ ...writeOff, quantity: -lost });
      continue;
    }
    const gotten = fromLots(lots, line.id, taken, received);
    const gone = fromLots(lots, line.id, taken, lost);
    for (const part of gotten) {
      movements.push({
        ...arrive,
        quantity: part.units,
        lotId: part.lot,
        note: `Received on ${transfer.name}`,
      });
      lotChanges.push({ line: line.id, lot: part.lot, received: part.units, lost: 0 });
    }
    for (const part of gone) {
      movements.push({ ...arrive, quantity: part.units, lotId: part.lot, note: `Lost on ${transfer.name}` });
      movements.push({ ...writeOff, quantity: -part.units, lotId: part.lot });
      lotChanges.push({ line: line.id, lot: part.lot, received: 0, lost: part.units });
    }
  }
  await recordMovements(q, movements);
  await q.query(
    `update transfer_lines tl set received = tl.received + x.received, lost = tl.lost + x.lost
     from jsonb_to_recordset($2::jsonb) as x(line uuid, received int, lost int)
     where tl.id = x.line and tl.transfer_id = $1`,
    [id, JSON.stringify(input.map((line) => ({ ...line, line: line.line.toLowerCase() })))],
  );
  if (lotChanges.length > 0)
    await q.query(
      `update transfer_line_lots ll set received = ll.received + x.received, lost = ll.lost + x.lost
       from (select line, lot, sum(received)::int as received, sum(lost)::int as lost
             from jsonb_to_recordset($1::jsonb) as y(line uuid, lot uuid, received int, lost int)
             group by line, lot) x
       where ll.line_id = x.line and ll.lot_id = x.lot`,
      [JSON.stringify(lotChanges)],
    );
  const [state] = await q.query<{ status: TransferStatus }>(
    `update transfers t set
       status = case when s.whole then 'received' else 'partiallyReceived' end,
       received_at = case when s.whole then now() else t.received_at end
     from (select bool_and(sent = received + lost + returned) as whole from transfer_lines where transfer_id = $1) s
     where t.id = $1 returning t.status`,
    [id],
  );
  await recordAudit(tx, {
    actor,
    action: 'received',
    entity: { type: 'transfer', id, name: transfer.name },
    changes: [
      { field: 'status', old: transfer.status, new: state?.status ?? transfer.status },
      { field: 'received', new: input.reduce((sum, line) => sum + line.received, 0) },
      { field: 'lost', new: input.reduce((sum, line) => sum + line.lost, 0) },
    ],
  });
}

/**
 * Cancels a draft, or closes a sent transfer: what is still in transit goes back into `from`
 * (transferIn at `from`, the line's `returned`; a tracked line's units into the lots they left).
 * 409 once received, cancelled or closed.
 */
export async function cancelTransfer(tx: Tx, id: string, actor: Actor): Promise<void> {
  const q = runnerOf(tx);
  const transfer = await lockTransfer(q, id);
  if (transfer.status === 'draft') {
    await q.query(`update transfers set status = 'cancelled', closed_at = now() where id = $1`, [id]);
    await recordAudit(tx, {
      actor,
      action: 'cancelled',
      entity: { type: 'transfer', id, name: transfer.name },
      changes: [{ field: 'status', old: 'draft', new: 'cancelled' }],
    });
    return;
  }
  if (transfer.status !== 'inTransit' && transfer.status !== 'partiallyReceived')
    throw refuseStep(transfer, 'cancelled');
  const { lines, lots } = await openLines(q, id);
  const base = {
    actor,
    kind: 'transferIn' as const,
    locationId: transfer.fromId,
    transferId: id,
    note: `Returned: ${transfer.name} closed`,
  };
  const movements: NewMovement[] = [];
  for (const line of lines) {
    if (line.open === 0) continue;
    if (line.tracking !== 'lot') movements.push({ ...base, productId: line.product_id, quantity: line.open });
    else
      for (const lot of lots)
        if (lot.line_id === line.id && lot.open > 0)
          movements.push({ ...base, productId: line.product_id, quantity: lot.open, lotId: lot.lot_id });
  }
  await recordMovements(q, movements);
  await q.query(`update transfer_lines set returned = returned + (${OPEN}) where transfer_id = $1`, [id]);
  await q.query(
    `update transfer_line_lots ll set returned = ll.returned + (ll.${OPEN.replaceAll(' - ', ' - ll.')})
     from transfer_lines tl where tl.id = ll.line_id and tl.transfer_id = $1`,
    [id],
  );
  await q.query(`update transfers set status = 'closed', closed_at = now() where id = $1`, [id]);
  await recordAudit(tx, {
    actor,
    action: 'closed',
    entity: { type: 'transfer', id, name: transfer.name },
    changes: [
      { field: 'status', old: transfer.status, new: 'closed' },
      { field: 'returned', new: lines.reduce((sum, line) => sum + line.open, 0) },
    ],
  });
}
