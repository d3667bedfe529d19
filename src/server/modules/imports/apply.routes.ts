import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../shared/common';
import { ImportResponse } from '../../../shared/imports';
import { currentUser } from '../../lib/auth';
import { conflict, isId, notFound } from '../../lib/errors';
import { findImport } from './imports.repository';

/** Why an import in this state cannot be applied (409). */
const REFUSAL: Record<string, string> = {
  uploaded: 'Check the file before applying it.',
  applying: 'This import is already being applied.',
  applied: 'This import is already applied.',
};

/** The catalogue import's apply (DESIGN §14); registered beside importsRoutes. */
export const importApplyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/imports/:id/apply',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['imports'],
        summary: 'Apply a checked import in the background',
        description:
          'Answers 202 at once with status applying; GET /api/imports/:id follows `processed` of `total` ' +
          'until the status is applied. Only a checked import (or one whose apply failed, which resumes ' +
          'after the rows already written) may be applied: 409 otherwise.',
        params: IdParams,
        response: { 202: ImportResponse },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { id } = request.params;
      if (!isId(id)) throw notFound('Import');
      // One conditional UPDATE takes the import: of two applies at once, exactly one gets it.
      const start = await app.importApplier.take(id, me);
      if (!start) {
        const found = await findImport(app.db, id);
        if (!found) throw notFound('Import');
        throw conflict(REFUSAL[found.status] ?? 'This import cannot be applied now.');
      }
      try {
        const taken = await findImport(app.db, id);
        if (!taken) throw notFound('Import');
        return reply.code(202).send({ success: true as const, import: taken });
      } finally {
        start();
      }
    },
  );
};
