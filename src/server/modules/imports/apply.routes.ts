import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The catalogue import's apply (DESIGN §14); registered beside importsRoutes. */
export const importApplyRoutes: FastifyPluginAsyncZod = async (_app) => {};
