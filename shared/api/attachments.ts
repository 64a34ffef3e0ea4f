import { z } from 'zod';
import { ZTimestampSchema } from './common';

export const ZAttachmentSchema = z
  .object({
    self: z.string(),
    name: z.string().meta({ description: 'The filename of the Content-Disposition it was uploaded with' }),
    preview_uri: z.string().meta({ description: 'Authenticated API URL that returns the file' }),
    created_by: z.string(),
    created_time: ZTimestampSchema,
  })
  .meta({ id: 'ApiContractAttachment' });

export type TAttachment = z.infer<typeof ZAttachmentSchema>;
