import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Lots across products (DESIGN §15): the expiring list (GET /lots/expiring, JSON or CSV) and a
 * lot's recall trace (GET /lots/:id/trace). A product's own lots are read at
 * GET /products/:id/lots (stock routes).
 */
export const lotsRoutes: FastifyPluginAsyncZod = async (_app) => {};
