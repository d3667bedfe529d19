import { Redis } from 'ioredis';

/**
 * State that must hold across every instance of the server: the login throttle's counters and
 * the revoked tokens (DESIGN §7). With REDIS_URL it lives in Redis, so a limit or a sign-out
 * holds on every instance at once; without it (one instance) it lives in this process. When Redis
 * stops answering the server keeps serving on per-process state, and says so once in the log.
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

/** Past this many entries the memory state drops the expired ones on the next write. */
const PRUNE_AT = 10_000;

export class MemoryState implements SharedState {
  private readonly counts = new Map<string, { count: number; resetAt: number }>();
  private readonly revoked = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async hit(keys: readonly string[], windowMs: number) {
    const now = this.now();
    if (this.counts.size >= PRUNE_AT) prune(this.counts, (entry) => entry.resetAt <= now);
    return keys.map((key) => {
      let entry = this.counts.get(key);
      if (!entry || entry.resetAt <= now) {
        entry = { count: 0, resetAt: now + windowMs };
        this.counts.set(key, entry);
      }
      entry.count += 1;
      return { count: entry.count, leftMs: entry.resetAt - now };
    });
  }

  async undo(keys: readonly string[]) {
    for (const key of keys) {
      const entry = this.counts.get(key);
      if (entry && entry.count > 0) entry.count -= 1;
    }
  }

  async revoke(id: string, untilMs: number) {
    const now = this.now();
    if (this.revoked.size >= PRUNE_AT) prune(this.revoked, (until) => until <= now);
    this.revoked.set(id, untilMs);
  }

  async isRevoked(id: string) {
    const until = this.revoked.get(id);
    return until !== undefined && until > this.now();
  }

  async close() {}
}

function prune<V>(map: Map<string, V>, expired: (value: V) => boolean): void {
  for (const [key, value] of map) if (expired(value)) map.delete(key);
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
 * Redis first, this process's memory when Redis fails. Revocations are written to both, so a
 * token signed out here stays refused here even while Redis is away.
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
        this.log.info('Redis answers again: login limits and sign-outs are shared by every instance.');
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
      `Redis is not answering (${reason}): login limits and sign-outs now hold for this instance only, until it returns.`,
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
