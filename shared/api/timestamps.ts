import { z } from 'zod';
import { MAX_STRING_LENGTH } from '../constants';
import { ZTimestampSchema } from './common';
import { isHttpUrl, SETTING_SOURCES } from './messaging-settings';

/** The PC's clock and the authority's may differ by this much before the admin is warned. */
export const CLOCK_WARNING_SECONDS = 60;

export const ZTimestampSettingsSchema = z
  .object({
    tsa_url: z.string().nullable().meta({
      description:
        "RFC 3161 timestamp authority that timestamps every seal (PAdES B-T). null: none, and the signing times are then only the word of this PC's clock. A password in it is shown as ********",
      example: 'https://freetsa.org/tsr',
    }),
    source: z
      .enum(SETTING_SOURCES)
      .nullable()
      .meta({ description: 'Where tsa_url comes from: saved settings, the environment (TSA_URL) or nowhere' }),
    pending_count: z
      .number()
      .int()
      .meta({ description: 'Signed contracts waiting for the authority to answer (timestamp pending)' }),
    last_timestamp_time: ZTimestampSchema.nullable().meta({
      description:
        "The authority's time (genTime) of the latest timestamp: a seal's, a document timestamp, an office anchor (at least daily) or a test",
    }),
    last_clock_offset_seconds: z.number().nullable().meta({
      description: "The authority's time minus this PC's at the latest timestamp (positive: the PC is behind)",
    }),
    is_clock_off: z.boolean().meta({
      description: `The PC's clock and the authority's differed by more than ${CLOCK_WARNING_SECONDS} s at the latest timestamp (compared at every one); the admin UI warns on every page`,
    }),
  })
  .meta({ id: 'TimestampSettings' });

export const ZTimestampSettingsUpdateSchema = z
  .strictObject({
    tsa_url: z
      .string()
      .min(1, { abort: true })
      .max(MAX_STRING_LENGTH, { abort: true })
      .refine(isHttpUrl, 'must be an http:// or https:// URL of an RFC 3161 timestamp authority')
      .nullable()
      .optional(),
  })
  .meta({
    id: 'TimestampSettingsUpdate',
    description: 'null removes the saved value: the environment (TSA_URL), if any, applies again.',
  });

export const TIMESTAMP_SETTINGS_READ_ONLY_FIELDS = [
  'source',
  'pending_count',
  'last_timestamp_time',
  'last_clock_offset_seconds',
  'is_clock_off',
] as const;

export const ZTimestampTestResultSchema = z
  .object({
    ok: z.boolean(),
    error: z.string().nullable(),
    authority_time: ZTimestampSchema.nullable().meta({ description: "The authority's time (genTime)" }),
    clock_offset_seconds: z.number().nullable(),
    is_clock_off: z.boolean(),
    authority: z.string().nullable().meta({ description: "The subject of the authority's signing certificate" }),
  })
  .meta({ id: 'TimestampTestResult' });

export type TTimestampSettings = z.infer<typeof ZTimestampSettingsSchema>;
export type TTimestampSettingsUpdate = z.infer<typeof ZTimestampSettingsUpdateSchema>;
export type TTimestampTestResult = z.infer<typeof ZTimestampTestResultSchema>;
