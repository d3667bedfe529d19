import { Redis } from 'ioredis';

/**
 * State shared by every instance of the server: the login throttle's counters and a cache of the
 * revoked tokens (DESIGN §7; the revocations themselves are kept in the database, decision 0017).
 * With REDIS_URL it lives in Redis, so a limit holds on every instance at once; without it (one
 * instance) it lives in this process. When Redis stops answering the server keeps serving on
 * per-process state, and says so once in the log.
 */
export interface SharedState {
  /**
   * Adds one to each key and answers each key's count and the milliseconds left in its window.
   * A key's window starts at its first hit and lasts windowMs.
   */
  hit(keys: readonly string[], windowMs: number): Promise<Array<{ count: number; leftMs: number }>>;
  /** Takes one back from each key that is above zero. */
  undo(keys: readonly string[]): Promise<void>;
  /** Marks an id revoked until the given time (ms since the epoch). */
  revoke(id: string, untilMs: number): Promise<void>;
  isRevoked(id: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * How much the memory state keeps: counters (each attempt touches three, or one for a known
 * device) and revoked token ids. At the caps it holds about 25 MB (throttle.test.ts measures it).
 */
export const MEMORY_CAPS = { counters: 50_000, revoked: 10_000 };

/** Expired entries dropped from the front of a queue per write: more than one write adds. */
const DROP_PER_WRITE = 2;

type Counter = { key: string; count: number; resetAt: number; repeated: boolean };
type Revocation = { id: string; until: number };

/**
 * A first-in first-out queue with O(1) amortised push and shift. (A Map's own order is not one:
 * V8 leaves a deleted entry as a hole that the next walk from the front steps over again, until
 * the table is rebuilt, so a Map used as a queue costs O(n) per shift.)
 */
class Queue<T> {
  private items: T[] = [];
  private head = 0;

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.items[this.head];
  }

  shift(): void {
    this.head += 1;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

/**
 * This process's throttle counters and revocations, bounded, with O(1) amortised work per attempt:
 * entries are queued in the order they began, so expired ones are dropped from the front a few at
 * a time, and past the cap the oldest goes. Nothing scans the whole map.
 *
 * Forgetting a counter hands its key a fresh allowance, so a flood of distinct keys must not be
 * able to push out the counters that matter. Counters seen once (one failure for an email or an
 * address: all that a flood of distinct keys makes) queue apart from those hit again, and the cap
 * evicts the once-seen first. A counter that is holding a guesser back has been hit repeatedly and
 * goes only when more repeated counters than the cap are live in one window (decision 0017).
 * Revocations are a cache of the database here: evicting one costs a database read, not safety.
 */
export class MemoryState implements SharedState {
  private readonly counters = new Map<string, Counter>();
  /** Each counter once, in the order it began; an entry since promoted or restarted is skipped. */
  private readonly seenOnce = new Queue<Counter>();
  private readonly seenAgain = new Queue<Counter>();
  private readonly revoked = new Map<string, Revocation>();
  private readonly revokedOrder = new Queue<Revocation>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly caps: { counters: number; revoked: number } = MEMORY_CAPS,
  ) {}

  /** How many counters and revocations are held. */
  get size(): { counters: number; revoked: number } {
    return { counters: this.counters.size, revoked: this.revoked.size };
  }

  async hit(keys: readonly string[], windowMs: number) {
    const now = this.now();
    return keys.map((key) => {
      let entry = this.counters.get(key);
      if (entry && entry.resetAt <= now) {
        this.counters.delete(key);
        entry = undefined;
      }
      if (!entry) {
        this.makeRoom(now);
        entry = { key, count: 1, resetAt: now + windowMs, repeated: false };
        this.counters.set(key, entry);
        this.seenOnce.push(entry);
      } else {
        entry.count += 1;
        if (!entry.repeated) {
          entry.repeated = true;
          this.seenAgain.push(entry);
        }
      }
      return { count: entry.count, leftMs: entry.resetAt - now };
    });
  }

  async undo(keys: readonly string[]) {
    for (const key of keys) {
      const entry = this.counters.get(key);
      if (entry && entry.count > 0) entry.count -= 1;
    }
  }

  async revoke(id: string, untilMs: number) {
    const now = this.now();
    for (let i = 0; i < DROP_PER_WRITE; i++) {
      const first = this.liveRevocation();
      if (!first || first.until > now) break;
      this.revoked.delete(first.id);
    }
    if (!this.revoked.has(id) && this.revoked.size >= this.caps.revoked) {
      const oldest = this.liveRevocation();
      if (oldest) this.revoked.delete(oldest.id);
    }
    const entry = { id, until: untilMs };
    this.revoked.set(id, entry);
    this.revokedOrder.push(entry);
  }

  async isRevoked(id: string) {
    const entry = this.revoked.get(id);
    return entry !== undefined && entry.until > this.now();
  }

  async close() {}

  /** Before a new counter: drops a few expired ones, then the least useful one past the cap. */
  private makeRoom(now: number): void {
    for (const queue of [this.seenOnce, this.seenAgain]) {
      for (let i = 0; i < DROP_PER_WRITE; i++) {
        const first = this.liveCounter(queue);
        if (!first || first.resetAt > now) break;
        this.counters.delete(first.key);
      }
    }
    if (this.counters.size < this.caps.counters) return;
    const victim = this.liveCounter(this.seenOnce) ?? this.liveCounter(this.seenAgain);
    if (victim) this.counters.delete(victim.key);
  }

  /**
   * The queue's first entry that is still the live counter of its kind. Stale ones (deleted,
   * restarted, or promoted out of the once-seen) are shifted off: each entry is queued at most
   * twice, so this is O(1) amortised.
   */
  private liveCounter(queue: Queue<Counter>): Counter | undefined {
    const again = queue === this.seenAgain;
    for (let first = queue.peek(); first; first = queue.peek()) {
      if (this.counters.get(first.key) === first && first.repeated === again) return first;
      queue.shift();
    }
    return undefined;
  }

  private liveRevocation(): Revocation | undefined {
    for (let first = this.revokedOrder.peek(); first; first = this.revokedOrder.peek()) {
      if (this.revoked.get(first.id) === first) return first;
      this.revokedOrder.shift();
    }
    return undefined;
  }
}

/** INCR each key, starting its window on the first hit; answers count and ms left per key. */
const HIT = `
local out = {}
for _, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  local left = redis.call('PTTL', key)
  if left < 0 then
    redis.call('PEXPIRE', key, ARGV[1])
    left = tonumber(ARGV[1])
  end
  out[#out + 1] = n
  out[#out + 1] = left
end
return out`;

const UNDO = `
for _, key in ipairs(KEYS) do
  local n = tonumber(redis.call('GET', key) or '0')
  if n > 0 then redis.call('DECR', key) end
end
return 0`;

const PREFIX = 'ims:';

/**
 * Redis first, this process's memory when Redis fails. Revocations are written to both as an
 * early refusal; the database's revoked_tokens is what refuses a signed-out token everywhere.
 */
export class RedisState implements SharedState {
  private readonly redis: Redis;
  private readonly memory = new MemoryState();
  private degraded = false;

  private constructor(
    url: string,
    private readonly log: { warn(message: string): void; info(message: string): void },
  ) {
    this.redis = new Redis(url, {
      // Fail fast instead of queueing while Redis is away: the memory fallback answers then.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
      commandTimeout: 500,
      lazyConnect: false,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    // An unreachable Redis must not crash the process; the first failure is logged by fallback().
    this.redis.on('error', () => {});
    this.redis.on('ready', () => {
      if (this.degraded) {
        this.degraded = false;
        this.log.info('Redis answers again: login limits are shared by every instance.');
      }
    });
  }

  /** Connects, waiting up to a second for Redis; a Redis that is down then is logged once. */
  static async open(
    url: string,
    log: { warn(message: string): void; info(message: string): void },
  ): Promise<RedisState> {
    const state = new RedisState(url, log);
    const ready = await new Promise<boolean>((resolve) => {
      if (state.redis.status === 'ready') return resolve(true);
      const timer = setTimeout(() => resolve(false), 1000);
      state.redis.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!ready) state.fallback(new Error('no connection at start-up'));
    return state;
  }

  private fallback(error: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.log.warn(
      `Redis is not answering (${reason}): login limits now hold for this instance only, until it returns; sign-outs still hold everywhere.`,
    );
  }

  private async attempt<T>(work: () => Promise<T>, otherwise: () => Promise<T>): Promise<T> {
    if (this.redis.status !== 'ready') {
      this.fallback(new Error(`connection ${this.redis.status}`));
      return otherwise();
    }
    try {
      return await work();
    } catch (error) {
      this.fallback(error);
      return otherwise();
    }
  }

  hit(keys: readonly string[], windowMs: number) {
    return this.attempt(
      async () => {
        const flat = (await this.redis.eval(
          HIT,
          keys.length,
          ...keys.map((key) => PREFIX + key),
          windowMs,
        )) as number[];
        return keys.map((_, i) => ({ count: Number(flat[2 * i]), leftMs: Number(flat[2 * i + 1]) }));
      },
      () => this.memory.hit(keys, windowMs),
    );
  }

  undo(keys: readonly string[]) {
    return this.attempt(
      async () => {
        await this.redis.eval(UNDO, keys.length, ...keys.map((key) => PREFIX + key));
      },
      () => this.memory.undo(keys),
    );
  }

  async revoke(id: string, untilMs: number) {
    await this.memory.revoke(id, untilMs);
    const ttl = Math.max(1, Math.ceil(untilMs - Date.now()));
    await this.attempt(
      async () => {
        await this.redis.set(`${PREFIX}revoked:${id}`, '1', 'PX', ttl);
      },
      async () => {},
    );
  }

  async isRevoked(id: string) {
    if (await this.memory.isRevoked(id)) return true;
    return this.attempt(
      async () => (await this.redis.exists(`${PREFIX}revoked:${id}`)) === 1,
      async () => false,
    );
  }

  async close() {
    this.redis.disconnect();
  }
}
