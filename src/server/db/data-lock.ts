import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The embedded database's folder belongs to one server at a time (decision 0037). PGlite takes no
 * lock of its own: two servers on one folder each keep their own copy of its pages in memory and
 * write over each other's, so writes the first acknowledged are gone after a restart. The folder's
 * lock is a file created exclusively (a hard link, which fails when the name exists), naming the process that holds it and when that process
 * started; a lock whose process is gone (killed, the machine restarted, the pid now another
 * program's) is taken over. Taking one over is itself done under a second exclusive file, so two
 * servers finding the same stale lock never both take it.
 */

/** The lock's file inside the data folder. */
export const LOCK_FILE = 'inventory-ms.lock';
const TAKEOVER_FILE = 'inventory-ms.lock.takeover';

/** What a lock file says: who holds it. */
type Holder = { pid: number; started: string | null };

/** Folders this process holds, so a second open in the same process is refused too. */
const held = new Set<string>();

export class DataFolderInUse extends Error {
  constructor(folder: string, pid: number) {
    super(
      `The data folder ${folder} is in use by another server (process ${pid}); stop that server first, or set DATA_DIR to another folder.`,
    );
    this.name = 'DataFolderInUse';
  }
}

/** When a process started (clock ticks since boot, Linux's /proc), or null where it cannot be read. */
function startedAt(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields count from its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists and belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): Holder | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof parsed.pid === 'number' && Number.isInteger(parsed.pid) && parsed.pid > 0
      ? { pid: parsed.pid, started: typeof parsed.started === 'string' ? parsed.started : null }
      : null;
  } catch {
    return null;
  }
}

/** Whether the process a lock names still runs: the same pid, started when the lock says. */
function holds(holder: Holder, folder: string): boolean {
  if (holder.pid === process.pid) return held.has(folder);
  if (!alive(holder.pid)) return false;
  // The pid runs, but it may be another program that got the number after a restart.
  const started = startedAt(holder.pid);
  return holder.started === null || started === null || started === holder.started;
}

/**
 * Creates `path` only when it does not exist, holding this process; false when it exists. The
 * content is written to a file of this process's own first and linked into place, so a lock is never
 * seen empty (half made) by another server.
 */
function create(path: string): boolean {
  const own = `${path}.${process.pid}`;
  writeFileSync(own, JSON.stringify({ pid: process.pid, started: startedAt(process.pid) }));
  try {
    linkSync(own, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new Error(`Could not lock the data folder (${path}): ${(error as Error).message}`);
  } finally {
    remove(own);
  }
}

function remove(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Takes the lock of `dataDir` (which exists) for this process, or throws DataFolderInUse naming
 * the process that holds it. Answers the release, which the database's close calls; a process that
 * ends without it leaves a stale lock, taken over by the next server.
 */
export function lockDataFolder(dataDir: string): () => void {
  const folder = resolve(dataDir);
  const lock = join(folder, LOCK_FILE);
  const takeover = join(folder, TAKEOVER_FILE);
  for (let attempt = 0; attempt < 50; attempt++) {
    if (create(lock)) {
      held.add(folder);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        held.delete(folder);
        if (readHolder(lock)?.pid === process.pid) remove(lock);
        process.off('exit', release);
      };
      process.on('exit', release);
      return release;
    }
    const holder = readHolder(lock);
    if (holder && holds(holder, folder)) throw new DataFolderInUse(folder, holder.pid);
    // Stale (or unreadable: a server killed between creating and writing it). Take it over under
    // the takeover file; one whose own taker died is stale too.
    if (!create(takeover)) {
      const taker = readHolder(takeover);
      if (!taker || !holds(taker, folder)) remove(takeover);
      continue;
    }
    try {
      const again = readHolder(lock);
      if (again?.pid === holder?.pid && again?.started === holder?.started) remove(lock);
    } finally {
      remove(takeover);
    }
  }
  throw new Error(
    `Could not take the lock of the data folder ${folder}; remove ${lock} if no server uses it.`,
  );
}
