import type { Runner } from '../../db/connection';
import { notFound, refuse } from '../../lib/errors';

/** A location as a write resolves it: its id and name. */
export type LocationRef = { id: string; name: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The one place a write or a read resolves the location it names (DESIGN §17): the given id, or
 * the default location (default_location.sql) when none is given. An id that names no location
 * is a 404 "Location not found."; an inactive one is refused (LOCATION_INACTIVE, 409) unless
 * `inactive: 'allowed'` (reads, and reports of the past, may name an inactive location).
 */
export async function locationFor(
  runner: Pick<Runner, 'query'>,
  id: string | null | undefined,
  options: { inactive?: 'refused' | 'allowed' } = {},
): Promise<LocationRef> {
  if (id !== null && id !== undefined && !UUID.test(id)) throw notFound('Location');
  const [row] = await runner.query<{ id: string; name: string; active: boolean }>(
    'select id, name, active from locations where id = coalesce($1::uuid, default_location())',
    [id ?? null],
  );
  if (!row) throw notFound('Location');
  if (!row.active && options.inactive !== 'allowed')
    throw refuse('LOCATION_INACTIVE', { location: row.name });
  return { id: row.id, name: row.name };
}
