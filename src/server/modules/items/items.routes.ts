import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../shared/common';
import {
  type Item,
  ItemInput,
  ItemListResponse,
  ItemQuery,
  ItemResponse,
  ItemUpdateInput,
  MAX_OPTION_VALUES,
  MAX_OPTIONS,
  VariantInput,
} from '../../../shared/items';
import { onePage } from '../../../shared/paging';
import type { Role } from '../../../shared/roles';
import { currentUser } from '../../lib/auth';
import { costFor } from '../../lib/costs';
import { isId, notFound } from '../../lib/errors';
import { addVariant, createItem, findItem, itemPage, updateItem } from './items.repository';

/** An item as `role` may see it: its variants without their cost unless the role reads costs. */
const shownTo = (role: Role, item: Item): Item => ({
  ...item,
  variants: item.variants.map((variant) => costFor(role, variant, 'cost')),
});

const OPTIONS_RULES = `At most ${MAX_OPTIONS} options of at most ${MAX_OPTION_VALUES} values each, names and values unique ignoring case. Each variant names every option exactly once with one of its values (400 otherwise; matched ignoring case, stored as the item spells them); one variant per combination (409 VARIANT_EXISTS), a missing combination is allowed. A variant's name is the item's name and its values ("Tee — M / Red").`;

/** Items and their variants (DESIGN §22): each variant a product of its own. */
export const itemsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/items',
    {
      config: { permission: 'items:read' },
      schema: {
        tags: ['items'],
        summary: 'One page of the items by name, each with its variants',
        description:
          'search: every word in the name; category: only that category. Variants in the order of their values; cost only for roles that read costs.',
        querystring: ItemQuery,
        response: { 200: ItemListResponse },
      },
    },
    async (request) => {
      const window = onePage(request.query);
      const page = await itemPage(app.db, request.query, window, app.config.lowStockThreshold);
      const role = currentUser(request).role;
      return {
        success: true as const,
        items: page.items.map((item) => shownTo(role, item)),
        total: page.total,
        page: window.page,
        pageSize: window.pageSize,
      };
    },
  );

  app.get(
    '/items/:id',
    {
      config: { permission: 'items:read' },
      schema: {
        tags: ['items'],
        summary: 'One item with its variants',
        params: IdParams,
        response: { 200: ItemResponse },
      },
    },
    async (request) => {
      const item = await findItem(app.db, request.params.id, app.config.lowStockThreshold);
      if (!item) throw notFound('Item');
      return { success: true as const, item: shownTo(currentUser(request).role, item) };
    },
  );

  app.post(
    '/items',
    {
      config: { permission: 'items:write' },
      schema: {
        tags: ['items'],
        summary: 'Creates an item and its variants',
        description: `${OPTIONS_RULES} Each variant is created as a product (its opening stock at the default location), all in one transaction. Item names are unique ignoring case (409 NAME_TAKEN); a SKU or barcode taken is a 409.`,
        body: ItemInput,
        response: { 201: ItemResponse },
      },
    },
    async (request, reply) => {
      const { variants = [], ...values } = request.body;
      const id = await createItem(app.db, values, variants, currentUser(request));
      const item = await findItem(app.db, id, app.config.lowStockThreshold);
      if (!item) throw notFound('Item');
      return reply.code(201).send({ success: true as const, item });
    },
  );

  app.put(
    '/items/:id',
    {
      config: { permission: 'items:write' },
      schema: {
        tags: ['items'],
        summary: 'Changes an item: its name, description, category, supplier, brand and options',
        description:
          "An option's values may be renamed (a new text at the same place), added or removed; a value a variant has cannot be removed (409 OPTION_VALUE_IN_USE), and options cannot be added or removed once the item has variants (409 ITEM_OPTIONS_FIXED). Its variants' names and values follow; their description, category, supplier and brand follow where they had the item's. Orders keep the names they were placed with.",
        params: IdParams,
        body: ItemUpdateInput,
        response: { 200: ItemResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!isId(id) || !(await updateItem(app.db, id, request.body, currentUser(request))))
        throw notFound('Item');
      const item = await findItem(app.db, id, app.config.lowStockThreshold);
      if (!item) throw notFound('Item');
      return { success: true as const, item };
    },
  );

  app.post(
    '/items/:id/variants',
    {
      config: { permission: 'items:write' },
      schema: {
        tags: ['items'],
        summary: 'Adds one variant to an item',
        description: `${OPTIONS_RULES} Answers the item with its variants.`,
        params: IdParams,
        body: VariantInput,
        response: { 201: ItemResponse },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isId(id) || !(await addVariant(app.db, id, request.body, currentUser(request))))
        throw notFound('Item');
      const item = await findItem(app.db, id, app.config.lowStockThreshold);
      if (!item) throw notFound('Item');
      return reply.code(201).send({ success: true as const, item });
    },
  );
};
