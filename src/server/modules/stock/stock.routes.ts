import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuditChange } from '../../../shared/audit';
import { IdParams } from '../../../shared/common';
import { pageWindow } from '../../../shared/paging';
import {
  AdjustInput,
  CountInput,
  MOVEMENT_CSV_HEADER,
  MovementListResponse,
  MovementQuery,
  MovementResponse,
  StockCheckResponse,
} from '../../../shared/stock';
import type { Tx } from '../../db/connection';
import { currentUser } from '../../lib/auth';
import { CSV_BATCH, type NewestCursor, sendCsv } from '../../lib/csv-stream';
import { isId, notFound } from '../../lib/errors';
import type { AuthUser } from '../../lib/fastify';
import { type Answer, answerOnce } from '../../lib/idempotency';
import { zonedClock } from '../../lib/zoned-time';
import { recordAudit } from '../audit/audit.repository';
import { findProduct } from '../products/products.repository';
import {
  adjustStock,
  countStock,
  type MovementRow,
  movementCsvBatch,
  movementPage,
  stockCheck,
  toMovement,
} from './stock.repository';

export const stockRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The answer to a movement made by hand, with its audit entry: stock before → after, and why. */
  const movementAnswer = async (
    tx: Tx,
    me: AuthUser,
    movement: MovementRow,
    action: 'stockAdjusted' | 'stockCounted',
    why: AuditChange[],
  ): Promise<Answer> => {
    const product = await findProduct(tx, movement.productId, app.config.lowStockThreshold);
    if (!product) throw notFound('Product');
    await recordAudit(tx, {
      actor: me,
      action,
      entity: { type: 'product', id: product._id, name: product.name },
      changes: [
        { field: 'stock', old: movement.stockAfter - movement.quantity, new: movement.stockAfter },
        ...why,
        ...(movement.note ? [{ field: 'note', new: movement.note }] : []),
      ],
    });
    return { status: 200, body: { success: true as const, product, movement: toMovement(movement) } };
  };

  app.post(
    '/products/:id/adjust',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['stock'],
        summary: 'Adjust a product’s stock by a signed quantity, with a reason',
        description: '409 "Not enough stock" when it would go below 0. Accepts an Idempotency-Key.',
        params: IdParams,
        body: AdjustInput,
        response: { 200: MovementResponse },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { id } = request.params;
      if (!isId(id)) throw notFound('Product');
      return answerOnce(request, reply, async (tx) => {
        const { quantity, reason, note } = request.body;
        const movement = await adjustStock(tx, { productId: id, quantity, reason, note, actor: me });
        return movementAnswer(tx, me, movement, 'stockAdjusted', [{ field: 'reason', new: reason }]);
      });
    },
  );

  app.post(
    '/products/:id/count',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['stock'],
        summary: 'Record a stock count: the stock becomes what was counted',
        description:
          'The movement is counted − stock before; a zero difference is recorded too. Accepts an Idempotency-Key.',
        params: IdParams,
        body: CountInput,
        response: { 200: MovementResponse },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { id } = request.params;
      if (!isId(id)) throw notFound('Product');
      return answerOnce(request, reply, async (tx) => {
        const { counted, note } = request.body;
        const movement = await countStock(tx, { productId: id, counted, note, actor: me });
        if (!movement) throw notFound('Product');
        return movementAnswer(tx, me, movement, 'stockCounted', []);
      });
    },
  );

  app.get(
    '/products/:id/movements',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['stock'],
        summary: 'A product’s stock movements, newest first',
        description: 'format=csv answers all of them as CSV (streamed).',
        params: IdParams,
        querystring: MovementQuery,
        response: { 200: MovementListResponse },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isId(id)) throw notFound('Product');
      if (request.query.format === 'csv') {
        if (!(await findProduct(app.db, id, app.config.lowStockThreshold))) throw notFound('Product');
        const clock = zonedClock(app.config.timeZone);
        return sendCsv<NewestCursor>(reply, 'stock-movements.csv', MOVEMENT_CSV_HEADER, (after) =>
          movementCsvBatch(app.db, id, after, CSV_BATCH, clock),
        );
      }
      const window = pageWindow({ page: 1, ...request.query });
      if (!window) throw notFound('Product');
      const page = await movementPage(app.db, id, window);
      if (page.total === 0 && !(await findProduct(app.db, id, app.config.lowStockThreshold)))
        throw notFound('Product');
      return { success: true as const, ...page, page: window.page, pageSize: window.pageSize };
    },
  );

  app.get(
    '/stock/check',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['stock'],
        summary: 'Check every product’s stock against the sum of its movements',
        response: { 200: StockCheckResponse },
      },
    },
    async () => {
      const { checked, mismatches } = await stockCheck(app.db);
      return {
        success: true as const,
        checked,
        mismatches: mismatches.map(({ id, name, stock, ledger }) => ({
          product: { _id: id, name },
          stock,
          ledger,
        })),
      };
    },
  );
};
