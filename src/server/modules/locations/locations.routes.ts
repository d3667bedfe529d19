import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../shared/common';
import {
  LocationInput,
  LocationListResponse,
  LocationResponse,
  LocationUpdate,
} from '../../../shared/locations';
import { currentUser } from '../../lib/auth';
import { isId, notFound } from '../../lib/errors';
import { answerOnce } from '../../lib/idempotency';
import { createLocation, listLocations, updateLocation } from './locations.repository';

const IDEMPOTENT = ' Accepts an Idempotency-Key.';

/** Locations (DESIGN §17): where stock lives, and the admin screens that keep them. */
export const locationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/locations',
    {
      config: { permission: 'locations:read' },
      schema: {
        tags: ['locations'],
        summary: 'The locations (shops and stockrooms), by name',
        description: 'Inactive locations are listed too; they cannot be chosen for a write.',
        response: { 200: LocationListResponse },
      },
    },
    async () => ({ success: true as const, locations: await listLocations(app.database) }),
  );

  app.post(
    '/locations',
    {
      config: { permission: 'locations:write' },
      schema: {
        tags: ['locations'],
        summary: 'Adds a location',
        description: `Names are unique ignoring case (409 LOCATION_NAME_TAKEN).${IDEMPOTENT}`,
        body: LocationInput,
        response: { 201: LocationResponse },
      },
    },
    async (request, reply) =>
      answerOnce(request, reply, async (tx) => ({
        status: 201,
        body: {
          success: true as const,
          location: await createLocation(tx, request.body, currentUser(request)),
        },
      })),
  );

  app.put(
    '/locations/:id',
    {
      config: { permission: 'locations:write' },
      schema: {
        tags: ['locations'],
        summary: 'Renames, changes, deactivates or reactivates a location',
        description: `Changes the fields it names. A location that holds stock, has an open till session or an open transfer, or is the default location cannot be deactivated (409 LOCATION_IN_USE, saying which).${IDEMPOTENT}`,
        params: IdParams,
        body: LocationUpdate,
        response: { 200: LocationResponse },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!isId(id)) throw notFound('Location');
      return answerOnce(request, reply, async (tx) => {
        const location = await updateLocation(tx, id, request.body, currentUser(request));
        if (!location) throw notFound('Location');
        return { status: 200, body: { success: true as const, location } };
      });
    },
  );
};
