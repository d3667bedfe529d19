import type { Role } from '../../shared/roles';
import type { CountInput, StocktakeLine } from '../../shared/stocktakes';
import type { Actor } from '../modules/audit/audit.repository';
import {
  insertStocktake,
  postStocktake,
  recordCounts,
  stocktakeLines,
} from '../modules/stocktakes/stocktakes.repository';
import type { Database } from './connection';

type Person = { id: string; name: string; role: Role };

/**
 * The demo's stocktakes (DESIGN §18), made, counted and posted through the stocktakes' own
 * functions, each step its own transaction as the app runs it, so every count and movement is
 * real:
 * - ST-000001, posted: the dispensary's monthly count of the prescription medicines at the Main
 *   store, lot by lot. Most lots are as the ledger says; three come up a box or two short, one a
 *   box over (a return put back unbooked), so the review shows a small shrinkage at cost.
 * - ST-000002, still counting: the whole Brooklyn shop, about half its lines counted so far by
 *   two of the staff, one scanning boxes one by one and one typing quantities.
 * Their times are the ones the repository writes (now, like the transfers seed-locations.ts
 * makes): backdating the posted one would leave its `count` movements, and the stock after each,
 * at a different moment than the stocktake says it was posted.
 */
export async function seedStocktakes(
  database: Database,
  seed: { admin: Person; staff: Person[] },
): Promise<void> {
  const q = database.query.bind(database);
  const { admin } = seed;
  const staff = (role: Role) => seed.staff.find((person) => person.role === role);
  const dispenser = staff('medicalRep');
  const scanner = staff('salesRep');
  const typist = staff('user');
  if (!dispenser || !scanner || !typist) return;
  const step = (work: Parameters<Database['db']['transaction']>[0]) => database.db.transaction(work);
  const linesOf = async (id: string) =>
    (await stocktakeLines(database, id, {}, { admin: true, blind: false })).lines;
  const count = (line: StocktakeLine, quantity: number, mode: CountInput['mode']): CountInput => ({
    product: line.product._id,
    ...(line.lot ? { lot: { number: line.lot.number } } : {}),
    quantity,
    mode,
  });
  const counted = (id: string, counts: CountInput[], actor: Actor) =>
    step(async (tx) => {
      await recordCounts(tx, id, counts, actor);
    });

  const [main] = await q<{ id: string }>('select default_location() as id');
  const [medicines] = await q<{ id: string }>(
    `select id from categories where name = 'Prescription Medicines'`,
  );
  if (main && medicines) {
    let id = '';
    await step(async (tx) => {
      id = await insertStocktake(
        tx,
        {
          location: main.id,
          categories: [medicines.id],
          blind: false,
          note: 'Monthly dispensary count, lot by lot.',
        },
        admin,
      );
    });
    const lines = (await linesOf(id)).filter((line) => (line.expected ?? 0) > 0);
    // The differences fall on the cheapest boxes (as shrinkage mostly does), the one over next.
    const cheapest = [...lines].sort((a, b) => (a.cost ?? 0) - (b.cost ?? 0) || a._id.localeCompare(b._id));
    const difference = new Map<string, number>();
    for (const [at, change] of [-1, -2, -1, 1].entries()) {
      const line = cheapest[at];
      if (line && (line.expected ?? 0) + change >= 0) difference.set(line._id, change);
    }
    // The medical rep scans the first lot's boxes one by one, then types the rest in two sittings.
    const [scanned, ...typed] = lines;
    if (scanned) {
      const boxes = (scanned.expected ?? 0) + (difference.get(scanned._id) ?? 0);
      for (let box = 0; box < boxes; box++) await counted(id, [count(scanned, 1, 'add')], dispenser);
    }
    const half = Math.ceil(typed.length / 2);
    for (const part of [typed.slice(0, half), typed.slice(half)])
      if (part.length > 0)
        await counted(
          id,
          part.map((line) => count(line, (line.expected ?? 0) + (difference.get(line._id) ?? 0), 'set')),
          dispenser,
        );
    await step(async (tx) => {
      await postStocktake(tx, id, 'keep', admin);
    });
  }

  const [brooklyn] = await q<{ id: string }>(`select id from locations where name = 'Brooklyn shop'`);
  if (brooklyn) {
    let id = '';
    await step(async (tx) => {
      id = await insertStocktake(
        tx,
        { location: brooklyn.id, blind: false, note: 'Quarterly count of the whole shop.' },
        admin,
      );
    });
    const lines = await linesOf(id);
    // About half counted: the sales rep scans every other line of the first half (two boxes short
    // on one), the employee types every other line of the second half (one short).
    const upTo = Math.ceil(lines.length / 2);
    const scanned = lines.slice(0, upTo).filter((_, at) => at % 2 === 0);
    const typed = lines.slice(upTo).filter((_, at) => at % 2 === 0);
    const short = new Map<string, number>();
    const shortOne = (among: StocktakeLine[], units: number) => {
      const line = among.find((each) => (each.expected ?? 0) >= 5);
      if (line) short.set(line._id, units);
    };
    shortOne(scanned.slice(1), 2);
    shortOne(typed.slice(1), 1);
    const found = (line: StocktakeLine) => (line.expected ?? 0) - (short.get(line._id) ?? 0);
    for (const line of scanned) {
      // A few scans, then the rest of a big shelf typed over them.
      const scans = Math.min(found(line), 6);
      for (let scan = 0; scan < scans; scan++) await counted(id, [count(line, 1, 'add')], scanner);
      if (found(line) > scans) await counted(id, [count(line, found(line), 'set')], scanner);
    }
    if (typed.length > 0)
      await counted(
        id,
        typed.map((line) => count(line, found(line), 'set')),
        typist,
      );
  }
}
