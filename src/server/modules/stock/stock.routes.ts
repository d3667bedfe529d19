import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditChange } from '../../../shared/audit';
import { IdParams } from '../../../shared/common';
import { LocationReorderInput, ProductLocationsResponse } from '../../../shared/locations';
import { LotsResponse } from '../../../shared/lots';
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
import { runnerOf, type Tx } from '../../db/connection';
import { currentUser } from '../../lib/auth';
import { CSV_BATCH, type NewestCursor, sendCsv } from '../../lib/csv-stream';
import { isId, notFound } from '../../lib/errors';
import type { AuthUser } from '../../lib/fastify';
import { type Answer, answerOnce } from '../../lib/idempotency';
import { zonedClock } from '../../lib/zoned-time';
import { recordAudit } from '../audit/audit.repository';
import { locationFor } from '../locations/location-for';
import { productLots } from '../lots/lots.repository';
import { findProduct } from '../products/products.queries';
import { productLocations, setLocationReorder } from './product-locations';
import {
  adjustProduct,
  countStock,
  type HandMovement,
  movementCsvBatch,
  movementPage,
  stockCheck,
  toMovement,
} from './stock.repository';

export const stockRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * The answer to a movement made by hand, with its audit entry: stock before → after, the lot
   * it names, and why.
   */
  const movementAnswer = async (
    tx: Tx,
    me: AuthUser,
    { row: movement, lot, location }: HandMovement,
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
        { field: 'location', new: location.name },
        ...(lot ? [{ field: 'lot', new: lot.number }] : []),
        ...why,
        ...(movement.note ? [{ field: 'note', new: movement.note }] : []),
      ],
    });
    const named = toMovement({
      ...movement,
      lotNumber: lot?.number,
      lotExpiresOn: lot?.expiresOn,
      locationName: location.name,
    });
    return { status: 200, body: { success: true as const, product, movement: named } };
  };

  app.post(
    '/products/:id/adjust',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['stock'],
        summary: 'Adjust a product’s stock by a signed quantity, with a reason',
        description:
          "At `location` (DESIGN §17; omitted: the default location; 404 unknown, 409 inactive). 409 naming the product and the location when it would go below 0 there (the body's `elsewhere` says where else it is held). A lot-tracked product names its lot (DESIGN §15): units added go into it (a new number with its expiry creates it), units taken come out of it (409 below 0 in the lot); 400 without one, or with one for a product not tracked by lot. Accepts an Idempotency-Key.",
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
        const { quantity, reason, note, lot, location } = request.body;
        const movement = await adjustProduct(tx, {
          productId: id,
          quantity,
          reason,
          note,
          lot,
          location,
          actor: me,
        });
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
          "At `location` (DESIGN §17; omitted: the default location; 404 unknown, 409 inactive): the movement is counted − the stock there before; a zero difference is recorded too. A lot-tracked product counts one lot (DESIGN §15): `counted` is that lot's units there, and a new number with its expiry creates it. Accepts an Idempotency-Key.",
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
        const { counted, note, lot, location } = request.body;
        const movement = await countStock(tx, { productId: id, counted, note, lot, location, actor: me });
        return movementAnswer(tx, me, movement, 'stockCounted', []);
      });
    },
  );

  app.get(
    '/products/:id/stock',
    {
      config: { permission: 'locations:read' },
      schema: {
        tags: ['stock'],
        summary: 'A product’s stock by location, and its units in transit',
        description:
          'DESIGN §17: one line per active location, and per inactive one still holding stock, by name: the stock there, its own reorder point and quantity (null: the product’s), and a lot-tracked product’s lots there with units, soonest expiry first. inTransit: units sent on open transfers and not yet received, lost or returned (they belong to no location).',
        params: IdParams,
        response: { 200: ProductLocationsResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      const found = isId(id) ? await productLocations(app.database, id) : undefined;
      if (!found) throw notFound('Product');
      return { success: true as const, ...found };
    },
  );

  app.put(
    '/products/:id/locations/:locationId',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['stock'],
        summary: 'Set a location’s own reorder point and quantity for a product (null: the product’s)',
        description:
          'DESIGN §17. The stock there is not touched. 404 for an unknown product or location (an inactive location may be set). Answers the product’s stock by location. Accepts an Idempotency-Key.',
        params: z.object({ id: z.string(), locationId: z.string() }),
        body: LocationReorderInput,
        response: { 200: ProductLocationsResponse },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { id, locationId } = request.params;
      if (!isId(id)) throw notFound('Product');
      return answerOnce(request, reply, async (tx) => {
        const run = runnerOf(tx);
        const [product] = await run.query<{ id: string; name: string }>(
          'select id, name from products where id = $1::uuid for no key update',
          [id],
        );
        if (!product) throw notFound('Product');
        const location = await locationFor(run, locationId, { inactive: 'allowed' });
        const { reorderPoint, reorderQuantity } = request.body;
        const before = await setLocationReorder(run, id, location, { reorderPoint, reorderQuantity });
        await recordAudit(tx, {
          actor: me,
          action: 'updated',
          entity: { type: 'product', id: product.id, name: product.name },
          changes: [
            { field: 'location', new: location.name },
            { field: 'reorderPoint', old: before.reorderPoint, new: reorderPoint },
            { field: 'reorderQuantity', old: before.reorderQuantity, new: reorderQuantity },
          ],
        });
        const found = await productLocations(run, id);
        if (!found) throw notFound('Product');
        return { status: 200, body: { success: true as const, ...found } };
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
    '/products/:id/lots',
    {
      config: { permission: 'products:read' },
      schema: {
        tags: ['stock'],
        summary: 'A product’s lots with their units, in the order a sale takes them',
        description:
          "Earliest expiry first, no expiry last; empty lots too (DESIGN §15). A product not tracked by lot has none, or only empty ones. today: the store's day, by which a lot has expired (before it) or not.",
        params: IdParams,
        response: { 200: LotsResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!isId(id)) throw notFound('Product');
      const [known, lots] = await Promise.all([
        app.database.query<{ today: string }>(
          'select store_today()::text as today from products where id = $1::uuid',
          [id],
        ),
        productLots(app.database, id),
      ]);
      const [product] = known;
      if (!product) throw notFound('Product');
      return { success: true as const, lots, today: product.today };
    },
  );

  app.get(
    '/stock/check',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['stock'],
        summary: 'Check every product’s stock against the sum of its movements, and every lot and location',
        description:
          'A mismatch with `lot` is a lot whose units (stock) differ from the sum of the movements naming it (ledger); one with `lots` is a lot-tracked product, whose stock must also equal the sum of its lots (DESIGN §15). One with `location` is a product’s (or with `lot`, a lot’s) units at that location against the movements there; `locations` is the sum over its locations when it is not its stock; `inTransit` and `outsideTransfers` say that the sum over its locations plus its units in transit is not the sum of its movements outside transfers (DESIGN §17).',
        response: { 200: StockCheckResponse },
      },
    },
    async () => {
      const { checked, mismatches } = await stockCheck(app.db);
      return {
        success: true as const,
        checked,
        mismatches: mismatches.map(
          ({
            productId,
            name,
            stock,
            ledger,
            lots,
            lot,
            location,
            locations,
            inTransit,
            outsideTransfers,
          }) => ({
            product: { _id: productId, name },
            stock,
            ledger,
            ...(lots !== null && { lots }),
            ...(lot !== null && { lot }),
            ...(location !== null && { location }),
            ...(locations !== null && { locations }),
            ...(inTransit !== null && { inTransit }),
            ...(outsideTransfers !== null && { outsideTransfers }),
          }),
        ),
      };
    },
  );
};
