import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../lib/body-limit';
import { AppError } from '../lib/errors';

/** Bodies are JSON only, checked for depth before they are parsed, then validated by zod. */
export function jsonBodies(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The API reads JSON only: without this, Fastify's built-in text/plain parser would hand a
  // string to the validators (a confusing 400) instead of the 415 every other type gets.
  app.removeContentTypeParser('text/plain');
  // A deeply nested body costs JSON.parse most of a second per megabyte (and every walk after it
  // more): its depth is read in one cheap pass first, and a body deeper than any contract is a 400.
  // The default parser does the rest (prototype poisoning refused, an empty body a 400).
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestsDeeperThan(body as string, MAX_JSON_DEPTH))
      return done(
        new AppError(400, `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`),
        undefined,
      );
    parseJson(request, body as string, done);
  });
}
