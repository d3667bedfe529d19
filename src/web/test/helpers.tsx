import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, vi } from 'vitest';
import type { User } from '../../shared/users';
import { Notifications } from '../components/notifications';
import { notify } from '../lib/notify';
import { createQueryClient } from '../lib/query-client';
import { clearSession, setSession } from '../lib/session';

export type FetchCall = { method: string; path: string; body: unknown; headers: Record<string, string> };
type Reply = { status?: number; body: unknown };
type Handler = (call: FetchCall) => Reply | Promise<Reply>;

/**
 * Replaces fetch with a table of `METHOD /api/path` handlers and records every call.
 * An unexpected call fails loudly with a 500 so the test sees it.
 */
export function mockFetch(handlers: Record<string, Handler>) {
  const calls: FetchCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const call: FetchCall = {
      method,
      path: url.pathname,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const handler = handlers[`${method} ${url.pathname}`];
    const reply = handler
      ? await handler(call)
      : { status: 500, body: { success: false, error: `No mock for ${method} ${url.pathname}` } };
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export function userOf(role: User['role'], overrides: Partial<User> = {}): User {
  return {
    _id: `${role}-id`,
    name: `Test ${role}`,
    email: `${role.toLowerCase()}@example.com`,
    address: '1 Main Street',
    role,
    ...overrides,
  };
}

export function signIn(user: User, token = 'test-token') {
  setSession({ token, user });
}

/** Renders inside a fresh query client, with the notification area. */
export function renderWithClient(ui: ReactNode) {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false, staleTime: 0 }, mutations: { retry: false } });
  return {
    client,
    ...render(
      <QueryClientProvider client={client}>
        {ui}
        <Notifications />
      </QueryClientProvider>,
    ),
  };
}

afterEach(() => {
  cleanup();
  notify.clear();
  clearSession();
  localStorage.clear();
  vi.unstubAllGlobals();
});
