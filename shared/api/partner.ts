import { z } from 'zod';
import { MAX_RATE_LIMIT } from '../constants';
import { TOKEN_KINDS } from './enums';
import { shortText, ZTimestampSchema, ZUserPathSchema } from './common';

/**
 * The IT partner who runs SignDesk for the office: the admin UI names them when it warns of the
 * plan (limits near, end date close), so that the office knows whom to ask.
 */
const partnerContactFields = {
  partner_name: shortText()
    .nullable()
    .meta({ description: "The IT partner's name, shown to the office with plan warnings", example: 'Acme IT AB' }),
  partner_email: z
    .email()
    .max(1_000)
    .nullable()
    .meta({ description: "The partner's e-mail for the office's questions", example: 'support@acme-it.example' }),
  partner_phone: z
    .string()
    .max(100)
    .nullable()
    .meta({ description: "The partner's phone number", example: '+46 8 123 456 00' }),
};

/** The office: the appliance's one customer, administered through the partner API. */
export const ZCustomerSchema = z
  .object({
    self: z.literal('/api/partner/customer'),
    name: z.string(),
    email: z.string(),
    default_rate_limit: z.number().int(),
    is_set_up: z.boolean(),
    created_time: ZTimestampSchema,
    ...partnerContactFields,
  })
  .meta({ id: 'PartnerCustomer' });

export const ZCustomerUpdateSchema = z
  .strictObject({
    name: shortText().optional(),
    email: z.email().max(1_000).optional(),
    default_rate_limit: z.number().int().min(1).max(MAX_RATE_LIMIT).optional(),
    partner_name: partnerContactFields.partner_name.optional(),
    partner_email: partnerContactFields.partner_email.optional(),
    partner_phone: partnerContactFields.partner_phone.optional(),
  })
  .meta({ id: 'PartnerCustomerUpdate' });

export const ZTokenSchema = z
  .object({
    self: z.string(),
    name: z.string(),
    kind: z.enum(TOKEN_KINDS),
    public_id: z.string(),
    rate_limit: z.number().int().meta({ description: 'Requests per minute' }),
    has_own_rate_limit: z.boolean().meta({ description: 'false: the office default applies' }),
    user: z.string(),
    created_time: ZTimestampSchema,
    last_used_time: ZTimestampSchema.nullable(),
    revoked_time: ZTimestampSchema.nullable(),
  })
  .meta({ id: 'PartnerApiToken' });

export const ZCreatedTokenSchema = ZTokenSchema.extend({
  api_key: z.string().meta({ description: 'public_id:secret, shown once; only its hash is kept' }),
}).meta({ id: 'PartnerApiTokenCreated' });

export const ZTokenCreateSchema = z
  .strictObject({
    name: shortText().min(1),
    kind: z.enum(TOKEN_KINDS).optional(),
    rate_limit: z.number().int().min(1).max(MAX_RATE_LIMIT).nullable().optional(),
    user: ZUserPathSchema.optional(),
  })
  .meta({ id: 'PartnerApiTokenCreate' });

export const ZTokenUpdateSchema = z
  .strictObject({
    name: shortText().min(1).optional(),
    rate_limit: z.number().int().min(1).max(MAX_RATE_LIMIT).nullable().optional(),
  })
  .meta({ id: 'PartnerApiTokenUpdate' });

export const CUSTOMER_READ_ONLY_FIELDS = ['self', 'created_time', 'is_set_up'] as const;
export const TOKEN_READ_ONLY_FIELDS = [
  'self',
  'public_id',
  'created_time',
  'last_used_time',
  'revoked_time',
  'has_own_rate_limit',
  'api_key',
] as const;

export type TCustomer = z.infer<typeof ZCustomerSchema>;
export type TCustomerUpdate = z.infer<typeof ZCustomerUpdateSchema>;
export type TToken = z.infer<typeof ZTokenSchema>;
export type TCreatedToken = z.infer<typeof ZCreatedTokenSchema>;
export type TTokenCreate = z.infer<typeof ZTokenCreateSchema>;
export type TTokenUpdate = z.infer<typeof ZTokenUpdateSchema>;
