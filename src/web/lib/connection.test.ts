import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from './api-error';
import {
  isOffline,
  isUnreachable,
  PROBE_EVERY_MS,
  reportReach,
  resetReach,
  subscribeReach,
} from './connection';

afterEach(() => {
  resetReach();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('whether the server can be reached', () => {
  it('is not for no answer or a proxy’s 502–504 page; our own 503 sentence and every refusal are answers', () => {
    expect(isUnreachable(new ApiRequestError('x', 0))).toBe(true);
    for (const status of [502, 503, 504])
      expect(isUnreachable(new ApiRequestError('x', status, { withoutSentence: true }))).toBe(true);
    expect(isUnreachable(new ApiRequestError('The search took too long.', 503))).toBe(false);
    for (const status of [400, 401, 404, 409, 500])
      expect(isUnreachable(new ApiRequestError('x', status, { withoutSentence: true }))).toBe(false);
    expect(isUnreachable(new Error('plain'))).toBe(false);
    expect(isUnreachable(null)).toBe(false);
  });

  it('follows the last call, tells its listeners once per change, and the browser’s own offline too', () => {
    const heard = vi.fn();
    const stop = subscribeReach(heard);
    expect(isOffline()).toBe(false);
    reportReach('unreachable');
    reportReach('unreachable');
    expect(isOffline()).toBe(true);
    expect(heard).toHaveBeenCalledTimes(1);
    reportReach('answered');
    expect(isOffline()).toBe(false);
    expect(heard).toHaveBeenCalledTimes(2);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    expect(isOffline()).toBe(true);
    window.dispatchEvent(new Event('offline'));
    expect(heard).toHaveBeenCalledTimes(3);
    stop();
    vi.restoreAllMocks();
  });

  it('asks /api/health while unanswered, and is back once the server answers (a proxy’s 503 is not an answer)', async () => {
    vi.useFakeTimers();
    const answers = [503, 200];
    const fetchMock = vi.fn(async () => new Response('{}', { status: answers.shift() ?? 200 }));
    vi.stubGlobal('fetch', fetchMock);
    reportReach('unreachable');
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]?.[0 as never])).toBe('/api/health');
    expect(isOffline()).toBe(true);
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    expect(isOffline()).toBe(false);
    // Answered: the probe has stopped.
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS * 3);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
