import { Writable } from 'node:stream';

/** What the log keeps of an error: never a failed statement's parameters or a row's values. */
export function safeErrorForLog(error: unknown): {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
} {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error), stack: '' };
  const withoutParams = (text: string) => text.split(/\nparams:/)[0] ?? '';
  const { cause, code } = error as { cause?: unknown; code?: unknown };
  return {
    type: error.name,
    message: withoutParams(error.message),
    ...(typeof code === 'string' ? { code } : {}),
    ...(cause instanceof Error ? { cause: { type: cause.name, message: withoutParams(cause.message) } } : {}),
    // Only the frames: the stack's first lines repeat the message, parameters included.
    stack: (error.stack ?? '')
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n'),
  };
}

/**
 * How the server writes its log: readable lines for a person at a terminal, one JSON object a line
 * when the output goes to a file or a collector, and always in production.
 */
export type LogFormat = 'readable' | 'json';

export function chooseLogFormat(output: { isTTY?: boolean }, production: boolean): LogFormat {
  return output.isTTY === true && !production ? 'readable' : 'json';
}

const LEVEL: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Fields a line shows in its own way, or not at all (the same on every line). */
const SHOWN = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'reqId',
  'req',
  'res',
  'err',
  'responseTime',
]);
const MAX_OPEN_REQUESTS = 10_000;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function clock(time: unknown): string {
  const date = new Date(typeof time === 'number' ? time : Date.now());
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

function plainValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An error as safeErrorForLog keeps it: type, code, message, cause and frames, nothing else. */
function errorLines(err: Record<string, unknown>): string {
  const code = typeof err.code === 'string' ? ` [${err.code}]` : '';
  let text = `\n  ${String(err.type ?? 'Error')}${code}: ${String(err.message ?? '')}`;
  const cause = err.cause as Record<string, unknown> | undefined;
  if (cause && typeof cause === 'object')
    text += `\n  caused by ${String(cause.type ?? 'Error')}: ${String(cause.message ?? '')}`;
  if (typeof err.stack === 'string' && err.stack) text += `\n${err.stack.replace(/^\s*/gm, '    ')}`;
  return text;
}

/**
 * Turns the JSON log lines of the server into lines a person reads: time, level, message, and for
 * a request its method, address, status and duration ("15:04:05.123 INFO  GET /api/products 200
 * 12 ms"). A request's method and address come from its "incoming request" line, which is not
 * shown itself. A line that is not JSON passes as it is.
 */
export class ReadableLog {
  private readonly requests = new Map<string, string>();

  line(json: string): string | undefined {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(json);
    } catch {
      return json;
    }
    if (!entry || typeof entry !== 'object') return json;
    const level = (LEVEL[Number(entry.level)] ?? String(entry.level ?? '')).padEnd(5);
    const reqId = entry.reqId === undefined ? undefined : String(entry.reqId);
    const req = entry.req as { method?: unknown; url?: unknown } | undefined;
    const res = entry.res as { statusCode?: unknown } | undefined;
    if (reqId !== undefined && req && typeof req === 'object' && entry.msg === 'incoming request') {
      if (this.requests.size >= MAX_OPEN_REQUESTS) this.requests.clear();
      this.requests.set(reqId, `${String(req.method)} ${String(req.url)}`);
      return undefined;
    }
    const request = reqId === undefined ? undefined : this.requests.get(reqId);
    let text: string;
    if (res && typeof res === 'object' && entry.msg === 'request completed') {
      if (reqId !== undefined) this.requests.delete(reqId);
      const ms = typeof entry.responseTime === 'number' ? ` ${Math.round(entry.responseTime)} ms` : '';
      text = `${request ?? 'request'} ${String(res.statusCode)}${ms}`;
    } else {
      text = `${request ? `${request}: ` : ''}${String(entry.msg ?? '')}`;
    }
    for (const [key, value] of Object.entries(entry))
      if (!SHOWN.has(key) && value !== undefined) text += ` ${key}=${plainValue(value)}`;
    if (entry.err && typeof entry.err === 'object') text += errorLines(entry.err as Record<string, unknown>);
    return `${clock(entry.time)} ${level} ${text}`;
  }
}

/** A stream for the logger that writes readable lines to `out` (a terminal). */
export function readableLogStream(out: NodeJS.WritableStream): Writable {
  const readable = new ReadableLog();
  let rest = '';
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      let text = '';
      for (const line of lines) {
        if (!line) continue;
        const shown = readable.line(line);
        if (shown !== undefined) text += `${shown}\n`;
      }
      if (text) out.write(text);
      done();
    },
  });
}
