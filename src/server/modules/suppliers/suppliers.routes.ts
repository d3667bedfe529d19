import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, Message } from '../../../shared/common';
import { SupplierInput, SupplierListResponse, SupplierResponse } from '../../../shared/suppliers';
import { currentUser } from '../../lib/auth';
import { inUse, isId, notFound } from '../../lib/errors';
import {
  deleteSupplier,
  insertSupplier,
  listSuppliers,
  productsFromSupplier,
  updateSupplier,
} from './suppliers.repository';

export const suppliersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/supplier',
    {
      config: { permission: 'suppliers:read' },
      schema: { tags: ['suppliers'], summary: 'All suppliers', response: { 200: SupplierListResponse } },
    },
    async () => ({ success: true as const, suppliers: await listSuppliers(app.db) }),
  );

  app.post(
    '/supplier/add',
    {
      config: { permission: 'suppliers:write' },
      schema: { tags: ['suppliers'], body: SupplierInput, response: { 201: SupplierResponse } },
    },
    async (request, reply) => {
      const supplier = await insertSupplier(app.db, request.body, currentUser(request));
      return reply.code(201).send({ success: true as const, supplier });
    },
  );

  app.put(
    '/supplier/:id',
    {
      config: { permission: 'suppliers:write' },
      schema: {
        tags: ['suppliers'],
        params: IdParams,
        body: SupplierInput,
        response: { 200: SupplierResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      const supplier = isId(id)
        ? await updateSupplier(app.db, id, request.body, currentUser(request))
        : undefined;
      if (!supplier) throw notFound('Supplier');
      return { success: true as const, supplier };
    },
  );

  app.delete(
    '/supplier/:id',
    {
      config: { permission: 'suppliers:write' },
      schema: { tags: ['suppliers'], params: IdParams, response: { 200: Message } },
    },
    async (request) => {
      const { id } = request.params;
      if (!isId(id)) throw notFound('Supplier');
      const used = await productsFromSupplier(app.db, id);
      if (used > 0) {
        throw inUse(
          `This supplier supplies ${used} product${used === 1 ? '' : 's'}; change or delete them first.`,
        );
      }
      if (!(await deleteSupplier(app.db, id, currentUser(request)))) throw notFound('Supplier');
      return { success: true as const, message: 'Supplier deleted.' };
    },
  );
};
