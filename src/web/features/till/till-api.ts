import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  type CashMovementInput,
  CashMovementResponse,
  type CloseSessionInput,
  type OpenSessionInput,
  type RegisterInput,
  RegisterListResponse,
  RegisterResponse,
  type RegisterUpdate,
  SessionListResponse,
  type SessionQuery,
  SessionResponse,
} from '../../../shared/till';
import { api } from '../../lib/api';
import { idempotencyKeys } from '../../lib/idempotency';
import { withQuery } from '../../lib/paging';
import { queryKeys } from '../../lib/query-keys';

/**
 * The till's reads and writes (DESIGN §13). Every write that moves money carries an
 * Idempotency-Key, so a retry after no answer opens, moves or closes once; every write refreshes
 * the sessions (the counter's open session, the lists and the reports).
 */

/** The registers: the counter offers the active ones, admins manage them all. */
export const registersQuery = queryOptions({
  queryKey: queryKeys.registers,
  queryFn: ({ signal }) => api('/registers', { schema: RegisterListResponse, signal }),
});

/** One session and its report: an X report while open, the Z report once closed. */
export const sessionQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.session(id),
    queryFn: ({ signal }) =>
      api(`/register-sessions/${encodeURIComponent(id)}`, { schema: SessionResponse, signal }),
  });

/** One page of sessions, newest first: every session for an admin, a seller's own otherwise. */
export const sessionsPageQuery = (query: SessionQuery) =>
  queryOptions({
    queryKey: queryKeys.sessionPage(query),
    queryFn: ({ signal }) =>
      api(withQuery('/register-sessions', query), { schema: SessionListResponse, signal }),
    placeholderData: keepPreviousData,
  });

/** A write's key that stays the same while the same thing is sent again (lib/idempotency.ts). */
function useKeys() {
  const [keys] = useState(() => idempotencyKeys());
  return keys;
}

/** After any till write: the open session, the lists and every report are read again. */
function useRefreshSessions() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: queryKeys.sessions });
}

/** Opens a session on a register with its opening float. */
export function useOpenSession(registerId: string) {
  const keys = useKeys();
  const refresh = useRefreshSessions();
  return useMutation({
    mutationFn: (input: OpenSessionInput) =>
      api(`/registers/${encodeURIComponent(registerId)}/open`, {
        method: 'POST',
        body: input,
        schema: SessionResponse,
        idempotencyKey: keys.keyFor({ registerId, ...input }),
      }),
    meta: { inlineErrors: true },
    onSuccess: () => keys.settled(),
    onError: (error) => keys.settled(error),
    onSettled: refresh,
  });
}

/** Cash put in (+) or taken out (−) of a session's drawer. */
export function useCashMovement(sessionId: string) {
  const keys = useKeys();
  const refresh = useRefreshSessions();
  return useMutation({
    mutationFn: (input: CashMovementInput) =>
      api(`/register-sessions/${encodeURIComponent(sessionId)}/cash`, {
        method: 'POST',
        body: input,
        schema: CashMovementResponse,
        idempotencyKey: keys.keyFor({ sessionId, ...input }),
      }),
    meta: { inlineErrors: true },
    onSuccess: () => keys.settled(),
    onError: (error) => keys.settled(error),
    onSettled: refresh,
  });
}

/** Closes a session with the cash counted; the answer is its Z report. */
export function useCloseSession(sessionId: string) {
  const keys = useKeys();
  const queryClient = useQueryClient();
  const refresh = useRefreshSessions();
  return useMutation({
    mutationFn: (input: CloseSessionInput) =>
      api(`/register-sessions/${encodeURIComponent(sessionId)}/close`, {
        method: 'POST',
        body: input,
        schema: SessionResponse,
        idempotencyKey: keys.keyFor({ sessionId, ...input }),
      }),
    meta: { inlineErrors: true },
    onSuccess: (answer) => {
      keys.settled();
      queryClient.setQueryData(queryKeys.session(answer.session._id), answer);
    },
    onError: (error) => keys.settled(error),
    onSettled: refresh,
  });
}

/** Admins: a new register, or a register renamed, activated or deactivated. */
export function useSaveRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: RegisterInput | RegisterUpdate }) =>
      id === null
        ? api('/registers', { method: 'POST', body: input, schema: RegisterResponse })
        : api(`/registers/${encodeURIComponent(id)}`, {
            method: 'PUT',
            body: input,
            schema: RegisterResponse,
          }),
    meta: { inlineErrors: true },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.registers });
      void queryClient.invalidateQueries({ queryKey: queryKeys.sessions });
    },
  });
}
