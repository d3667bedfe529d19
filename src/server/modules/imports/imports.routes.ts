import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * The catalogue import (DESIGN §14), admin only: upload a file, check it (a dry run writing
 * nothing), apply it in the background, and read its rows and its failed rows as a file.
 */
export const importsRoutes: FastifyPluginAsyncZod = async (_app) => {};
