import { z } from 'zod';
import { ZTimestampSchema } from './common';

const HASH = z.string().regex(/^[0-9a-f]{64}$/);

export const ZAnchorProofSchema = z
  .object({
    anchor: z.number().int().meta({ description: 'The office anchor (1, 2, …) that first holds these entries' }),
    through_sequence: z.number().int().meta({ description: 'Entries up to this sequence are proven by it' }),
    authority_time: ZTimestampSchema.meta({
      description:
        "The timestamp authority's time in the anchor's token: the entries existed, as they are now, by then",
    }),
    authority_time_ms: z.number().int().meta({
      description: 'The same time to the millisecond: milliseconds since 1970-01-01 UTC (as recorded_ms)',
      example: 1795694400000,
    }),
    authority: z.string().meta({ description: "The subject of the authority's signing certificate" }),
  })
  .meta({ id: 'AnchorProof' });

/** What every log check adds: how far an outside timestamp proves the log. */
export const anchoringFields = {
  proven_through_sequence: z.number().int().meta({
    description:
      'Entries 1 to this sequence are held by an office anchor timestamped by the authority (0: none yet); a change to any of them is detected. Later entries rest on this PC alone until the next anchor.',
  }),
  proofs: z.array(ZAnchorProofSchema).meta({
    description:
      'Each time the proven part of the log grew, oldest first: entry N is proven by the first proof whose through_sequence is at least N',
  }),
  latest_anchor_time: ZTimestampSchema.nullable().meta({
    description: "The authority's time of the newest office anchor that holds (of any log)",
  }),
};

export const ZOfficeLogEntrySchema = z
  .object({
    sequence: z.number().int(),
    time: ZTimestampSchema,
    recorded_ms: z.number().int().meta({
      description:
        'When it was recorded, in milliseconds since 1970-01-01 UTC: the moment the hash covers (written as new Date(recorded_ms).toISOString() in the hashed array)',
      example: 1795647590829,
    }),
    event: z.string().meta({ example: 'user.created' }),
    subject: z.string(),
    actor: z.string().nullable().meta({ description: "The acting user's path, or null (the appliance)" }),
    user_agent: z.string(),
    ip_address: z.string(),
    details: z.record(z.string(), z.string()),
    previous_hash: HASH,
    hash: HASH,
  })
  .meta({ id: 'OfficeLogEntry' });

export const ZOfficeLogCheckSchema = z
  .object({
    is_intact: z.boolean(),
    entry_count: z.number().int(),
    head_sequence: z.number().int().nullable(),
    head_hash: HASH.nullable(),
    anchor_count: z.number().int().meta({ description: 'Office anchors that hold (re-derived from their tokens)' }),
    ...anchoringFields,
    problems: z.array(z.object({ sequence: z.number().int(), problem: z.string() })),
  })
  .meta({ id: 'OfficeLogCheck' });

export type TAnchorProof = z.infer<typeof ZAnchorProofSchema>;
export type TOfficeLogEntry = z.infer<typeof ZOfficeLogEntrySchema>;
export type TOfficeLogCheck = z.infer<typeof ZOfficeLogCheckSchema>;
