import type { FastifyInstance } from 'fastify';
import { ImportApplier } from '../modules/imports/apply';

/**
 * Catalogue imports apply in the background: those a stopped server left are resumed once the
 * app is ready; a stop lets the batch in flight finish before the database closes.
 */
export function importApplier(app: FastifyInstance): void {
  const applier = new ImportApplier(app.db, app.log, app.config.importLeaseSeconds ?? 30);
  app.decorate('importApplier', applier);
  app.addHook('onReady', async () => applier.start());
  app.addHook('preClose', async () => applier.stop());
}
