import { Agent, request } from 'node:http';
import type { LoadResult } from './http-load';

export interface SteadyOptions {
  name: string;
  url: string;
  /** The URL of the i-th request, when they differ (e.g. one product after another); else `url`. */
  urlFor?: (i: number) => string;
  headers?: Record<string, string>;
  /** The i-th request's own headers (e.g. one seller after another), added to `headers`. */
  headersFor?: (i: number) => Record<string, string>;
  /** POST with the i-th body, when given; else GET. */
  bodyFor?: (i: number) => string;
  /** Requests per second, sent evenly spaced whether or not earlier answers have come back. */
  rate: number;
  duration: number;
  /** Keep-alive connections to spread them over. */
  connections: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pace of an open-loop run: `rate` a second for `duration` seconds. */
export interface Pace {
  name: string;
  rate: number;
  duration: number;
  /** How many may be in flight at once (keep-alive connections, or the pool's clients). */
  connections: number;
}

/**
 * Calls `send(i)` every 1/rate seconds, whether or not earlier calls have answered, and times each
 * from when it was due, so a slow answer cannot hold back the next call and hide itself
 * (autocannon's rate option sends each second's quota at once and then waits, which measures a
 * burst instead). `send` answers a status (an HTTP code, or 200 for a statement that ran).
 */
export async function paced(pace: Pace, send: (i: number) => Promise<number>): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const interval = 1000 / pace.rate;
  const total = Math.round(pace.rate * pace.duration);
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(
      send(i).then(
        (status) => {
          latencies.push(performance.now() - due);
          statuses[status] = (statuses[status] ?? 0) + 1;
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(inFlight);
  return summary(pace, latencies, statuses, errors, (performance.now() - started) / 1000);
}

function summary(
  run: { name: string; connections: number },
  latencies: number[],
  statuses: Record<string, number>,
  errors: number,
  elapsed: number,
): LoadResult {
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? 0;
  return {
    name: run.name,
    connections: run.connections,
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: at(50),
    p99: at(99),
    errors,
    statuses,
  };
}

/**
 * A closed loop: `connections` callers each calling `send` again as soon as it answers, for
 * `duration` seconds (what autocannon does over HTTP, for work without HTTP).
 */
export async function flatOut(
  options: { name: string; duration: number; connections: number },
  send: () => Promise<number>,
): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const started = performance.now();
  const until = started + options.duration * 1000;
  const caller = async () => {
    while (performance.now() < until) {
      const sent = performance.now();
      try {
        const status = await send();
        latencies.push(performance.now() - sent);
        statuses[status] = (statuses[status] ?? 0) + 1;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, caller));
  return summary(options, latencies, statuses, errors, (performance.now() - started) / 1000);
}

/** An open-loop HTTP load (see paced). */
export async function steadyLoad(options: SteadyOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const send = (url: URL, i: number) =>
    new Promise<number>((resolve, reject) => {
      const body = options.bodyFor?.(i);
      const req = request(
        url,
        {
          agent,
          method: body === undefined ? 'GET' : 'POST',
          headers: { 'content-type': 'application/json', ...options.headers, ...options.headersFor?.(i) },
          timeout: 10_000,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end(body);
    });
  try {
    return await paced(options, (i) => send(new URL(options.urlFor ? options.urlFor(i) : options.url), i));
  } finally {
    agent.destroy();
  }
}
