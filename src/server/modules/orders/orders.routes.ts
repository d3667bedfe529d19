import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../shared/common';
import type { CsvValue } from '../../../shared/csv';
import { centsNumber } from '../../../shared/money';
import {
  ORDER_CSV_HEADER,
  type Order,
  OrderInput,
  OrderListResponse,
  OrderQuery,
  OrderResponse,
  ReturnResponse,
  UserIdParams,
} from '../../../shared/orders';
import { pageWindow } from '../../../shared/paging';
import { ReturnInput } from '../../../shared/stock';
import { runnerOf } from '../../db/connection';
import { currentUser } from '../../lib/auth';
import { costFor, csvColumnsFor } from '../../lib/costs';
import { CSV_BATCH, checkMayExport, sendCsv } from '../../lib/csv-stream';
import { forbidden, isId, notFound, refuse } from '../../lib/errors';
import { answerOnce } from '../../lib/idempotency';
import { jsonBatchFor, sendJsonList } from '../../lib/json-stream';
import { zonedClock } from '../../lib/zoned-time';
import { recordAudit } from '../audit/audit.repository';
import { orderLots } from '../lots/lots.repository';
import { refusal } from '../sales/sales.routes';
import { sellContext } from '../sales/sell';
import {
  locationNames,
  type OrderCursor,
  orderCsvBatch,
  orderJsonBatch,
  orderPage,
  placeOrder,
  returnOrder,
  toOrder,
} from './orders.repository';

export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/order/add',
    {
      config: { permission: 'orders:create', userCheckedInStatement: true },
      schema: {
        tags: ['orders'],
        summary: 'Place an order',
        description:
          'total, price and stock may be sent but are ignored: the server reads the price itself. A one-line sale paid other, priced and taxed as at the counter (DESIGN §12: the product’s tax rate, else the store’s default). A lot-tracked product is taken first-expiry-first-out from its unexpired lots (DESIGN §15; 409 "Only N of <product> unexpired in stock." when they fall short) and the order names them in lots ([] without lots).',
        body: OrderInput,
        response: { 201: OrderResponse },
      },
    },
    async (request, reply) => {
      // A one-line sale (the counter's path): its statements check the signed-in user themselves;
      // with an Idempotency-Key it runs in the key's transaction.
      const { productId, quantity } = request.body;
      if (!isId(productId)) throw notFound('Product');
      return answerOnce(request, reply, async (tx) => {
        const placed = await placeOrder(sellContext(request), tx, { productId, quantity });
        if (!placed.order) {
          const { refused } = placed;
          // The counter's sentences: short at the seller's location (with elsewhere), a lot-tracked
          // product short of unexpired units (IMS05's too), an inactive location.
          throw refusal(refused);
        }
        const order = costFor(placed.callerRole, placed.order, 'unitCost');
        return { status: 201, body: { success: true as const, order } };
      });
    },
  );

  app.post(
    '/order/:id/return',
    {
      config: { permission: 'orders:return' },
      schema: {
        tags: ['orders'],
        summary: 'Take back part or all of an order',
        description:
          'The units go back to stock (a return movement; for a lot-tracked product, to the lots the order took them from, latest expiry first); the order’s returnedQuantity grows and its status becomes returned when all came back. The money given back is pro rata and cents exact: a return that brings the units returned to Q gives back round(totalPrice × Q / quantity) − returnedTotal (answered as refunded), so a whole return gives back totalPrice; the tax likewise. 409 when more than what remains is asked. Accepts an Idempotency-Key.',
        params: IdParams,
        body: ReturnInput,
        response: { 200: ReturnResponse },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { id } = request.params;
      if (!isId(id)) throw notFound('Order');
      return answerOnce(request, reply, async (tx) => {
        const { quantity, reason, location } = request.body;
        const returned = await returnOrder(tx, {
          orderId: id,
          quantity,
          reason,
          actor: me,
          locationId: location,
        });
        if (!returned) throw notFound('Order');
        if ('tooMany' in returned) throw refuse('RETURN_TOO_MANY', { left: returned.tooMany });
        const [lots, places] = await Promise.all([
          orderLots(runnerOf(tx), [id]),
          locationNames(runnerOf(tx), [returned.order.locationId]),
        ]);
        const order = toOrder(returned.order, lots.get(id) ?? [], places.get(returned.order.locationId));
        await recordAudit(tx, {
          actor: me,
          action: 'returned',
          entity: { type: 'order', id: order._id, name: order.product.name },
          changes: [
            {
              field: 'returnedQuantity',
              old: order.returnedQuantity - quantity,
              new: order.returnedQuantity,
            },
            { field: 'refunded', new: centsNumber(returned.refunded) },
            ...(reason ? [{ field: 'reason', new: reason }] : []),
            { field: 'location', new: returned.location.name },
          ],
        });
        return {
          status: 200,
          body: {
            success: true as const,
            order: costFor(me.role, order, 'unitCost'),
            refunded: centsNumber(returned.refunded),
          },
        };
      });
    },
  );

  app.get(
    '/order/:userId',
    {
      config: { permission: 'orders:read' },
      schema: {
        tags: ['orders'],
        summary: 'Orders, newest first',
        description:
          'An admin asking with its own id gets every order, with another id that user’s orders; others only their own. Each order names the lots it took its units from (lots, [] without lots). format=csv answers every matching order as CSV (streamed).',
        params: UserIdParams,
        querystring: OrderQuery,
        response: { 200: OrderListResponse },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { userId } = request.params;
      if (!isId(userId)) throw notFound('User');
      let forUser: string | undefined = me.id;
      if (me.role === 'admin') forUser = userId === me.id ? undefined : userId;
      else if (userId !== me.id) throw forbidden('You can only see your own orders.');
      const filter = { ...request.query, userId: forUser };
      if (request.query.format === 'csv') {
        checkMayExport(me.role);
        const columns = csvColumnsFor<CsvValue>(me.role, ORDER_CSV_HEADER, ['unit cost']);
        const clock = zonedClock(app.config.timeZone);
        return sendCsv<OrderCursor>(reply, 'orders.csv', columns.header, (after, out) =>
          orderCsvBatch(app.database, filter, clock, after, CSV_BATCH, out, columns.pick),
        );
      }
      const shown = (order: Order) => costFor(me.role, order, 'unitCost');
      const window = pageWindow(request.query);
      if (window) {
        const { orders, total } = await orderPage(app.database, filter, window);
        return {
          success: true as const,
          orders: orders.map(shown),
          total,
          page: window.page,
          pageSize: window.pageSize,
        };
      }
      // Unpaged (the observed client reads whole lists): streamed in batches, so every order
      // there is never sits in memory at once nor holds the server's thread.
      return sendJsonList<OrderCursor>(
        reply,
        '{"success":true,"orders":[',
        (after) => orderJsonBatch(app.database, filter, after, jsonBatchFor(app.database), shown),
        async (total) => `],"total":${total}}`,
      );
    },
  );
};
