import { afterEach, describe, expect, it, vi } from 'vitest';
import { Message } from '../../shared/common';
import { ApiRequestError, api, apiFile } from './api';

/** fetch answering once with this status, body and Content-Type. */
function answer(status: number, body: string, type: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body === '' ? null : body, { status, headers: { 'Content-Type': type } })),
  );
}

async function failureOf(call: () => Promise<unknown>): Promise<ApiRequestError> {
  try {
    await call();
  } catch (error) {
    if (error instanceof ApiRequestError) return error;
    throw error;
  }
  throw new Error('the call should have failed');
}

const PROXY_PAGE =
  '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';

afterEach(() => vi.unstubAllGlobals());

describe('a failure without our error body', () => {
  it('says the status in one sentence when a proxy answers with its own HTML page', async () => {
    answer(502, PROXY_PAGE, 'text/html');
    const error = await failureOf(() => api('/products', { schema: Message }));
    expect(error.message).toBe('The server did not answer properly (502). Please try again.');
    expect(error.status).toBe(502);
    expect(error.withoutSentence).toBe(true);
  });

  it('says the same of an empty body and of JSON that is not our envelope, and for files too', async () => {
    answer(504, '', 'text/plain');
    expect((await failureOf(() => api('/products', { schema: Message }))).message).toBe(
      'The server did not answer properly (504). Please try again.',
    );
    answer(500, '{"message":"Internal"}', 'application/json');
    expect((await failureOf(() => api('/products', { schema: Message }))).message).toBe(
      'The server did not answer properly (500). Please try again.',
    );
    answer(502, PROXY_PAGE, 'text/html');
    expect((await failureOf(() => apiFile('/products?format=csv'))).message).toBe(
      'The server did not answer properly (502). Please try again.',
    );
  });

  it('keeps the server’s own sentence, code and total when it sends them', async () => {
    answer(
      409,
      JSON.stringify({
        success: false,
        error: 'The total is now $7.74.',
        code: 'TOTAL_CHANGED',
        total: 7.74,
      }),
      'application/json',
    );
    const error = await failureOf(() => api('/sales', { method: 'POST', body: {}, schema: Message }));
    expect(error).toMatchObject({
      message: 'The total is now $7.74.',
      status: 409,
      code: 'TOTAL_CHANGED',
      total: 7.74,
      withoutSentence: false,
    });
    answer(409, JSON.stringify({ success: false, error: 'Not enough stock' }), 'application/json');
    expect(await failureOf(() => api('/sales', { schema: Message }))).toMatchObject({
      message: 'Not enough stock',
      code: undefined,
    });
  });
});
