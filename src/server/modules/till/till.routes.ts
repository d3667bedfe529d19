import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The till (DESIGN §13): filled in by the work on issue 22. */
export const tillRoutes: FastifyPluginAsyncZod = async () => {};
