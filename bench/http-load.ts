import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Transport errors and timeouts. */
  errors: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  note?: string;
}

export interface LoadOptions {
  name: string;
  url: string;
  connections: number;
  duration: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Makes each request's body; runs in this process. */
  makeBody?: () => string;
  /** Makes each request's path (and body, when it answers one); runs in this process. */
  makeRequest?: () => { path: string; body?: string };
  /** Different headers per connection (e.g. one token per simulated user). */
  headersFor?: (connection: number) => Record<string, string>;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  let connection = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.duration,
    method: options.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: options.body,
    timeout: 10,
    ...(options.headersFor
      ? {
          setupClient: (client: { setHeaders: (h: Record<string, string>) => void }) => {
            client.setHeaders({
              'content-type': 'application/json',
              ...options.headers,
              ...options.headersFor?.(connection++),
            });
          },
        }
      : {}),
    ...(options.makeBody || options.makeRequest
      ? {
          requests: [
            {
              method: options.method ?? 'GET',
              setupRequest: (request: Record<string, unknown>) => {
                const made = options.makeRequest?.();
                const body = made?.body ?? options.makeBody?.();
                return { ...request, ...(made ? { path: made.path } : {}), ...(body ? { body } : {}) };
              },
            },
          ],
        }
      : {}),
  } as autocannon.Options);
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) {
    statuses[code] = Number((stat as { count: number | string }).count);
  }
  const requests = Object.values(statuses).reduce((a, b) => a + b, 0);
  return {
    name: options.name,
    connections: options.connections,
    requests,
    rps: requests / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    statuses,
  };
}
