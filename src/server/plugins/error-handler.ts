import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { refusalSentence } from '../../shared/refusals';
import { MAX_BODY, sizeText } from '../lib/body-limit';
import { appErrorBody, businessError, duplicateRefusal, isDatabaseUnavailable, pgCode } from '../lib/errors';
import { errorBody } from './error-body';

/** One handler turns every error into the failure envelope (DESIGN §3); no SQL or stack leaks. */
export function errorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const business = businessError(error);
    if (business) return reply.code(business.status).send(appErrorBody(business));
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: issue.message ?? 'Invalid value.',
      }));
      const first = details[0];
      const sentence = first ? refusalSentence('VALIDATION', first) : 'Invalid request.';
      return reply.code(400).send(errorBody(400, sentence, details));
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = request.routeOptions.bodyLimit ?? MAX_BODY;
      return reply
        .code(413)
        .send(errorBody(413, `The request body is too large (${sizeText(limit)} at most for this call).`));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send(errorBody(415, 'Send the request body as JSON.'));
    }
    if (
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      error instanceof SyntaxError
    ) {
      return reply.code(400).send(errorBody(400, 'The request body is not valid JSON.'));
    }
    const code = pgCode(error);
    if (code === '23505') return reply.code(409).send(appErrorBody(duplicateRefusal(error)));
    if (code === '23503')
      return reply.code(409).send(errorBody(409, refusalSentence('IN_USE'), undefined, 'IN_USE'));
    if (code === '23514' || code === '22P02' || code === '22003' || code === '22001' || code === '22021') {
      return reply.code(400).send(errorBody(400, 'A value is out of the allowed range.'));
    }
    if (isDatabaseUnavailable(error) || isDatabaseUnavailable((error as { cause?: unknown }).cause)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).send(errorBody(503, 'The database is not answering; please try again shortly.'));
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return reply
        .code(error.statusCode)
        .send(errorBody(error.statusCode, 'The request could not be understood.'));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send(errorBody(500, 'Something went wrong on our side; please try again.'));
  });
}
