import { expect } from 'vitest';
import { type Import, ImportResponse, ImportRowsResponse } from '../../shared/imports';
import type { TestApp } from './harness';

/**
 * The catalogue import's calls as an admin makes them (DESIGN §14): upload a file, check it, apply
 * it and wait until it is done, read its checked rows. Each call expects its success status, so a
 * test reads as the story it tells. `app` is asked at each call (a suite starts its app later).
 */
export function importCalls(app: () => TestApp, token = () => app().as.admin.token) {
  const t = { call: (...args: Parameters<TestApp['call']>) => app().call(...args) };
  const upload = async (
    body: string | Buffer,
    type = 'text/csv',
    fileName = 'products.csv',
  ): Promise<Import> => {
    const res = await t.call('POST', `/api/imports/products?fileName=${encodeURIComponent(fileName)}`, {
      token: token(),
      body,
      headers: { 'content-type': type },
    });
    expect(res.status, res.text).toBe(201);
    return ImportResponse.parse(res.body).import;
  };
  const check = async (id: string, body: object): Promise<Import> => {
    const res = await t.call('POST', `/api/imports/${id}/check`, { token: token(), body });
    expect(res.status, res.text).toBe(200);
    return ImportResponse.parse(res.body).import;
  };
  /** Starts the apply and waits (two minutes at most) until it has applied or failed. */
  const applied = async (id: string): Promise<Import> => {
    const res = await t.call('POST', `/api/imports/${id}/apply`, { token: token(), body: {} });
    expect(res.status, res.text).toBe(202);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const now = ImportResponse.parse(
        (await t.call('GET', `/api/imports/${id}`, { token: token() })).body,
      ).import;
      if (now.status !== 'applying') return now;
      if (Date.now() > deadline) throw new Error(`import ${id} still applying after two minutes`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  /** The checked rows, 100 at most, in line order. */
  const rows = async (id: string) =>
    ImportRowsResponse.parse(
      (await t.call('GET', `/api/imports/${id}/rows?pageSize=100`, { token: token() })).body,
    ).rows;
  return { upload, check, applied, rows };
}
