import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OrderInput, OrderListResponse, OrderResponse, UserIdParams } from '../../../shared/orders';
import { currentUser } from '../../lib/auth';
import { conflict, forbidden, isId, notFound } from '../../lib/errors';
import { listOrders, placeOrder, productExists } from './orders.repository';

export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/order/add',
    {
      config: { permission: 'orders:create' },
      schema: {
        tags: ['orders'],
        summary: 'Place an order',
        description: 'total, price and stock may be sent but are ignored: the server reads the price itself.',
        body: OrderInput,
        response: { 201: OrderResponse },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { productId, quantity } = request.body;
      if (!isId(productId)) throw notFound('Product');
      const order = await placeOrder(app.db, { productId, quantity, user: me });
      if (!order) {
        if (!(await productExists(app.db, productId))) throw notFound('Product');
        throw conflict('Not enough stock');
      }
      return reply.code(201).send({ success: true as const, order });
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
        response: { 200: OrderListResponse },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { userId } = request.params;
      if (!isId(userId)) throw notFound('User');
      if (me.role === 'admin') {
        return {
          success: true as const,
          orders: await listOrders(app.db, userId === me.id ? undefined : userId),
        };
      }
      if (userId !== me.id) throw forbidden('You can only see your own orders.');
      return { success: true as const, orders: await listOrders(app.db, me.id) };
    },
  );
};
