import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The catalogue import's check (DESIGN §14); registered beside importsRoutes. */
export const importCheckRoutes: FastifyPluginAsyncZod = async (_app) => {};
