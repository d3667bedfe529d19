/** The rows of a raw `db.execute` answer, whichever driver (PGlite or node-postgres) gave it. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}
