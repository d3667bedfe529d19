import { z } from 'zod';
import { Named, Ok, optionalText, requiredText } from './common';

/**
 * Locations (DESIGN §17, decision 0043): the one contract of where stock lives, read by the
 * server's routes, the screens, the counter and the reports. `Main store` exists from the start.
 */

export const LOCATION_KINDS = ['store', 'stockroom'] as const;
export const LocationKind = z.enum(LOCATION_KINDS, { error: 'kind must be store or stockroom.' });
export type LocationKind = z.infer<typeof LocationKind>;
export const LOCATION_KIND_LABEL: Record<LocationKind, string> = { store: 'Shop', stockroom: 'Stockroom' };

export const LOCATION_MAX = { name: 60, address: 300 } as const;

export const Location = z.object({
  _id: z.string(),
  name: z.string(),
  kind: LocationKind,
  address: z.string(),
  active: z.boolean(),
});
export type Location = z.infer<typeof Location>;

/** A location as other records name it (a movement, a register, a transfer). */
export const LocationName = Named;
export type LocationName = z.infer<typeof LocationName>;

const LocationNameText = requiredText(LOCATION_MAX.name, 'Location name');

export const LocationInput = z.object({
  name: LocationNameText,
  kind: LocationKind,
  address: optionalText(LOCATION_MAX.address).default(''),
});
export type LocationInput = z.input<typeof LocationInput>;

export const LocationUpdate = z
  .object({
    name: LocationNameText.optional(),
    kind: LocationKind.optional(),
    address: optionalText(LOCATION_MAX.address).optional(),
    active: z.boolean({ error: 'active must be true or false.' }).optional(),
  })
  .refine((update) => Object.values(update).some((value) => value !== undefined), {
    error: 'Give at least one of name, kind, address, active.',
  });
export type LocationUpdate = z.input<typeof LocationUpdate>;

export const LocationResponse = Ok.extend({ location: Location });
export const LocationListResponse = Ok.extend({ locations: z.array(Location) });
export type LocationListResponse = z.infer<typeof LocationListResponse>;

/** A location's id as a query or body names it (`?location=`, `location` on a write). */
export const LocationId = z
  .string({ error: 'location must be text.' })
  .trim()
  .min(1, { error: 'location must not be empty.' })
  .max(100, { error: 'location must be at most 100 characters.' });

/** `?location=`: the one location a list, report or check is about; absent: every location. */
export const LocationQuery = z.object({ location: LocationId.optional() });

/** A product's stock at one location (GET /api/products/:id/stock). */
export const LocationStockLine = z.object({
  location: LocationName,
  stock: z.number().int(),
  /** The location's own reorder point and quantity, or null for the product's own. */
  reorderPoint: z.number().int().nullable(),
  reorderQuantity: z.number().int().nullable(),
  /** A lot-tracked product's lots there, soonest expiry first. */
  lots: z
    .array(
      z.object({
        _id: z.string(),
        number: z.string(),
        expiresOn: z.string().nullable(),
        quantity: z.number().int(),
      }),
    )
    .optional(),
});
export type LocationStockLine = z.infer<typeof LocationStockLine>;

export const ProductLocationsResponse = Ok.extend({
  product: Named,
  /** Units sent and not yet received, lost or returned: they belong to no location. */
  inTransit: z.number().int(),
  locations: z.array(LocationStockLine),
});
export type ProductLocationsResponse = z.infer<typeof ProductLocationsResponse>;

/** PUT /api/products/:id/locations/:locationId: the location's own reorder point (null: the product's). */
export const LocationReorderInput = z.object({
  reorderPoint: z
    .number({ error: 'reorderPoint must be a number or null.' })
    .int({ error: 'reorderPoint must be a whole number.' })
    .min(0, { error: 'reorderPoint must be 0 or more.' })
    .max(1_000_000, { error: 'reorderPoint must be at most 1,000,000.' })
    .nullable(),
  reorderQuantity: z
    .number({ error: 'reorderQuantity must be a number or null.' })
    .int({ error: 'reorderQuantity must be a whole number.' })
    .min(1, { error: 'reorderQuantity must be at least 1.' })
    .max(1_000_000, { error: 'reorderQuantity must be at most 1,000,000.' })
    .nullable(),
});
export type LocationReorderInput = z.input<typeof LocationReorderInput>;

/** Where else a product is held: the `elsewhere` of a SHORT_AT_LOCATION refusal, the counter's hint. */
export const Elsewhere = z.array(z.object({ location: LocationName, stock: z.number().int() }));
export type Elsewhere = z.infer<typeof Elsewhere>;
