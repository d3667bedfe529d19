import type { Role } from '../../shared/roles';
import {
  cancelTransfer,
  insertTransfer,
  receiveTransfer,
  sendTransfer,
} from '../modules/transfers/transfers.repository';
import type { Database } from './connection';

/**
 * The demo's locations (DESIGN §17): the Main store it always had, a Stockroom behind it and a
 * second shop in Brooklyn with its own till, stocked from the Main store by transfers received
 * over the last weeks, and a transfer in every other state: a draft, one on the road, one partly
 * received with a unit lost, one cancelled and one closed with what was left going back.
 * Every step goes through the transfers' own functions, so the ledger says what happened.
 */
export async function seedLocations(
  database: Database,
  { admin, random }: { admin: { id: string; name: string; role: Role }; random: () => number },
): Promise<void> {
  const q = database.query.bind(database);
  const [main] = await q<{ id: string }>('select default_location() as id');
  const [stockroom] = await q<{ id: string }>(
    `insert into locations (name, kind, address) values ('Stockroom', 'stockroom', 'Back of 214 Grand Street, New York, NY 10013') returning id`,
  );
  const [brooklyn] = await q<{ id: string }>(
    `insert into locations (name, kind, address) values ('Brooklyn shop', 'store', '88 Bedford Avenue, Brooklyn, NY 11211') returning id`,
  );
  const mainId = main?.id as string;
  const stockroomId = stockroom?.id as string;
  const brooklynId = brooklyn?.id as string;
  await q('insert into registers (name, location_id) values ($1, $2)', ['Brooklyn till', brooklynId]);

  // Products with stock enough to share, in a stable order; lot-tracked ones travel by lot.
  const stocked = await q<{ id: string; stock: number }>(
    `select p.id, s.stock from products p join location_stock s on s.product_id = p.id and s.location_id = $1
     where s.stock >= 20 order by p.name, p.id`,
    [mainId],
  );
  const share = (rows: typeof stocked, part: number) =>
    rows.map((row) => ({ product: row.id, quantity: Math.max(1, Math.floor(row.stock * part)) }));
  const actor = admin;
  const step = (work: Parameters<Database['db']['transaction']>[0]) => database.db.transaction(work);

  /** A transfer made and sent; answers its id. */
  const sent = async (
    from: string,
    to: string,
    lines: { product: string; quantity: number }[],
    note: string,
  ) => {
    let id = '';
    await step(async (tx) => {
      id = await insertTransfer(tx, { from, to, lines, note }, actor);
    });
    await step((tx) => sendTransfer(tx, id, actor));
    return id;
  };
  const lineIds = async (id: string) =>
    q<{ id: string; sent: number }>(
      'select id, sent from transfer_lines where transfer_id = $1 order by line_no',
      [id],
    );
  const receiveAll = async (id: string) => {
    const lines = await lineIds(id);
    await step((tx) =>
      receiveTransfer(
        tx,
        id,
        lines.map((line) => ({ line: line.id, received: line.sent, lost: 0 })),
        actor,
      ),
    );
  };

  // The stockroom holds the back stock: 40 % of the best-stocked third, received whole.
  const back = stocked.filter((_, i) => i % 3 === 0).slice(0, 40);
  for (let start = 0; start < back.length; start += 20)
    await receiveAll(
      await sent(
        mainId,
        stockroomId,
        share(back.slice(start, start + 20), 0.4),
        'Back stock to the stockroom',
      ),
    );
  // The Brooklyn shop opened with a quarter of another third.
  const opening = stocked.filter((_, i) => i % 3 === 1).slice(0, 45);
  for (let start = 0; start < opening.length; start += 15)
    await receiveAll(
      await sent(
        mainId,
        brooklynId,
        share(opening.slice(start, start + 15), 0.25),
        'Opening stock for Brooklyn',
      ),
    );

  const some = (rows: typeof stocked, n: number, part: number) =>
    share(rows.filter(() => random() < 0.5).slice(0, n), part);
  // On the road now: the stockroom refilling the main store's shelves.
  await sent(stockroomId, mainId, some(back, 4, 0.2), 'Shelf refill');
  // Partly received at Brooklyn, one unit broken on the way.
  const partly = await sent(stockroomId, brooklynId, some(back, 5, 0.2), 'Weekly top-up');
  const partlyLines = await lineIds(partly);
  await step((tx) =>
    receiveTransfer(
      tx,
      partly,
      partlyLines.slice(0, 3).map((line, i) => ({
        line: line.id,
        received: Math.max(0, line.sent - (i === 0 ? 1 : 0)),
        lost: i === 0 ? 1 : 0,
      })),
      actor,
    ),
  );
  // Closed: sent to Brooklyn, half received, the rest sent back to the main store.
  const closed = await sent(mainId, brooklynId, some(opening, 3, 0.1), 'Promotion stock');
  const closedLines = await lineIds(closed);
  await step((tx) =>
    receiveTransfer(
      tx,
      closed,
      closedLines.map((line) => ({ line: line.id, received: Math.floor(line.sent / 2), lost: 0 })),
      actor,
    ),
  );
  await step((tx) => cancelTransfer(tx, closed, actor));
  // A draft not sent yet, and one cancelled before it left.
  await step(async (tx) => {
    await insertTransfer(
      tx,
      { from: mainId, to: brooklynId, lines: some(opening, 3, 0.1), note: 'Next week' },
      actor,
    );
  });
  let cancelled = '';
  await step(async (tx) => {
    cancelled = await insertTransfer(
      tx,
      { from: stockroomId, to: mainId, lines: some(back, 2, 0.1), note: 'Entered twice' },
      actor,
    );
  });
  await step((tx) => cancelTransfer(tx, cancelled, actor));
}
