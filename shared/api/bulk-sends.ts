import { z } from 'zod';
import { ZTimestampSchema } from './common';

export const ZBulkPartySchema = z.object({
  role: z.number().int(),
  name: z.string(),
  email: z.string(),
  mobile_phone: z.string(),
});

/** A CSV row as read, before anything is made: its parties and what is wrong with it. */
export const ZBulkPreviewRowSchema = z
  .object({
    line: z.number().int().meta({ description: "The row's line in the file; the header is line 1" }),
    contract_name: z.string(),
    parties: z.array(ZBulkPartySchema),
    errors: z.array(z.string()).meta({ description: 'Empty when the row can be sent' }),
  })
  .meta({ id: 'ApiBulkPreviewRow' });

export const ZBulkPreviewSchema = z
  .object({
    roles: z.number().int(),
    delimiter: z.enum([',', ';']),
    rows: z.array(ZBulkPreviewRowSchema),
    valid: z.number().int(),
    invalid: z.number().int(),
  })
  .meta({ id: 'ApiBulkPreview' });

export const BULK_ROW_STATES = ['pending', 'sent', 'failed'] as const;

export const ZBulkSendRowSchema = z
  .object({
    line: z.number().int(),
    contract_name: z.string(),
    parties: z.array(ZBulkPartySchema),
    state: z.enum(BULK_ROW_STATES),
    error: z.string().nullable(),
    contract: z.string().nullable().meta({ description: 'The contract made and sent for the row' }),
  })
  .meta({ id: 'ApiBulkSendRow' });

export const ZBulkSendSchema = z
  .object({
    self: z.string(),
    template: z.string().nullable(),
    template_name: z.string(),
    created_by: z.string(),
    created_time: ZTimestampSchema,
    total: z.number().int(),
    pending: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    rows: z.array(ZBulkSendRowSchema),
  })
  .meta({ id: 'ApiBulkSend' });

export type TBulkParty = z.infer<typeof ZBulkPartySchema>;
export type TBulkPreviewRow = z.infer<typeof ZBulkPreviewRowSchema>;
export type TBulkPreview = z.infer<typeof ZBulkPreviewSchema>;
export type TBulkSendRow = z.infer<typeof ZBulkSendRowSchema>;
export type TBulkSend = z.infer<typeof ZBulkSendSchema>;
