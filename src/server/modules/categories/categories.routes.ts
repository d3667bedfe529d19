import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CategoryInput, CategoryListResponse, CategoryResponse } from '../../../shared/categories';
import { IdParams, Message } from '../../../shared/common';
import { currentUser } from '../../lib/auth';
import { inUse, isId, notFound, refuse } from '../../lib/errors';
import {
  deleteCategory,
  insertCategory,
  listCategories,
  nameTaken,
  productsInCategory,
  updateCategory,
} from './categories.repository';

const duplicate = (name: string) => refuse('NAME_TAKEN', { kind: 'category', name });
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const categoriesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/category',
    {
      config: { permission: 'categories:read' },
      schema: { tags: ['categories'], summary: 'All categories', response: { 200: CategoryListResponse } },
    },
    async () => ({ success: true as const, categories: await listCategories(app.db) }),
  );

  app.post(
    '/category/add',
    {
      config: { permission: 'categories:write' },
      schema: { tags: ['categories'], body: CategoryInput, response: { 201: CategoryResponse } },
    },
    async (request, reply) => {
      const { formCategory: name, formDescription: description } = request.body;
      if (await nameTaken(app.db, name)) throw duplicate(name);
      const category = await insertCategory(app.db, { name, description }, currentUser(request));
      return reply.code(201).send({ success: true as const, category });
    },
  );

  app.put(
    '/category/:id',
    {
      config: { permission: 'categories:write' },
      schema: {
        tags: ['categories'],
        params: IdParams,
        body: CategoryInput,
        response: { 200: CategoryResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!isId(id)) throw notFound('Category');
      const { formCategory: name, formDescription: description } = request.body;
      if (await nameTaken(app.db, name, id)) throw duplicate(name);
      const category = await updateCategory(app.db, id, { name, description }, currentUser(request));
      if (!category) throw notFound('Category');
      return { success: true as const, category };
    },
  );

  app.delete(
    '/category/:id',
    {
      config: { permission: 'categories:write' },
      schema: { tags: ['categories'], params: IdParams, response: { 200: Message } },
    },
    async (request) => {
      const { id } = request.params;
      if (!isId(id)) throw notFound('Category');
      const used = await productsInCategory(app.db, id);
      if (used > 0) {
        throw inUse(`This category is used by ${plural(used, 'product')}; move or delete them first.`);
      }
      if (!(await deleteCategory(app.db, id, currentUser(request)))) throw notFound('Category');
      return { success: true as const, message: 'Category deleted.' };
    },
  );
};
