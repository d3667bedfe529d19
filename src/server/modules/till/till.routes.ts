import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../shared/common';
import { DEFAULT_PAGE_SIZE, onePage } from '../../../shared/paging';
import { can } from '../../../shared/roles';
import {
  CashMovementInput,
  CashMovementResponse,
  CloseSessionInput,
  OpenSessionInput,
  RegisterInput,
  RegisterListResponse,
  RegisterResponse,
  RegisterUpdate,
  SessionListResponse,
  SessionQuery,
  SessionResponse,
} from '../../../shared/till';
import { currentUser } from '../../lib/auth';
import { isId, notFound } from '../../lib/errors';
import type { AuthUser } from '../../lib/fastify';
import { answerOnce } from '../../lib/idempotency';
import {
  closeSession,
  createRegister,
  findSession,
  listRegisters,
  moveCash,
  openSession,
  registerExists,
  sessionPage,
  updateRegister,
} from './till.repository';

/**
 * Whose sessions a caller sees and works: an admin every one (undefined: no filter), everyone
 * else those they opened and every open one (a till is shared by whoever works the counter: one
 * opens it, another may sell, move cash and close). Every session answer and write filters by
 * it, so another seller's closed session is simply not found (404).
 */
function sessionOwner(me: AuthUser): string | undefined {
  return can(me.role, 'till:manage') ? undefined : me.id;
}

const IDEMPOTENT = ' Accepts an Idempotency-Key.';

/** The till (DESIGN §13): registers, and the sessions opened, used and closed on them. */
export const tillRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/registers',
    {
      config: { permission: 'till:use' },
      schema: {
        tags: ['till'],
        summary: 'The registers (tills), by name',
        description: 'Inactive registers are listed too; they cannot be opened.',
        response: { 200: RegisterListResponse },
      },
    },
    async () => ({ success: true as const, registers: await listRegisters(app.database) }),
  );

  app.post(
    '/registers',
    {
      config: { permission: 'till:manage' },
      schema: {
        tags: ['till'],
        summary: 'Adds a register',
        description: `Names are unique ignoring case (409). location: where its sales take stock from (default: the default location; an inactive one is a 409).${IDEMPOTENT}`,
        body: RegisterInput,
        response: { 201: RegisterResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => ({
        status: 201,
        body: {
          success: true as const,
          register: await createRegister(tx, request.body, currentUser(request)),
        },
      })),
  );

  app.put(
    '/registers/:id',
    {
      config: { permission: 'till:manage' },
      schema: {
        tags: ['till'],
        summary: 'Renames, deactivates or reactivates a register',
        description: `Changes the fields it names. A register with an open session cannot be deactivated or moved to another location (409).${IDEMPOTENT}`,
        params: IdParams,
        body: RegisterUpdate,
        response: { 200: RegisterResponse },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isId(id)) throw notFound('Register');
      return answerOnce(request, reply, async (tx) => {
        const register = await updateRegister(tx, id, request.body, currentUser(request));
        if (!register) throw notFound('Register');
        return { status: 200, body: { success: true as const, register } };
      });
    },
  );

  app.post(
    '/registers/:id/open',
    {
      config: { permission: 'till:use' },
      schema: {
        tags: ['till'],
        summary: 'Opens a session on a register with its opening float',
        description: `A register has at most one open session (409); an inactive register cannot be opened (409). Answers the session and its report.${IDEMPOTENT}`,
        params: IdParams,
        body: OpenSessionInput,
        response: { 201: SessionResponse },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isId(id)) throw notFound('Register');
      return answerOnce(request, reply, async (tx) => ({
        status: 201,
        body: {
          success: true as const,
          ...(await openSession(tx, id, request.body.openingFloat, currentUser(request))),
        },
      }));
    },
  );

  app.post(
    '/register-sessions/:id/cash',
    {
      config: { permission: 'till:use' },
      schema: {
        tags: ['till'],
        summary: 'Puts cash in (amount > 0) or takes it out (amount < 0) of an open session',
        description: `Taking out more than the drawer holds is a 409; a closed session takes no cash (409). Sellers work any open session, admins any session.${IDEMPOTENT}`,
        params: IdParams,
        body: CashMovementInput,
        response: { 201: CashMovementResponse },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { id } = request.params;
      if (!isId(id)) throw notFound('Session');
      return answerOnce(request, reply, async (tx) => ({
        status: 201,
        body: { success: true as const, ...(await moveCash(tx, id, request.body, sessionOwner(me), me)) },
      }));
    },
  );

  app.post(
    '/register-sessions/:id/close',
    {
      config: { permission: 'till:use' },
      schema: {
        tags: ['till'],
        summary: 'Closes a session with the cash counted in its drawer',
        description: `Answers the closed session and its Z report: difference = countedCash − expectedCash (over > 0, short < 0), recorded, never refused. Closing a closed session is a 409.${IDEMPOTENT}`,
        params: IdParams,
        body: CloseSessionInput,
        response: { 200: SessionResponse },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { id } = request.params;
      if (!isId(id)) throw notFound('Session');
      return answerOnce(request, reply, async (tx) => ({
        status: 200,
        body: { success: true as const, ...(await closeSession(tx, id, request.body, sessionOwner(me), me)) },
      }));
    },
  );

  app.get(
    '/register-sessions/:id',
    {
      config: { permission: 'till:use' },
      schema: {
        tags: ['till'],
        summary: 'A session and its report',
        description:
          'The report is live while the session is open (an X report) and final once closed (a Z report). An admin sees every session; others those they opened.',
        params: IdParams,
        response: { 200: SessionResponse },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { id } = request.params;
      const found = isId(id) ? await findSession(app.database, id, sessionOwner(me)) : undefined;
      if (!found) throw notFound('Session');
      return { success: true as const, ...found };
    },
  );

  app.get(
    '/register-sessions',
    {
      config: { permission: 'till:use' },
      schema: {
        tags: ['till'],
        summary: 'Sessions, newest first, one page at a time',
        description: `An admin sees every session, others those they opened. register and status filter; from and to are days opened in the store’s time zone, both included. A closed session carries its expected cash and difference. Always paged (pageSize ${DEFAULT_PAGE_SIZE} unless given).`,
        querystring: SessionQuery,
        response: { 200: SessionListResponse },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { register, status, from, to } = request.query;
      const window = onePage(request.query);
      if (register !== undefined && !(isId(register) && (await registerExists(app.database, register))))
        throw notFound('Register');
      const { sessions, total } = await sessionPage(
        app.database,
        { registerId: register, openedBy: sessionOwner(me), status, from, to },
        window,
        app.config.timeZone,
      );
      return { success: true as const, sessions, total, page: window.page, pageSize: window.pageSize };
    },
  );
};
