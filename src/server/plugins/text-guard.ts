import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';
import { badTextPath, urlHoldsBadText } from '../lib/text-guard';
import { errorBody } from './error-body';

const BAD_TEXT = 'Text must not contain NUL characters or invalid Unicode.';

/**
 * NUL and invalid UTF-16 are refused everywhere (DESIGN §7): in the path and the query on
 * arrival, in a JSON body once it is parsed.
 */
export function refuseBadText(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (urlHoldsBadText(request.url)) throw new AppError(400, BAD_TEXT);
  });
  app.addHook('preValidation', async (request, reply) => {
    const path = badTextPath(request.body);
    if (path === undefined) return;
    const error = path ? `${path}: ${BAD_TEXT}` : BAD_TEXT;
    return reply.code(400).send(errorBody(400, error, [{ path, message: BAD_TEXT }]));
  });
}
