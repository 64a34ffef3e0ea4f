import { z } from 'zod';
import { ZTimestampSchema } from './common';

/** The renewal of archive timestamps (PAdES B-LTA): what the last run did, and when the next check is. */
export const ZArchiveRenewalSchema = z
  .object({
    renew_before_days: z.number().int().meta({
      description:
        "An archive timestamp is renewed this many days before its authority's certificate expires (checked daily)",
      example: 365,
    }),
    started_time: ZTimestampSchema.nullable().meta({ description: 'When the last renewal began; null: never' }),
    reason: z
      .enum(['scheduled', 'admin'])
      .nullable()
      .meta({ description: 'Who began it: the daily check, or an admin' }),
    total: z.number().int().meta({ description: 'Contracts the last renewal put in line' }),
    renewed: z.number().int().meta({ description: 'Of those, the ones with a new archive timestamp since it began' }),
    pending: z
      .number()
      .int()
      .meta({ description: 'Contracts still waiting for validation data or an archive timestamp' }),
    errors: z.array(z.object({ contract: z.string(), error: z.string() })).meta({
      description: 'Why some are still waiting (the first five): they are asked again on TSA_RETRY_SCHEDULE_S',
    }),
    next_check_time: ZTimestampSchema.nullable().meta({ description: 'When the daily check runs next' }),
  })
  .meta({ id: 'ApiArchiveRenewal' });

export type TArchiveRenewal = z.infer<typeof ZArchiveRenewalSchema>;
