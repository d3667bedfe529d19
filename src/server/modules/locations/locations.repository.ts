import type { Location, LocationKind } from '../../../shared/locations';
import { type Runner, runnerOf } from '../../db/connection';
import { pgCode, refuse, violatedConstraint } from '../../lib/errors';
import { type Actor, changedFields, createdFields, recordAudit, type Tx } from '../audit/audit.repository';

/**
 * Locations (DESIGN §17): the shops and stockrooms stock lives in. Never deleted (movements name
 * them); deactivated only when nothing is held there (locationUses).
 */

type LocationRow = { id: string; name: string; kind: LocationKind; address: string; active: boolean };

const COLUMNS = 'id, name, kind, address, active';

const toLocation = (row: LocationRow): Location => ({
  _id: row.id,
  name: row.name,
  kind: row.kind,
  address: row.address,
  active: row.active,
});

const audited = (location: Location) => ({
  name: location.name,
  kind: location.kind,
  address: location.address,
  active: location.active,
});

/** A taken name, also when two writers race past the check (locations_name_lower_key). */
async function unlessNameTaken<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (pgCode(error) === '23505' && violatedConstraint(error) === 'locations_name_lower_key')
      throw refuse('LOCATION_NAME_TAKEN');
    throw error;
  }
}

async function nameTaken(run: Runner, name: string, exceptId: string | null): Promise<boolean> {
  const rows = await run.query(
    'select 1 from locations where lower(name) = lower($1) and ($2::uuid is null or id <> $2::uuid)',
    [name, exceptId],
  );
  return rows.length > 0;
}

/** Every location by name, ignoring case (inactive ones too, marked). */
export async function listLocations(runner: Runner): Promise<Location[]> {
  const rows = await runner.query<LocationRow>(`select ${COLUMNS} from locations order by lower(name), id`);
  return rows.map(toLocation);
}

/** Creates a location (names unique ignoring case: 409), with its audit entry. */
export async function createLocation(
  tx: Tx,
  input: { name: string; kind: LocationKind; address: string },
  actor: Actor,
): Promise<Location> {
  const run = runnerOf(tx);
  if (await nameTaken(run, input.name, null)) throw refuse('LOCATION_NAME_TAKEN');
  const [row] = await unlessNameTaken(() =>
    run.query<LocationRow>(
      `insert into locations (name, kind, address) values ($1, $2, $3) returning ${COLUMNS}`,
      [input.name, input.kind, input.address],
    ),
  );
  const location = toLocation(row as LocationRow);
  await recordAudit(tx, {
    actor,
    action: 'created',
    entity: { type: 'location', id: location._id, name: location.name },
    changes: createdFields(audited(location)),
  });
  return location;
}

/**
 * What keeps a location from being deactivated (DESIGN §17), each as the end of the sentence
 * "<name> cannot be deactivated: it …": stock there, an open till session on one of its
 * registers, a transfer sent from or to it and not yet wholly received, lost or returned, or
 * being the store's default location.
 */
export async function locationUses(run: Runner, id: string): Promise<string[]> {
  const [row] = await run.query<{
    stock: boolean;
    session: boolean;
    transfer: boolean;
    stocktake: boolean;
    isDefault: boolean;
  }>(
    `select
       exists (select 1 from location_stock where location_id = $1::uuid and stock > 0) as stock,
       exists (select 1 from register_sessions s join registers r on r.id = s.register_id
               where r.location_id = $1::uuid and s.status = 'open') as session,
       exists (select 1 from transfers
               where (from_location_id = $1::uuid or to_location_id = $1::uuid)
                 and status in ('inTransit', 'partiallyReceived')) as transfer,
       exists (select 1 from stocktakes where location_id = $1::uuid and status = 'counting') as stocktake,
       default_location() = $1::uuid as "isDefault"`,
    [id],
  );
  return [
    row?.stock && 'holds stock',
    row?.session && 'has an open till session',
    row?.transfer && 'has an open transfer',
    row?.stocktake && 'has an open stocktake',
    row?.isDefault && 'is the default location',
  ].filter((use): use is string => typeof use === 'string');
}

/** "a", "a and b", "a, b and c". */
const listed = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/**
 * Changes the fields named; undefined when there is no such location. The location is locked
 * first, so a deactivation judges what is held there against the row no other change is making.
 * A deactivation is refused (LOCATION_IN_USE) naming every reason (locationUses).
 */
export async function updateLocation(
  tx: Tx,
  id: string,
  changes: { name?: string; kind?: LocationKind; address?: string; active?: boolean },
  actor: Actor,
): Promise<Location | undefined> {
  const run = runnerOf(tx);
  const [row] = await run.query<LocationRow>(
    `select ${COLUMNS} from locations where id = $1::uuid for update`,
    [id],
  );
  if (!row) return undefined;
  if (changes.name !== undefined && (await nameTaken(run, changes.name, id)))
    throw refuse('LOCATION_NAME_TAKEN');
  if (changes.active === false && row.active) {
    const uses = await locationUses(run, id);
    if (uses.length > 0) throw refuse('LOCATION_IN_USE', { location: row.name, what: listed(uses) });
  }
  const [updated] = await unlessNameTaken(() =>
    run.query<LocationRow>(
      `update locations set name = coalesce($2::text, name), kind = coalesce($3::text, kind),
              address = coalesce($4::text, address), active = coalesce($5::boolean, active)
       where id = $1::uuid returning ${COLUMNS}`,
      [id, changes.name ?? null, changes.kind ?? null, changes.address ?? null, changes.active ?? null],
    ),
  );
  const before = toLocation(row);
  const after = toLocation(updated as LocationRow);
  const changed = changedFields(audited(before), audited(after));
  if (changed.length > 0) {
    const action = before.active === after.active ? 'updated' : after.active ? 'reactivated' : 'deactivated';
    await recordAudit(tx, {
      actor,
      action,
      entity: { type: 'location', id, name: after.name },
      changes: changed,
    });
  }
  return after;
}
