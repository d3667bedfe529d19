import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  OrderInput,
  OrderListResponse,
  OrderQuery,
  OrderResponse,
  UserIdParams,
} from '../../../shared/orders';
import { pageWindow } from '../../../shared/paging';
import { currentUser, signedInRunner } from '../../lib/auth';
import { conflict, forbidden, isId, notFound } from '../../lib/errors';
import { listOrders, placeOrder } from './orders.repository';

export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/order/add',
    {
      config: { permission: 'orders:create', userCheckedInStatement: true },
      schema: {
        tags: ['orders'],
        summary: 'Place an order',
        description: 'total, price and stock may be sent but are ignored: the server reads the price itself.',
        body: OrderInput,
        response: { 201: OrderResponse },
      },
    },
    async (request, reply) => {
      // The order statement checks the signed-in user itself (one round trip per order).
      const { productId, quantity } = request.body;
      if (!isId(productId)) throw notFound('Product');
      const placed = await placeOrder(signedInRunner(request), { productId, quantity });
      if (!placed.order) throw placed.productFound ? conflict('Not enough stock') : notFound('Product');
      return reply.code(201).send({ success: true as const, order: placed.order });
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
          'An admin asking with its own id gets every order, with another id that user’s orders; others only their own.',
        params: UserIdParams,
        querystring: OrderQuery,
        response: { 200: OrderListResponse },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { userId } = request.params;
      if (!isId(userId)) throw notFound('User');
      let forUser: string | undefined = me.id;
      if (me.role === 'admin') forUser = userId === me.id ? undefined : userId;
      else if (userId !== me.id) throw forbidden('You can only see your own orders.');
      const { orders, total } = await listOrders(app.db, { ...request.query, userId: forUser });
      const window = pageWindow(request.query);
      return {
        success: true as const,
        orders,
        total,
        ...(window ? { page: window.page, pageSize: window.pageSize } : {}),
      };
    },
  );
};
