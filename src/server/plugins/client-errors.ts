import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { errorBody } from './error-body';

/**
 * Failures Node's HTTP parser meets before Fastify sees a request (a request line or headers past
 * 16 KB, a malformed request, a request that took too long to arrive): answered in the error
 * shape too, then the connection is closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, sentence] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request address or headers are too long.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive.']
        : [400, 'The request could not be understood.'];
  const body = JSON.stringify(errorBody(status, sentence));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Errors the router meets before any route runs, answered in the error shape. No hook runs for
 * these answers, so the no-store the onSend hook gives every /api answer is set here.
 */
export const answerFrameworkError: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error,
  _request,
  reply,
) => {
  // A path segment longer than any real id names nothing we have.
  const [status, sentence] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? [404, 'Not found.'] : [400, 'The address is not valid.'];
  return reply
    .code(status as never)
    .header('cache-control', 'no-store')
    .send(errorBody(status, sentence) as never);
};
