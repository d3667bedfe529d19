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

/**
 * An open-loop load: a request every 1/rate seconds, each timed from when it was due, so a slow
 * answer cannot hold back the next request and hide itself (autocannon's rate option sends each
 * second's quota at once and then waits, which measures a burst instead).
 */
export async function steadyLoad(options: SteadyOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
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
  const interval = 1000 / options.rate;
  const total = Math.round(options.rate * options.duration);
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(
      send(new URL(options.urlFor ? options.urlFor(i) : options.url), i).then(
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
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? 0;
  const requests = latencies.length;
  return {
    name: options.name,
    connections: options.connections,
    requests,
    rps: requests / elapsed,
    p50: at(50),
    p99: at(99),
    errors,
    statuses,
  };
}
