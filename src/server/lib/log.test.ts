import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { chooseLogFormat, ReadableLog, readableLogStream, safeErrorForLog } from './log';

/** 15:04:05.123 on the reader's clock, as the logger stamps it. */
const TIME = new Date(2026, 10, 25, 15, 4, 5, 123).getTime();
const line = (entry: Record<string, unknown>) =>
  JSON.stringify({ level: 30, time: TIME, pid: 42, hostname: 'shop', ...entry });

describe('the log format', () => {
  it('is readable at a terminal, JSON when piped, and JSON in production even at a terminal', () => {
    expect(chooseLogFormat({ isTTY: true }, false)).toBe('readable');
    expect(chooseLogFormat({ isTTY: false }, false)).toBe('json');
    expect(chooseLogFormat({}, false)).toBe('json');
    expect(chooseLogFormat({ isTTY: true }, true)).toBe('json');
  });
});

describe('readable log lines', () => {
  it('writes time, level and message', () => {
    expect(new ReadableLog().line(line({ msg: 'Server listening at http://127.0.0.1:3000' }))).toBe(
      '15:04:05.123 INFO  Server listening at http://127.0.0.1:3000',
    );
    expect(new ReadableLog().line(line({ level: 40, msg: 'slow start', waited: 3 }))).toBe(
      '15:04:05.123 WARN  slow start waited=3',
    );
  });

  it('writes a request once, when it completes: method, address, status and milliseconds', () => {
    const log = new ReadableLog();
    const incoming = line({
      reqId: 'req-1',
      req: { method: 'GET', url: '/api/products?page=2', host: 'localhost', remoteAddress: '127.0.0.1' },
      msg: 'incoming request',
    });
    expect(log.line(incoming)).toBeUndefined();
    const done = line({
      reqId: 'req-1',
      res: { statusCode: 200 },
      responseTime: 12.4,
      msg: 'request completed',
    });
    expect(log.line(done)).toBe('15:04:05.123 INFO  GET /api/products?page=2 200 12 ms');
  });

  it('writes an error with the fields the log keeps of it, never a statement’s parameters', () => {
    const failed = Object.assign(
      new Error('insert into users failed\nparams: ann@example.com,$argon2id$secret'),
      {
        code: '23505',
      },
    );
    const log = new ReadableLog();
    log.line(line({ reqId: 'req-2', req: { method: 'POST', url: '/api/users' }, msg: 'incoming request' }));
    const text = log.line(
      line({ level: 50, reqId: 'req-2', err: safeErrorForLog(failed), msg: 'insert failed' }),
    );
    expect(text?.split('\n').slice(0, 2)).toEqual([
      '15:04:05.123 ERROR POST /api/users: insert failed',
      '  Error [23505]: insert into users failed',
    ]);
    expect(text).toMatch(/\n {4}at /);
    expect(text).not.toContain('ann@example.com');
    expect(text).not.toContain('argon2');
    // Even an error object that carries its parameters shows only the kept fields.
    const raw = log.line(
      line({ level: 50, err: { type: 'Error', message: 'failed', params: ['secret'] }, msg: 'x' }),
    );
    expect(raw).not.toContain('secret');
  });

  it('passes a line that is not JSON as it is', () => {
    expect(new ReadableLog().line('plain text')).toBe('plain text');
  });

  it('as a stream, turns lines split across writes into whole readable lines', async () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (chunk) => chunks.push(String(chunk)));
    const stream = readableLogStream(out);
    const text = `${line({ msg: 'first' })}\n${line({ msg: 'second' })}\n`;
    stream.write(text.slice(0, 30));
    stream.write(text.slice(30));
    await new Promise((resolve) => stream.end(resolve));
    expect(chunks.join('')).toBe('15:04:05.123 INFO  first\n15:04:05.123 INFO  second\n');
  });
});
