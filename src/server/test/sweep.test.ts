import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, ERROR_CODES } from '../../shared/common';
import { ROLES, type Role } from '../../shared/roles';
import { type Account, type Answer, parsed, startApp, type TestApp, targets } from './harness';

/**
 * The sweep (DESIGN §3 and §7: bad input is a 4xx in the envelope, never a 5xx). It reads the API
 * description and sends every documented call, as every role and as nobody, hostile values in every
 * path parameter, query field and body field the call's schema names. No list of calls lives here:
 * a new call joins by being documented. Values are spread over the callers deterministically: the
 * callers a call lets in share them (each value reaches each field once, as one of them), the
 * callers it refuses get every sixth, so a run stays near a minute per database.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  minLength?: number;
};
type Parameter = { in: 'path' | 'query' | string; name: string; schema?: JsonSchema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
type Call = { method: string; path: string; params: Parameter[]; body?: JsonSchema };

/** The part of the OpenAPI document the sweep reads: each path's operations, by method. */
const OpenApiPaths = z.object({
  paths: z.record(
    z.string(),
    z.record(
      z.string(),
      z.custom<Operation>((value) => typeof value === 'object' && value !== null),
    ),
  ),
});

const nest = (levels: number, inner: unknown): unknown =>
  levels === 0 ? inner : { a: nest(levels - 1, inner) };

/** What a hostile client sends where a field is expected (JSON bodies take each as it is). */
const HOSTILE: unknown[] = [
  // wrong types
  true,
  0,
  null,
  '',
  'abc',
  // dates that are not days, or not days anyone keeps
  '2024-13-01',
  '2024-02-30',
  '0000-01-01',
  '99999-12-31',
  'yesterday',
  // huge, negative, fractional and not-a-number numbers
  -1,
  1.5,
  2 ** 31,
  2 ** 53 + 2,
  1e21,
  -1e308,
  999_999_999_999.999,
  'NaN',
  'Infinity',
  '-1e309',
  // text no database should see
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  'x'.repeat(10_000),
  // ids that are not ids
  '00000000-0000-0000-0000-000000000000',
  "1' or '1'='1",
  // structures where a scalar belongs
  ['a', 'b'],
  [[]],
  { $gt: '' },
  nest(6, 'deep'),
  nest(40, 'deeper'),
];

/** A query or path text for a hostile value: strings as they are (encoded), the rest as JSON text. */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Percent-encodes text, lone surrogates too (encodeURIComponent refuses them). */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text]
      .map((char) => {
        const code = char.charCodeAt(0);
        if (code >= 0xd800 && code <= 0xdfff)
          return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
        return encodeURIComponent(char);
      })
      .join('');
  }
}

/** `name=value` pairs for the query: an array repeats the name, as a browser's form would. */
function queryPairs(name: string, value: unknown): string[] {
  if (Array.isArray(value)) return value.map((item) => `${encode(name)}=${encode(asText(item))}`);
  return [`${encode(name)}=${encode(asText(value))}`];
}

/** A value the schema would take, as plain as possible; ids from the store where a string is asked. */
function plausible(schema: JsonSchema | undefined, id: string, depth = 0): unknown {
  if (!schema || depth > 6) return 'x';
  const alternative = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (alternative) return plausible(alternative, id, depth);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, plausible(value, id, depth + 1)]),
      );
    case 'array':
      return [plausible(schema.items, id, depth + 1)];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'string':
      return schema.format === 'email'
        ? 'sweep@example.com'
        : (schema.minLength ?? 0) > 8
          ? 'x'.repeat(schema.minLength ?? 0)
          : id;
    default:
      return 'x';
  }
}

/** Every field path of a body schema (dotted, arrays as their first item), to depth 3. */
function fieldPaths(schema: JsonSchema | undefined, prefix: (string | number)[] = []): (string | number)[][] {
  if (!schema || prefix.length >= 3) return [];
  const alternative = schema.anyOf?.find((s) => s.type !== 'null') ?? schema.oneOf?.[0];
  if (alternative) return fieldPaths(alternative, prefix);
  if (schema.type === 'object')
    return Object.entries(schema.properties ?? {}).flatMap(([key, value]) => [
      [...prefix, key],
      ...fieldPaths(value, [...prefix, key]),
    ]);
  if (schema.type === 'array') return fieldPaths(schema.items, [...prefix, 0]);
  return [];
}

/** `body` with `value` at `path` (a copy). */
function withValue(body: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(body) && typeof head === 'number') {
    const copy = [...body];
    copy[head] = withValue(copy[head], rest, value);
    return copy;
  }
  const copy: Record<string | number, unknown> = { ...(body && typeof body === 'object' ? body : {}) };
  copy[head] = withValue(copy[head], rest, value);
  return copy;
}

/** The groups of two or more parameters that share one schema (from and to of a range). */
function sameKinds(params: Parameter[]): Parameter[][] {
  const kinds = new Map<string, Parameter[]>();
  for (const param of params) {
    const kind = JSON.stringify(param.schema ?? {});
    kinds.set(kind, [...(kinds.get(kind) ?? []), param]);
  }
  return [...kinds.values()].filter((group) => group.length > 1);
}

/** The documented calls: method, path and what they take. */
function documentedCalls(doc: { paths: Record<string, Record<string, Operation>> }): Call[] {
  const order = ['get', 'post', 'put', 'patch', 'delete'];
  return Object.entries(doc.paths)
    .flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method]) => order.includes(method))
        .map(([method, operation]) => ({
          method: method.toUpperCase(),
          path,
          params: operation.parameters ?? [],
          body: operation.requestBody?.content?.['application/json']?.schema,
        })),
    )
    .sort((a, b) => order.indexOf(a.method.toLowerCase()) - order.indexOf(b.method.toLowerCase()));
}

/** Every string `_id` in an answer: real ids of the store to put in paths. */
function idsIn(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) idsIn(item, found);
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      if (key === '_id' && typeof item === 'string') found.add(item);
      else idsIn(item, found);
    }
}

const WHO: (Role | 'nobody')[] = ['nobody', ...ROLES];

describe.each(targets)('the sweep on $name', (target) => {
  let t: TestApp;
  let calls: Call[];
  const storeIds: string[] = [];

  beforeAll(async () => {
    t = await startApp(target, { throttle: { perPair: 1e6, perEmail: 1e6, perAddress: 1e6, perUser: 1e6 } });
    const doc = await t.call('GET', '/api/docs/json');
    expect(doc.status).toBe(200);
    calls = documentedCalls(parsed(doc, OpenApiPaths));
    // A store with a little of everything, read back through the lists for ids of every kind.
    await t.product();
    await t.product({ stock: 0 });
    const found = new Set<string>();
    for (const call of calls.filter((c) => c.method === 'GET' && !c.path.includes('{'))) {
      const res = await t.call('GET', call.path, { token: t.as.superAdmin.token });
      idsIn(res.body, found);
      const asAdmin = await t.call('GET', call.path, { token: t.as.admin.token });
      idsIn(asAdmin.body, found);
    }
    // Ids of accounts that are not the caller (a call may delete them: they are nobody's session).
    storeIds.push(...[...found].filter((id) => !Object.values(t.as).some((a) => a.id === id)).slice(0, 10));
  }, 120_000);
  afterAll(() => t?.close());

  it('documents the calls it sweeps', () => {
    expect(calls.length).toBeGreaterThan(40);
    expect(storeIds.length).toBeGreaterThan(3);
  });

  it('answers every hostile value of every documented call, for every role, with no 5xx, the envelope on every 4xx and no-store', async () => {
    const problems: string[] = [];
    let sent = 0;

    const check = (label: string, res: Answer) => {
      sent += 1;
      // Not parsed(): one answer off the envelope is a problem listed with the others.
      const refusal = ApiError.safeParse(res.body);
      const envelope =
        res.status < 400 ||
        (typeof res.headers['content-type'] === 'string' &&
          res.headers['content-type'].startsWith('application/json') &&
          refusal.success &&
          refusal.data.error.length > 0 &&
          (ERROR_CODES as readonly unknown[]).includes(refusal.data.code));
      if (res.status >= 500 || !envelope) problems.push(`${label} → ${res.status} ${res.text.slice(0, 160)}`);
      else if (res.headers['cache-control'] !== 'no-store')
        problems.push(`${label} → ${res.status} without no-store`);
    };

    for (const call of calls) {
      // Fresh accounts per call: a sign-out or a deletion during one call does not blind the next.
      const accounts: Partial<Record<Role, Account>> = {};
      for (const role of ROLES) accounts[role] = await t.account(role);

      const tokenOf = (who: Role | 'nobody') => (who === 'nobody' ? undefined : accounts[who]?.token);
      // Who the call lets in: a plausible request answers neither 401 nor 403.
      const admitted: (Role | 'nobody')[] = [];
      for (const who of WHO) {
        const url = call.path.replace(/\{[^}]+\}/g, encode(accounts.user?.id ?? 'x'));
        const res = await t.call(call.method, url, {
          token: tokenOf(who),
          ...(call.body
            ? {
                body: JSON.stringify(plausible(call.body, 'x')),
                headers: { 'content-type': 'application/json' },
              }
            : {}),
        });
        if (res.status !== 401 && res.status !== 403) admitted.push(who);
      }
      const takes = (w: number, v: number) => {
        const who = WHO[w] as Role | 'nobody';
        const a = admitted.indexOf(who);
        return a >= 0 ? v % admitted.length === a : v % WHO.length === w;
      };

      for (const [w, who] of WHO.entries()) {
        const account = who === 'nobody' ? undefined : accounts[who];
        const token = account?.token;
        const ownId = account?.id ?? storeIds[0] ?? 'x';
        const pathParams = call.params.filter((p) => p.in === 'path');
        const queryParams = call.params.filter((p) => p.in === 'query');
        const baseBody = call.body ? plausible(call.body, storeIds[0] ?? 'x') : undefined;
        const send = async (
          label: string,
          params: Record<string, string>,
          query: string[],
          body: unknown,
        ) => {
          const url =
            call.path.replace(/\{([^}]+)\}/g, (_, name: string) => encode(params[name] ?? ownId)) +
            (query.length ? `?${query.join('&')}` : '');
          const res = await t.call(call.method, url, {
            token,
            ...(body === undefined
              ? {}
              : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
          });
          check(`${call.method} ${call.path} as ${who}: ${label}`, res);
        };
        const realParams = (id: string) => Object.fromEntries(pathParams.map((p) => [p.name, id]));

        // Real ids (the caller's own and the store's) in every path parameter, the rest plausible.
        if (pathParams.length)
          for (const id of [ownId, ...storeIds]) await send(`path ids ${id}`, realParams(id), [], baseBody);
        else await send('plausible', {}, [], baseBody);

        for (const [v, value] of HOSTILE.entries()) {
          if (!takes(w, v)) continue;
          const shown = asText(value).slice(0, 40);
          for (const param of pathParams)
            await send(
              `path ${param.name}=${shown}`,
              { ...realParams(ownId), [param.name]: asText(value) },
              [],
              baseBody,
            );
          for (const param of queryParams)
            await send(
              `query ${param.name}=${shown}`,
              realParams(ownId),
              queryPairs(param.name, value),
              baseBody,
            );
          // Fields of one kind at once (from and to), then every field: a rule relating two
          // fields meets two bad ones.
          for (const group of [...sameKinds(queryParams), ...(queryParams.length > 1 ? [queryParams] : [])])
            await send(
              `query ${group.map((p) => p.name).join(', ')}=${shown}`,
              realParams(ownId),
              group.flatMap((param) => queryPairs(param.name, value)),
              baseBody,
            );
          if (call.body) {
            for (const path of fieldPaths(call.body))
              await send(
                `body ${path.join('.')}=${shown}`,
                realParams(ownId),
                [],
                withValue(baseBody, path, value),
              );
            await send(`body=${shown}`, realParams(ownId), [], value);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(1000);
    expect(problems, problems.slice(0, 40).join('\n')).toEqual([]);
  }, 600_000);
});
