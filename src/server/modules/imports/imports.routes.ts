import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../shared/common';
import {
  CSV_MIME,
  ERROR_COLUMN,
  guessMapping,
  IMPORT_PREVIEW_CHARS,
  ImportErrorsQuery,
  ImportFileQuery,
  type ImportFileType,
  type ImportFormat,
  ImportListQuery,
  ImportListResponse,
  ImportMappingQuery,
  ImportMappingResponse,
  ImportResponse,
  isClearCell,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_CELL_CHARS,
  MAX_IMPORT_ROW_CELLS,
  XLSX_MIME,
} from '../../../shared/imports';
import { DEFAULT_PAGE_SIZE } from '../../../shared/paging';
import { currentUser } from '../../lib/auth';
import { CSV_BATCH, sendCsv } from '../../lib/csv-stream';
import { AppError, badRequest, conflict, isId, notFound } from '../../lib/errors';
import {
  activeLocations,
  addImportRows,
  dropImport,
  findImport,
  finishImport,
  importChecked,
  importErrorRows,
  listImports,
  startImport,
  UPLOAD_BATCH,
} from './imports.repository';
import { guessPreset, PRESETS } from './presets';
import { CSV_MEDIA_TYPES, isUtf8Charset, mediaTypeOf, readSpreadsheet, tooLarge } from './spreadsheet';
import { UNPACKED_MAX } from './workbook';

/**
 * An upload's body as it arrives, unread. Held in a private field, so that the app's check of a
 * body's text (which walks a parsed body's properties) finds nothing to walk.
 */
class UploadBody {
  readonly #stream: AsyncIterable<Uint8Array>;
  constructor(stream: AsyncIterable<Uint8Array>) {
    this.#stream = stream;
  }
  get stream(): AsyncIterable<Uint8Array> {
    return this.#stream;
  }
}

/** The media types an upload may be sent as: CSV's (spreadsheet.ts) and an Excel workbook's. */
const FORMAT_OF: Record<string, ImportFileType> = {
  ...Object.fromEntries(CSV_MEDIA_TYPES.map((type) => [type, 'csv' as const])),
  [XLSX_MIME]: 'xlsx',
};

const UNSUPPORTED = 'Send the file as CSV (text/csv) or as an Excel workbook (.xlsx).';

/** The upload's format by its content type (415 for any other, or for text not in UTF-8). */
function formatOf(request: FastifyRequest): ImportFileType {
  const { type, charset } = mediaTypeOf(request.headers['content-type']);
  const format = FORMAT_OF[type];
  if (!format) throw new AppError(415, UNSUPPORTED);
  if (format === 'csv' && !isUtf8Charset(charset)) throw new AppError(415, 'Send CSV as UTF-8 text.');
  return format;
}

/** The file's name without its extension, for the errors file's name. */
function baseName(fileName: string): string {
  return fileName.replace(/\.[^.]*$/, '') || 'import';
}

/**
 * The catalogue import (DESIGN §14), admin only: upload a file, check it (a dry run writing
 * nothing), apply it in the background, and read its rows and its failed rows as a file.
 */
export const importsRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The mapping a layout suggests for these columns (DESIGN §22): the headers' guess, or the preset's. */
  const suggestedMapping = async (format: ImportFormat, columns: readonly string[]) =>
    format === 'generic'
      ? guessMapping(columns)
      : PRESETS[format].mapping(columns, await activeLocations(app.database));

  // Uploads are read here from the raw body as it arrives, whatever its type: the handler says
  // which types it takes (415 for the rest, in a sentence of its own). Scoped to this plugin.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => {
    done(null, new UploadBody(payload as AsyncIterable<Uint8Array>));
  });

  app.post(
    '/imports/products',
    {
      config: { permission: 'products:write' },
      // Read while it arrives (Fastify's limit does not apply to a stream): spreadsheet.ts counts it.
      bodyLimit: MAX_IMPORT_BYTES,
      schema: {
        tags: ['imports'],
        summary: 'Upload a file of products to import',
        description: `The body is the file: CSV (${CSV_MIME}; UTF-8 with or without BOM; comma, semicolon or tab, found by itself) or XLSX (${XLSX_MIME}; the first sheet), up to 50 MB and 200,000 rows (413 above). The first row names the columns (200 at most, each header 200 characters at most). A cell over ${MAX_IMPORT_CELL_CHARS.toLocaleString('en-US')} characters or a row over ${MAX_IMPORT_ROW_CELLS} cells is a 400 naming where; a workbook whose parts read unpack past ${UNPACKED_MAX / 2 ** 20} MB is a 413. Workbooks are read one at a time: three more wait their turn (a minute at most), another is a 503. Answers the import with the mapping guessed from the headers and its first rows, each cell cut to ${IMPORT_PREVIEW_CHARS} characters.`,
        querystring: ImportFileQuery,
        response: { 201: ImportResponse },
      },
    },
    async (request, reply) => {
      const format = formatOf(request);
      const length = Number(request.headers['content-length']);
      if (Number.isFinite(length) && length > MAX_IMPORT_BYTES) throw tooLarge();
      const body = request.body;
      if (!(body instanceof UploadBody))
        throw badRequest('The file is empty; it needs a header row and the rows below it.');
      const sheet = await readSpreadsheet(format, body.stream, UPLOAD_BATCH);
      const me = currentUser(request);
      // DESIGN §22: the layout guessed from the headers, and the mapping it suggests.
      const preset = guessPreset(sheet.columns);
      const mapping = await suggestedMapping(preset, sheet.columns);
      const id = await startImport(
        app.db,
        {
          fileName: request.query.fileName,
          fileType: format,
          format: preset,
          columns: sheet.columns,
          mapping,
        },
        { id: me.id, name: me.name, role: me.role },
      ).catch(async (error) => {
        await sheet.close();
        throw error;
      });
      // Batches are written on two connections while the next is read (PGlite takes them in
      // turn); a write's failure is kept for the loop, which stops at it.
      let rows = 0;
      const lanes: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
      let failed: { error: unknown } | undefined;
      let turn = 0;
      try {
        for await (const batch of sheet.batches) {
          const lane = turn++ % lanes.length;
          await lanes[lane];
          if (failed) throw failed.error;
          rows += batch.length;
          lanes[lane] = addImportRows(app.db, id, batch).catch((error) => {
            failed = { error };
          });
        }
        await Promise.all(lanes);
        if (failed) throw failed.error;
        if (rows === 0) throw badRequest('The file has no rows below its header.');
        await finishImport(app.db, id, rows);
      } catch (error) {
        await Promise.all(lanes);
        await dropImport(app.db, id).catch((dropError) =>
          request.log.error({ err: dropError }, 'could not drop a failed upload'),
        );
        throw error;
      }
      const found = await findImport(app.db, id);
      if (!found) throw notFound('Import');
      return reply.code(201).send({ success: true as const, import: found });
    },
  );

  app.get(
    '/imports',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['imports'],
        summary: 'The imports, newest first, one page at a time',
        description:
          'Every import with its status, rows, progress and summary, newest first; an upload cut off halfway (no rows) is left out. 20 a page unless pageSize says otherwise. `preview` is [] here: one import answers its first rows.',
        querystring: ImportListQuery,
        response: { 200: ImportListResponse },
      },
    },
    async (request) => {
      const page = request.query.page ?? 1;
      const pageSize = request.query.pageSize ?? DEFAULT_PAGE_SIZE;
      const { imports, total } = await listImports(app.db, {
        limit: pageSize,
        offset: (page - 1) * pageSize,
      });
      const pageCount = Math.max(1, Math.ceil(total / pageSize));
      return { success: true as const, imports, total, page, pageSize, pageCount };
    },
  );

  app.get(
    '/imports/:id',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['imports'],
        summary: 'One import: its status, progress and summary',
        params: IdParams,
        response: { 200: ImportResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      const found = isId(id) ? await findImport(app.db, id) : undefined;
      if (!found) throw notFound('Import');
      return { success: true as const, import: found };
    },
  );

  app.get(
    '/imports/:id/mapping',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['imports'],
        summary: "The mapping a layout suggests for an import's columns",
        description:
          "DESIGN §22: the columns matched as `format` reads them (generic: by the headers; shopify, square: the preset's columns, a location's quantity column as stock@<location id>). Writes nothing: the screen shows it when the layout is changed, and the check sends it.",
        params: IdParams,
        querystring: ImportMappingQuery,
        response: { 200: ImportMappingResponse },
      },
    },
    async (request) => {
      const { id } = request.params;
      const found = isId(id) ? await findImport(app.db, id) : undefined;
      if (!found) throw notFound('Import');
      const { format } = request.query;
      return { success: true as const, format, mapping: await suggestedMapping(format, found.columns) };
    },
  );

  app.get(
    '/imports/:id/errors',
    {
      config: { permission: 'products:write' },
      schema: {
        tags: ['imports'],
        summary: 'The rows the check refused, as a file to fix and upload again',
        description: `CSV: the file's columns and an ${ERROR_COLUMN} column, each refused row's cells as uploaded and its problems ("<column>: <message>", separated by "; "), in line order. 409 before a check.`,
        params: IdParams,
        querystring: ImportErrorsQuery,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const found = isId(id) ? await findImport(app.db, id) : undefined;
      if (!found) throw notFound('Import');
      if (!(await importChecked(app.db, id)))
        throw conflict('Check the file first; the errors file lists the rows the check refused.');
      return sendCsv<number>(
        reply,
        `${baseName(found.fileName)}-errors.csv`,
        [...found.columns, ERROR_COLUMN],
        async (after) => {
          const rows = await importErrorRows(app.db, id, after ?? 0, CSV_BATCH);
          const last = rows.at(-1);
          return {
            rows: rows.map((row) => [
              // A clearing cell (`-`) comes back bare, so the fixed file clears what this one did.
              ...row.cells.map((cell) => (isClearCell(cell) ? { bare: cell } : cell)),
              row.errors.map((error) => `${error.column}: ${error.message}`).join('; '),
            ]),
            next: last && rows.length === CSV_BATCH ? last.line : undefined,
          };
        },
      );
    },
  );
};
