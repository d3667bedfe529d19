import type { FastifyInstance } from 'fastify';
import { bodyLimitOf, MAX_JSON_DEPTH } from '../lib/body-limit';

/**
 * Each route's body limit from its contract, and the list of routes that check the signed-in
 * user in their own statement (a test proves each refuses a deleted user, an old or signed-out
 * token and a wrong role).
 */
export function routeLimits(app: FastifyInstance): void {
  const checkedInStatement: string[] = [];
  app.addHook('onRoute', (route) => {
    // Each call reads at most the largest body its contract allows (a sign-in a few kB, a purchase
    // order of 500 lines a few hundred), so a stranger cannot make the server read and parse a
    // megabyte to be told no.
    const { limit, depth } = bodyLimitOf(route.schema?.body);
    if (Number.isFinite(depth) && depth > MAX_JSON_DEPTH)
      throw new Error(`${route.method} ${route.url}: its body nests deeper than MAX_JSON_DEPTH allows`);
    route.bodyLimit ??= limit;
    // A GET route's automatic HEAD twin runs the same handler.
    if (route.config?.userCheckedInStatement && route.method !== 'HEAD')
      checkedInStatement.push(`${route.method} ${route.url}`);
  });
  app.decorate('routesCheckingUserInStatement', checkedInStatement);
}
