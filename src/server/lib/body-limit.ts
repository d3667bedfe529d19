import { z } from 'zod';

/** The most a body may weigh on any call, and on a call whose contract does not bound it. */
export const MAX_BODY = 1024 * 1024;
/** A body for a call that takes none, and the room every limit leaves for ignored extra fields. */
export const BODY_SLACK = 4 * 1024;
/**
 * How deep a JSON body may nest. The deepest contract (a sale: body, lines, a line) is 3 levels;
 * onRoute refuses a route whose contract is deeper, so a new one cannot be cut off unnoticed.
 */
export const MAX_JSON_DEPTH = 8;

/** Bytes of a JSON number at most (-1.2345678901234567e-308). */
const NUMBER_BYTES = 24;
/** Bytes of a JSON string's character at most: a control character is written as \u0000. */
const CHAR_BYTES = 6;

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  maxItems?: number;
  maxLength?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

/** The largest JSON text a value of `schema` can be, and how deep it nests (Infinity: unbounded). */
function measure(schema: JsonSchema): { bytes: number; depth: number } {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const each = alternatives.map(measure);
    return { bytes: Math.max(...each.map((m) => m.bytes)), depth: Math.max(...each.map((m) => m.depth)) };
  }
  if (schema.const !== undefined)
    return { bytes: JSON.stringify(schema.const).length * CHAR_BYTES, depth: 0 };
  if (schema.enum)
    return { bytes: Math.max(...schema.enum.map((v) => JSON.stringify(v).length * CHAR_BYTES)), depth: 0 };
  switch (schema.type) {
    case 'string':
      return { bytes: 2 + (schema.maxLength ?? Number.POSITIVE_INFINITY) * CHAR_BYTES, depth: 0 };
    case 'number':
    case 'integer':
      return { bytes: NUMBER_BYTES, depth: 0 };
    case 'boolean':
    case 'null':
      return { bytes: 5, depth: 0 };
    case 'array': {
      const item = schema.items ? measure(schema.items) : { bytes: Number.POSITIVE_INFINITY, depth: 0 };
      const count = schema.maxItems ?? Number.POSITIVE_INFINITY;
      return { bytes: 2 + count * (item.bytes + 1), depth: 1 + item.depth };
    }
    case 'object': {
      let bytes = 2;
      let depth = 0;
      for (const [key, value] of Object.entries(schema.properties ?? {})) {
        const part = measure(value);
        bytes += JSON.stringify(key).length * CHAR_BYTES + 2 + part.bytes;
        depth = Math.max(depth, part.depth);
      }
      return { bytes, depth: 1 + depth };
    }
    default:
      return { bytes: Number.POSITIVE_INFINITY, depth: Number.POSITIVE_INFINITY };
  }
}

/**
 * The body limit of a call, from its body contract: the largest body an honest client can send
 * (every field at its longest) and room for extra fields, rounded up to a whole kB; BODY_SLACK for a
 * call without a body, MAX_BODY for a body the contract does not bound. Also how deep it nests.
 */
export function bodyLimitOf(body: unknown): { limit: number; depth: number } {
  if (!(body instanceof z.ZodType)) return { limit: BODY_SLACK, depth: 0 };
  const { bytes, depth } = measure(
    z.toJSONSchema(body, { io: 'input', unrepresentable: 'any' }) as JsonSchema,
  );
  const limit = Math.ceil((bytes + BODY_SLACK) / 1024) * 1024;
  return { limit: Math.min(limit, MAX_BODY), depth };
}

/** "8 kB", "1 MB": a limit as the 413 sentence says it. */
export function sizeText(bytes: number): string {
  return bytes >= MAX_BODY ? `${bytes / MAX_BODY} MB` : `${Math.ceil(bytes / 1024)} kB`;
}

/**
 * Whether JSON text nests deeper than `max` arrays and objects, read in one pass before parsing:
 * JSON.parse of a megabyte of brackets takes most of a second, this a few milliseconds.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
