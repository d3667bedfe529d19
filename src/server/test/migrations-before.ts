import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../lib/project-root';

/** The project's migrations folder. */
export const MIGRATIONS = join(projectRoot(), 'migrations');

/**
 * A copy of the migrations folder as it was before the migration `tag` (its files, and a journal
 * cut there), to make a database as an older server left it. The caller deletes the folder.
 */
export function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ims-migrations-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const cut = journal.entries.findIndex((entry) => entry.tag === tag);
  if (cut <= 0) throw new Error(`no migration ${tag} after the first`);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}
