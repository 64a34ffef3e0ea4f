import { z } from 'zod';
import { shortText } from './common';
import { ZContractListQuerySchema } from './contracts';

/** Bodies and answers of the contract actions beyond the interface's send and notify. */
export const ZContractWithdrawSchema = z
  .strictObject({
    reason: z
      .string()
      .trim()
      .max(1_000)
      .optional()
      .meta({ description: 'Told to the parties and kept in the activity log' }),
    silent: z.boolean().optional().meta({ description: 'true: the parties are not told' }),
  })
  .meta({ id: 'ApiContractWithdraw' });

export const ZContractDuplicateSchema = z
  .strictObject({
    name: shortText().optional().meta({ description: 'The name of the copy; default the same name' }),
  })
  .meta({ id: 'ApiContractDuplicate' });

/** The contract list's filters that counts take: the status is what is counted. */
export const ZContractCountsQuerySchema = ZContractListQuerySchema.pick({
  user: true,
  name: true,
  q: true,
  metadata: true,
}).strict();

export const ZContractCountsSchema = z
  .object({
    all: z.number().int(),
    draft: z.number().int(),
    sent: z.number().int(),
    signed: z.number().int(),
    rejected: z.number().int(),
  })
  .meta({
    id: 'ApiContractCounts',
    description: 'How many contracts the list holds under each status filter, with the other filters applied',
  });

export type TContractWithdraw = z.infer<typeof ZContractWithdrawSchema>;
export type TContractDuplicate = z.infer<typeof ZContractDuplicateSchema>;
export type TContractCounts = z.infer<typeof ZContractCountsSchema>;
export type TContractCountsQuery = z.output<typeof ZContractCountsQuerySchema>;
