import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../lib/project-root';

/**
 * A long statement kept in a .sql file beside its repository (decision 0040), read from the
 * project folder as the database functions are (databaseFunctions in connection.ts), once, when
 * its module loads, so the server finds it whether it runs from src/ or from the bundle in dist/.
 *
 * The file opens with `-- ` lines saying what it does and what each `$n` is; they are left out of
 * the text sent. SQL that TypeScript builds (the one writer of a ledger, a fragment shared with
 * other statements) goes in by name: each `/* name *\/` in the file is replaced by `fills[name]`.
 * A placeholder without its fill, or a fill without its placeholder, is an error at load.
 */
export function sqlFile(path: string, fills: Record<string, string> = {}): string {
  const text = readFileSync(join(projectRoot(), path), 'utf8');
  const lines = text.split('\n');
  const body = lines.slice(lines.findIndex((line) => !line.startsWith('--'))).join('\n');
  for (const name of Object.keys(fills))
    if (!body.includes(`/* ${name} */`)) throw new Error(`${path} has no /* ${name} */ to fill`);
  const filled = body.replace(/\/\* ([a-z_]+) \*\//g, (_, name: string) => {
    const fill = fills[name];
    if (fill === undefined) throw new Error(`${path}: nothing fills /* ${name} */`);
    return fill;
  });
  return filled.trim().replace(/;$/, '');
}

/**
 * A file's statement split as signedInStatement takes it: the CTEs after its leading `with`, and
 * the answer, from the line that starts with `select` (CTE bodies are indented, so none does).
 */
export function withAndSelect(path: string, statement: string): { with: string; select: string } {
  const answer = statement.search(/^select\b/m);
  if (!statement.startsWith('with ') || answer < 0)
    throw new Error(`${path} must be "with …" CTEs, then a select at the start of a line`);
  return { with: statement.slice('with '.length, answer).trim(), select: statement.slice(answer) };
}
