import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../shared/common';
import { onePage } from '../../../shared/paging';
import {
  COUNT_SHEET_HEADER,
  CountsInput,
  CountsResponse,
  MAX_COUNTS,
  PostStocktakeInput,
  PostStocktakeResponse,
  StocktakeInput,
  StocktakeLinesQuery,
  StocktakeLinesResponse,
  StocktakeListResponse,
  StocktakeQuery,
  StocktakeResponse,
} from '../../../shared/stocktakes';
import { runnerOf, type Tx } from '../../db/connection';
import { currentUser } from '../../lib/auth';
import { notFound } from '../../lib/errors';
import { type Answer, answerOnce } from '../../lib/idempotency';
import { locationFor } from '../locations/location-for';
import {
  acceptCountSheets,
  countSheetOf,
  countSheetValidator,
  MAX_SHEET_BYTES,
  recordSheetCounts,
  sendCountSheet,
} from './stocktake-sheet';
import {
  cancelStocktake,
  countedLines,
  findStocktake,
  insertStocktake,
  type LineAudience,
  postStocktake,
  recordCounts,
  stocktakeAudience,
  stocktakeLines,
  stocktakePage,
} from './stocktakes.repository';

const KEYED = 'Accepts an Idempotency-Key.';
const TAGS = ['stocktakes'];

/** Admins see the review's figures, costs and, in a blind stocktake, what the ledger expects. */
const isAdmin = (request: FastifyRequest) => currentUser(request).role === 'admin';

/**
 * Stocktakes (DESIGN §18): admins make, review, post and cancel them; the selling roles and admins
 * find the open ones, read their lines and count.
 */
export const stocktakesRoutes: FastifyPluginAsyncZod = async (app) => {
  // The count sheet comes back as CSV to POST /stocktakes/:id/counts (stocktake-sheet.ts).
  acceptCountSheets(app);
  /** The stocktake as it is now, in the transaction that changed it (with the summary for admins). */
  const stocktakeAnswer = async (
    tx: Tx,
    id: string,
    admin: boolean,
    status = 200,
    extra = {},
  ): Promise<Answer> => {
    const stocktake = await findStocktake(runnerOf(tx), id, { summary: admin });
    if (!stocktake) throw notFound('Stocktake');
    return { status, body: { success: true as const, stocktake, ...extra } };
  };

  app.post(
    '/stocktakes',
    {
      config: { permission: 'stocktakes:manage' },
      schema: {
        tags: TAGS,
        summary:
          'Start a stocktake of a location: its products fixed now, a line per product (per lot for tracked ones)',
        description: `Categories and products together are their union; neither: every product with stock there. 400 for an unknown category or product or an empty scope; 404 for an unknown location; 409 for an inactive one, or (STOCKTAKE_OVERLAP) when an open stocktake there counts one of these products. ${KEYED}`,
        body: StocktakeInput,
        response: { 201: StocktakeResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) =>
        stocktakeAnswer(tx, await insertStocktake(tx, request.body, currentUser(request)), true, 201),
      ),
  );

  app.get(
    '/stocktakes',
    {
      config: { permission: 'stocktakes:count' },
      schema: {
        tags: TAGS,
        summary: 'Stocktakes, newest first, by status and location',
        description:
          'The counters find the open ones here; the figures are the review’s, read one by one (admins).',
        querystring: StocktakeQuery,
        response: { 200: StocktakeListResponse },
      },
    },
    async (request) => {
      const { status, location } = request.query;
      const window = onePage(request.query);
      const place =
        location === undefined
          ? undefined
          : await locationFor(app.database, location, { inactive: 'allowed' });
      const page = await stocktakePage(app.database, { status, location: place?.id }, window);
      return { success: true as const, ...page, page: window.page, pageSize: window.pageSize };
    },
  );

  app.get(
    '/stocktakes/:id',
    {
      config: { permission: 'stocktakes:count' },
      schema: {
        tags: TAGS,
        summary:
          'One stocktake; for admins with its summary: lines counted, units and value over and short, by category',
        params: IdParams,
        response: { 200: StocktakeResponse },
      },
    },
    async (request) => {
      const stocktake = await findStocktake(app.database, request.params.id, { summary: isAdmin(request) });
      if (!stocktake) throw notFound('Stocktake');
      return { success: true as const, stocktake };
    },
  );

  app.get(
    '/stocktakes/:id/lines',
    {
      config: { permission: 'stocktakes:count' },
      schema: {
        tags: TAGS,
        summary:
          'A stocktake’s lines by product name: counted or not, the differences only, by category, searched',
        description: `In a blind stocktake \`expected\` and \`expectedAtCount\` reach admins only; \`cost\` and \`posted\` always do. format=csv answers the count sheet (ST-000001-count-sheet.csv): exactly the columns ${COUNT_SHEET_HEADER.join(', ')}, a row per line the filters keep (every page), Counted left empty to be filled in and sent back to POST /api/stocktakes/:id/counts; no stock in it, blind or not.`,
        params: IdParams,
        querystring: StocktakeLinesQuery,
        response: { 200: StocktakeLinesResponse },
      },
    },
    async (request, reply) => {
      if (request.query.format === 'csv')
        return sendCountSheet(app.database, reply, request.params.id, request.query);
      const found = await stocktakeAudience(app.database, request.params.id);
      if (!found) throw notFound('Stocktake');
      const audience: LineAudience = { admin: isAdmin(request), blind: found.blind };
      const window = onePage(request.query);
      const page = await stocktakeLines(app.database, request.params.id, request.query, audience, window);
      return { success: true as const, ...page, page: window.page, pageSize: window.pageSize };
    },
  );

  app.post(
    '/stocktakes/:id/counts',
    {
      config: { permission: 'stocktakes:count' },
      schema: {
        tags: TAGS,
        summary:
          'Count: `add` adds (a scan sends 1), `set` replaces; each line keeps who, when and the stock then',
        description: `All counts or none. A product is named by its _id, SKU or barcode; outside the stocktake it is a 400 (STOCKTAKE_OUT_OF_SCOPE) naming it; a tracked product names its lot (a lot not on the list becomes a line; a new number needs expiresOn). 409 (STOCKTAKE_STATUS) once posted or cancelled. Answers the stocktake and the lines counted. The body may instead be the count sheet filled in (text/csv, or another CSV type the catalogue import takes; UTF-8, up to ${MAX_SHEET_BYTES / 2 ** 20} MB): its header exactly ${COUNT_SHEET_HEADER.join(', ')} (400 naming a missing or wrong column); a row with Counted empty is skipped, a filled one (a whole number 0–1,000,000) sets its line; a row finds its product by SKU, else barcode, and a tracked product's lot by Lot (Expiry, as YYYY-MM-DD, for a lot new to the product). At most ${MAX_COUNTS.toLocaleString('en-US')} filled rows; none is a 400. Any row that cannot be counted is a 400 (STOCKTAKE_SHEET_INVALID) whose details name each by its line in the file (the header is line 1), and nothing is counted; a file that cannot be read (not UTF-8, a NUL, a cell over 10,000 characters) is a 400 saying where, a larger one a 413, another media type or charset a 415. ${KEYED}`,
        params: IdParams,
        body: CountsInput,
        response: { 200: CountsResponse },
      },
      // A count sheet passes the JSON body's validation; its rows are checked as it is read.
      validatorCompiler: countSheetValidator,
    },
    async (request, reply) => {
      const sheet = await countSheetOf(request.body);
      return answerOnce(request, reply, async (tx) => {
        const actor = currentUser(request);
        const admin = isAdmin(request);
        const { lineIds, stocktake } = sheet
          ? await recordSheetCounts(tx, request.params.id, sheet, actor)
          : await recordCounts(tx, request.params.id, request.body.counts, actor);
        const counted = await countedLines(runnerOf(tx), lineIds, { admin, blind: stocktake.blind });
        return { status: 200, body: { success: true as const, stocktake, counted } };
      });
    },
  );

  app.post(
    '/stocktakes/:id/post',
    {
      config: { permission: 'stocktakes:manage' },
      schema: {
        tags: TAGS,
        summary:
          'Post: each counted line’s counted − expected at its count, uncounted lines kept or zeroed, never below 0',
        description: `One transaction, once: a \`count\` movement per counted line (a zero difference too), each naming the stocktake; lines that would fall below 0 go to 0 and are listed in \`clamped\`. 409 (STOCKTAKE_STATUS) unless counting. ${KEYED}`,
        params: IdParams,
        body: PostStocktakeInput,
        response: { 200: PostStocktakeResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => {
        const { clamped } = await postStocktake(
          tx,
          request.params.id,
          request.body.uncounted,
          currentUser(request),
        );
        return stocktakeAnswer(tx, request.params.id, true, 200, { clamped });
      }),
  );

  app.post(
    '/stocktakes/:id/cancel',
    {
      config: { permission: 'stocktakes:manage' },
      schema: {
        tags: TAGS,
        summary: 'Cancel a stocktake still counting: nothing is written; its products may be counted again',
        description: `409 (STOCKTAKE_STATUS) unless counting. ${KEYED}`,
        params: IdParams,
        response: { 200: StocktakeResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => {
        await cancelStocktake(tx, request.params.id, currentUser(request));
        return stocktakeAnswer(tx, request.params.id, true);
      }),
  );
};
