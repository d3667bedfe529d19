import { z } from 'zod';

/** 503's answer carries the code of every refusal of a database that does not answer (decision 0041). */
export const HealthResponse = z.object({
  success: z.boolean(),
  status: z.enum(['ok', 'unavailable']),
  code: z.literal('UNAVAILABLE').optional(),
});
