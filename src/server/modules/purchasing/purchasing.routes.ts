import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../shared/common';
import { onePage } from '../../../shared/paging';
import {
  DraftFromSuggestionsInput,
  DraftPurchaseOrdersResponse,
  PURCHASE_ORDER_CSV_HEADER,
  PurchaseOrderInput,
  PurchaseOrderListResponse,
  PurchaseOrderQuery,
  PurchaseOrderResponse,
  ReceiveInput,
  ReorderSuggestionsQuery,
  ReorderSuggestionsResponse,
} from '../../../shared/purchasing';
import { runnerOf, type Tx } from '../../db/connection';
import { currentUser } from '../../lib/auth';
import { CSV_BATCH, type NewestCursor, sendCsv } from '../../lib/csv-stream';
import { notFound } from '../../lib/errors';
import { type Answer, answerOnce } from '../../lib/idempotency';
import { sendJsonText } from '../../lib/json-text';
import { zonedClock } from '../../lib/zoned-time';
import { locationFor } from '../locations/location-for';
import {
  cancelPurchaseOrder,
  draftFromSuggestions,
  findPurchaseOrder,
  insertPurchaseOrder,
  markOrdered,
  purchaseOrderCsvBatch,
  purchaseOrderPage,
  receivePurchaseOrder,
  reorderSuggestionsAtJson,
  reorderSuggestionsJson,
  supplierExists,
  updatePurchaseOrder,
} from './purchasing.repository';

const KEYED = 'Accepts an Idempotency-Key.';

export const purchasingRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The purchase order as it is now, in the transaction that changed it. */
  const orderAnswer = async (tx: Tx, id: string, status = 200): Promise<Answer> => {
    const purchaseOrder = await findPurchaseOrder(tx, id);
    if (!purchaseOrder) throw notFound('Purchase order');
    return { status, body: { success: true as const, purchaseOrder } };
  };

  app.post(
    '/purchase-orders',
    {
      config: { permission: 'purchasing:manage' },
      schema: {
        tags: ['purchasing'],
        summary: 'Draft a purchase order',
        description: `400 when the supplier or a product does not exist or a product appears twice; 404 when the location does not exist, 409 when it is inactive. ${KEYED}`,
        body: PurchaseOrderInput,
        response: { 201: PurchaseOrderResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) =>
        orderAnswer(tx, await insertPurchaseOrder(tx, request.body, currentUser(request)), 201),
      ),
  );

  app.get(
    '/purchase-orders',
    {
      config: { permission: 'purchasing:manage' },
      schema: {
        tags: ['purchasing'],
        summary: 'Purchase orders, newest first, by status, supplier and location',
        description:
          'format=csv answers every matching purchase order as CSV (streamed). 404 when the location does not exist.',
        querystring: PurchaseOrderQuery,
        response: { 200: PurchaseOrderListResponse },
      },
    },
    async (request, reply) => {
      const { status, supplier } = request.query;
      const filter = {
        status,
        supplier,
        location:
          request.query.location === undefined
            ? undefined
            : (await locationFor(app.database, request.query.location, { inactive: 'allowed' })).id,
      };
      if (request.query.format === 'csv') {
        const clock = zonedClock(app.config.timeZone);
        return sendCsv<NewestCursor>(reply, 'purchase-orders.csv', PURCHASE_ORDER_CSV_HEADER, (after) =>
          purchaseOrderCsvBatch(app.db, filter, after, CSV_BATCH, clock),
        );
      }
      const window = onePage(request.query);
      const page = await purchaseOrderPage(app.db, filter, window);
      return { success: true as const, ...page, page: window.page, pageSize: window.pageSize };
    },
  );

  app.get(
    '/purchase-orders/:id',
    {
      config: { permission: 'purchasing:manage' },
      schema: {
        tags: ['purchasing'],
        summary: 'One purchase order with its lines',
        params: IdParams,
        response: { 200: PurchaseOrderResponse },
      },
    },
    async (request) => {
      const purchaseOrder = await findPurchaseOrder(app.db, request.params.id);
      if (!purchaseOrder) throw notFound('Purchase order');
      return { success: true as const, purchaseOrder };
    },
  );

  app.put(
    '/purchase-orders/:id',
    {
      config: { permission: 'purchasing:manage' },
      schema: {
        tags: ['purchasing'],
        summary: 'Change a draft’s supplier, location, lines and note',
        description:
          '409 once the purchase order is no longer a draft, or when the location is inactive; 404 when the location does not exist.',
        params: IdParams,
        body: PurchaseOrderInput,
        response: { 200: PurchaseOrderResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      const purchaseOrder = await app.db.transaction(async (tx) => {
        await updatePurchaseOrder(tx, id, request.body, currentUser(request));
        return findPurchaseOrder(tx, id);
      });
      if (!purchaseOrder) throw notFound('Purchase order');
      return { success: true as const, purchaseOrder };
    },
  );

  /** A change of status: the work, in a transaction, answering the purchase order after it. */
  const transition = (
    path: string,
    summary: string,
    description: string,
    work: (tx: Tx, id: string, request: Parameters<typeof currentUser>[0]) => Promise<void>,
  ) =>
    app.post(
      path,
      {
        config: { permission: 'purchasing:manage' },
        schema: {
          tags: ['purchasing'],
          summary,
          description,
          params: IdParams,
          response: { 200: PurchaseOrderResponse },
        },
      },
      async (request, reply) =>
        answerOnce(request, reply, async (tx) => {
          await work(tx, request.params.id, request);
          return orderAnswer(tx, request.params.id);
        }),
    );

  transition(
    '/purchase-orders/:id/order',
    'Mark a draft as ordered from its supplier',
    `409 unless it is a draft. ${KEYED}`,
    (tx, id, request) => markOrdered(tx, id, currentUser(request)),
  );

  transition(
    '/purchase-orders/:id/cancel',
    'Cancel a purchase order, or close one partly received',
    `Cancelled while nothing was received; closed (the rest no longer expected) once something was. 409 when received, cancelled or closed already. ${KEYED}`,
    (tx, id, request) => cancelPurchaseOrder(tx, id, currentUser(request)),
  );

  app.post(
    '/purchase-orders/:id/receive',
    {
      config: { permission: 'purchasing:manage' },
      schema: {
        tags: ['purchasing'],
        summary: 'Receive goods: stock grows by receipt movements, the cost becomes the weighted average',
        description: `All lines or none. A lot-tracked product's line names its lots (number, expiry, quantity), adding up to its quantity: a new number creates the lot, a known one must agree on its expiry (409 otherwise); 400 when such a line names none or another product's line names some. 409 when a line would receive more than is open, or the purchase order is not ordered or partly received. ${KEYED}`,
        params: IdParams,
        body: ReceiveInput,
        response: { 200: PurchaseOrderResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => {
        const { id } = request.params;
        await receivePurchaseOrder(tx, id, request.body.lines, currentUser(request));
        return orderAnswer(tx, id);
      }),
  );

  app.get(
    '/reorder-suggestions',
    {
      config: { permission: 'purchasing:manage' },
      schema: {
        tags: ['purchasing'],
        summary: 'Products at or below their reorder point, counting what is on order, by supplier',
        description:
          'With location: judged by the stock and on order there against the reorder point in force there, each line suggesting a transfer (transferFrom) from the other active location with the most units above its own reorder point before buying the rest (suggested). 404 when the location does not exist.',
        querystring: ReorderSuggestionsQuery,
        response: { 200: ReorderSuggestionsResponse },
      },
    },
    async (request, reply) => {
      if (request.query.location === undefined)
        return sendJsonText(reply, await reorderSuggestionsJson(app.db));
      const location = await locationFor(app.database, request.query.location, { inactive: 'allowed' });
      return sendJsonText(reply, await reorderSuggestionsAtJson(app.database, location));
    },
  );

  app.post(
    '/reorder-suggestions/draft',
    {
      config: { permission: 'purchasing:manage' },
      schema: {
        tags: ['purchasing'],
        summary: 'Draft one purchase order per supplier from the suggestions',
        description: `Only the supplier's when one is given (404 when it does not exist). With location, from the suggestions there (what transfers do not cover), delivered there (404 unknown, 409 inactive). quantities replaces suggested quantities by product id; 0 leaves a product out. A supplier with a draft purchase order already gets no second one: asked alone, a 409 naming the draft (existing: its id and number); among all, it is left out and listed in existingDrafts. ${KEYED}`,
        body: DraftFromSuggestionsInput,
        response: { 201: DraftPurchaseOrdersResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => {
        const { supplier, quantities } = request.body;
        if (supplier !== undefined && !(await supplierExists(tx, supplier))) throw notFound('Supplier');
        const location =
          request.body.location === undefined
            ? undefined
            : await locationFor(runnerOf(tx), request.body.location);
        const { ids, existingDrafts } = await draftFromSuggestions(
          tx,
          { supplier, quantities, location },
          currentUser(request),
        );
        const purchaseOrders = [];
        for (const id of ids) {
          const order = await findPurchaseOrder(tx, id);
          if (order) purchaseOrders.push(order);
        }
        return { status: 201, body: { success: true as const, purchaseOrders, existingDrafts } };
      }),
  );
};
