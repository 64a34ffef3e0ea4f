import { z } from 'zod';
import { DELIVERY_METHODS, SIGN_TYPES } from './enums';
import { optionalEmail } from './contracts';
import { shortText, ZTimestampSchema, ZUserPathSchema } from './common';

/** Digits with an optional leading +, spaces, dashes, dots and brackets between them; 6 to 15 digits. */
export const MOBILE_PHONE_PATTERN = /^\+?[0-9][0-9 ()./-]{4,28}[0-9]$/;

export const ZEmailStatusSchema = z.object({
  sent: z.boolean(),
  opened: z.boolean(),
  clicked: z.boolean(),
  bounced: z.boolean(),
  hardbounced: z.boolean(),
  softbounced: z.boolean(),
  blocked: z.boolean(),
  unsub: z.boolean(),
  spam: z.boolean(),
});

export const ZPartySchema = z
  .object({
    self: z.string(),
    name: z.string(),
    email: z.string(),
    mobile_phone: z.string(),
    identity_number: z.string(),
    delivery_method: z.enum(DELIVERY_METHODS),
    sign_type: z.enum(SIGN_TYPES),
    sign_order: z.number().int(),
    user: z.string().nullable(),
    is_accept: z.boolean(),
    sign_time: ZTimestampSchema.nullable(),
    reject_cause: z.string().nullable(),
    email_status: ZEmailStatusSchema,
    created_by: z.string(),
    created_time: ZTimestampSchema,
    contract_url: z.string().meta({ description: 'The link for this party to open and sign the contract' }),
    reminders_sent: z.number().int().meta({ description: 'Automatic reminders this party has had' }),
  })
  .meta({ id: 'ApiContractParty' });

const mobilePhone = () =>
  z
    .string()
    .max(1_000)
    .refine(
      (value) => value === '' || (MOBILE_PHONE_PATTERN.test(value) && /^(\D*\d){6,15}\D*$/.test(value)),
      'must be a phone number of 6 to 15 digits, optionally starting with +, or empty',
    );

const writablePartyFields = {
  name: shortText().refine((value) => value.trim() !== '', 'must not be empty'),
  email: optionalEmail(),
  mobile_phone: mobilePhone(),
  identity_number: shortText(),
  delivery_method: z.enum(DELIVERY_METHODS).meta({ description: 'Default EMAIL' }),
  sign_type: z.enum(SIGN_TYPES).meta({ description: 'Default DEFAULT' }),
  sign_order: z.number().int().min(0).max(10_000).meta({ description: 'Default: after the parties already added' }),
  user: ZUserPathSchema.nullable(),
};

export const ZPartyCreateSchema = z
  .strictObject(writablePartyFields)
  .partial()
  .required({ name: true })
  .meta({
    id: 'ApiContractPartyCreate',
    description: 'name is required, and an email and/or mobile_phone as delivery_method needs',
  });
export const ZPartyUpdateSchema = z.strictObject(writablePartyFields).partial().meta({ id: 'ApiContractPartyUpdate' });

export const PARTY_READ_ONLY_FIELDS = [
  'self',
  'is_accept',
  'sign_time',
  'reject_cause',
  'email_status',
  'created_by',
  'created_time',
  'contract_url',
  'reminders_sent',
] as const;

export type TParty = z.infer<typeof ZPartySchema>;
export type TPartyCreate = z.infer<typeof ZPartyCreateSchema>;
export type TPartyUpdate = z.infer<typeof ZPartyUpdateSchema>;
