import { z } from 'zod';

export const HealthResponse = z.object({ success: z.boolean(), status: z.enum(['ok', 'unavailable']) });
