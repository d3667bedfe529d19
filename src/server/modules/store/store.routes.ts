import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, Message } from '../../../shared/common';
import {
  StoreSettingsInput,
  StoreSettingsResponse,
  TaxRateInput,
  TaxRateListResponse,
  TaxRateResponse,
} from '../../../shared/store';
import { currentUser } from '../../lib/auth';
import { inUse, isId, notFound, refuseWith } from '../../lib/errors';
import {
  deleteTaxRate,
  insertTaxRate,
  listTaxRates,
  readStore,
  taxRateNamed,
  updateStore,
  updateTaxRate,
} from './store.repository';

const duplicate = (name: string, existing: { id: string; name: string }) =>
  refuseWith(
    'NAME_TAKEN',
    { existing: { _id: existing.id, name: existing.name } },
    { kind: 'tax rate', name },
  );
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Why a rate in use stays, and what to do first. */
function inUseSentence(use: { products: number; storeDefault: boolean }): string {
  const products = plural(use.products, 'product');
  if (use.products > 0 && use.storeDefault)
    return `This tax rate is used by ${products} and is the store's default; give them another rate and choose another default first.`;
  if (use.storeDefault) return "This tax rate is the store's default; choose another default first.";
  return `This tax rate is used by ${products}; give them another rate first.`;
}

export const storeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/settings/store',
    {
      config: { permission: 'store:read' },
      schema: {
        tags: ['store'],
        summary: "The store's details and money rules",
        response: { 200: StoreSettingsResponse },
      },
    },
    async () => ({ success: true as const, store: await readStore(app.db) }),
  );

  app.put(
    '/settings/store',
    {
      config: { permission: 'store:write' },
      schema: {
        tags: ['store'],
        summary: "Changes the store's details and money rules",
        description:
          'Changes only the fields it names. defaultTaxRate is a tax rate id, or null for no tax. Each change is an audit entry.',
        body: StoreSettingsInput,
        response: { 200: StoreSettingsResponse },
      },
    },
    async (request) => ({
      success: true as const,
      store: await updateStore(app.db, request.body, currentUser(request)),
    }),
  );

  app.get(
    '/tax-rates',
    {
      config: { permission: 'store:read' },
      schema: { tags: ['store'], summary: 'The tax rates, by name', response: { 200: TaxRateListResponse } },
    },
    async () => ({ success: true as const, taxRates: await listTaxRates(app.db) }),
  );

  app.post(
    '/tax-rates',
    {
      config: { permission: 'store:write' },
      schema: { tags: ['store'], body: TaxRateInput, response: { 201: TaxRateResponse } },
    },
    async (request, reply) => {
      const { name, rate } = request.body;
      const existing = await taxRateNamed(app.db, name);
      if (existing) throw duplicate(name, existing);
      const taxRate = await insertTaxRate(app.db, { name, rate }, currentUser(request));
      return reply.code(201).send({ success: true as const, taxRate });
    },
  );

  app.put(
    '/tax-rates/:id',
    {
      config: { permission: 'store:write' },
      schema: {
        tags: ['store'],
        description: 'Sold lines keep the name and rate they were sold at.',
        params: IdParams,
        body: TaxRateInput,
        response: { 200: TaxRateResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!isId(id)) throw notFound('Tax rate');
      const { name, rate } = request.body;
      const existing = await taxRateNamed(app.db, name, id);
      if (existing) throw duplicate(name, existing);
      const taxRate = await updateTaxRate(app.db, id, { name, rate }, currentUser(request));
      if (!taxRate) throw notFound('Tax rate');
      return { success: true as const, taxRate };
    },
  );

  app.delete(
    '/tax-rates/:id',
    {
      config: { permission: 'store:write' },
      schema: {
        tags: ['store'],
        description: "409 while products or the store's default use it.",
        params: IdParams,
        response: { 200: Message },
      },
    },
    async (request) => {
      const { id } = request.params;
      const outcome = isId(id) ? await deleteTaxRate(app.db, id, currentUser(request)) : false;
      if (outcome === false) throw notFound('Tax rate');
      if (outcome !== true) throw inUse(inUseSentence(outcome));
      return { success: true as const, message: 'Tax rate deleted.' };
    },
  );
};
