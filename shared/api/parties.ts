import { z } from 'zod';
import { DELIVERY_METHODS, SIGN_TYPES } from './enums';
import { optionalEmail } from './contracts';
import { shortText, ZTimestampSchema, ZUserPathSchema } from './common';

/** Digits with an optional leading +, spaces, dashes, dots and brackets between them; 6 to 15 digits. */
export const MOBILE_PHONE_PATTERN = /^\+?[0-9][0-9 ()./-]{4,28}[0-9]$/;

export const ZEmailStatusSchema = z
  .object({
    sent: z.boolean(),
    opened: z.boolean(),
    clicked: z.boolean(),
    bounced: z.boolean(),
    hardbounced: z.boolean(),
    softbounced: z.boolean(),
    blocked: z.boolean(),
    unsub: z.boolean(),
    spam: z.boolean(),
  })
  .meta({ description: 'What became of the e-mails to this party; flags only ever turn on' });

/** The nine `email_status` flags, in the order the API lists them. */
export const EMAIL_STATUS_FLAGS = ZEmailStatusSchema.keyof().options;

export const ZPartySchema = z
  .object({
    self: z.string().meta({ description: "The party's path", example: '/api/contracts/1/parties/1' }),
    name: z.string().meta({ example: 'Signe Svensson' }),
    email: z.string().meta({ example: 'signe@office.example' }),
    mobile_phone: z.string().meta({ example: '' }),
    identity_number: z.string().meta({
      description:
        'A national identity number or the like; shown to the party and in the audit trail only when the contract has show_identity_number',
      example: '',
    }),
    delivery_method: z.enum(DELIVERY_METHODS),
    sign_type: z.enum(SIGN_TYPES),
    sign_order: z.number().int().meta({ example: 1 }),
    user: z
      .string()
      .nullable()
      .meta({ description: 'The user this party is, if any (auto_sign signs for them)', example: '/api/users/1' }),
    is_accept: z.boolean().meta({ description: 'The party has signed (or approved)' }),
    sign_time: ZTimestampSchema.nullable().meta({ example: null }),
    reject_cause: z.string().nullable().meta({ description: 'Why the party rejected the contract', example: null }),
    email_status: ZEmailStatusSchema,
    created_by: z.string().meta({ example: '/api/users/1' }),
    created_time: ZTimestampSchema,
    contract_url: z.string().meta({
      description: 'The link for this party to open and sign the contract: for this party alone',
      example: 'http://127.0.0.1:8750/sign/3q2-7wEXAMPLEtoken',
    }),
    reminders_sent: z.number().int().meta({ description: 'Automatic reminders this party has had' }),
    role: z.string().nullable().meta({
      description:
        'The name of the template role whose fields this party took (a contract made from a PDF template); null when it took none or the role has no name',
      example: 'Tenant',
    }),
    role_number: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The number of that role (1 = the first), or null', example: 2 }),
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
  name: shortText()
    .refine((value) => value.trim() !== '', 'must not be empty')
    .meta({
      description: 'As the invitation, the signing page and the audit trail show it',
      example: 'Signe Svensson',
    }),
  email: optionalEmail().meta({
    description: 'Where e-mail goes (EMAIL, EMAIL_AND_SMS); empty for none',
    example: 'signe@office.example',
  }),
  mobile_phone: mobilePhone().meta({
    description: 'Where SMS goes (SMS, EMAIL_AND_SMS): 6 to 15 digits, optionally starting with +; empty for none',
    example: '+46 70 123 45 67',
  }),
  identity_number: shortText().meta({
    description:
      "The party's identity number; shown to the party and in the audit trail only when the contract has show_identity_number",
    example: '19800101-1234',
  }),
  delivery_method: z.enum(DELIVERY_METHODS).meta({ description: 'Default EMAIL' }),
  sign_type: z.enum(SIGN_TYPES).meta({ description: 'Default DEFAULT' }),
  sign_order: z.number().int().min(0).max(10_000).meta({ description: 'Default: after the parties already added' }),
  user: ZUserPathSchema.nullable().meta({
    description: 'The user this party is, if any: sending with auto_sign signs for them',
    example: '/api/users/1',
  }),
};

export const ZPartyCreateSchema = z
  .strictObject({
    ...writablePartyFields,
    role: shortText().nullable().meta({
      description:
        'On a contract made from a PDF template: the name of the role this party takes (its fields), any case. Without it (or null) the party takes the lowest role still waiting, as before. A name the template lacks, or a role another party has, makes nothing.',
      example: 'Tenant',
    }),
  })
  .partial()
  .required({ name: true })
  .meta({
    id: 'ApiContractPartyCreate',
    description: 'name is required, and an email and/or mobile_phone as delivery_method needs',
  });
export const ZPartyUpdateSchema = z.strictObject(writablePartyFields).partial().meta({ id: 'ApiContractPartyUpdate' });

export const ZPartyCorrectionSchema = z
  .strictObject({
    name: writablePartyFields.name.optional(),
    email: writablePartyFields.email.optional(),
    mobile_phone: writablePartyFields.mobile_phone.optional(),
    delivery_method: writablePartyFields.delivery_method.optional(),
    reason: shortText()
      .refine((value) => value.trim() !== '', 'must not be empty')
      .meta({
        description: 'Why the party is corrected: the audit trail shows it',
        example: 'E-mail address mistyped',
      }),
  })
  .meta({
    id: 'ApiContractPartyCorrection',
    description:
      'A correction of a party of a sent contract that has not answered: the fields to change (at least one) and the reason',
  });
export type TPartyCorrection = z.infer<typeof ZPartyCorrectionSchema>;

/**
 * `POST /sign/<token>/delegate` (the signing page, not the customer API): the party hands its
 * turn to another person, reached by e-mail or mobile phone (at least one), and says why.
 */
export const ZPartyDelegationSchema = z.strictObject({
  name: writablePartyFields.name,
  email: writablePartyFields.email.optional(),
  mobile_phone: writablePartyFields.mobile_phone.optional(),
  reason: shortText().refine((value) => value.trim() !== '', 'must not be empty'),
});
export type TPartyDelegation = z.infer<typeof ZPartyDelegationSchema>;

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
  'role_number',
] as const;

export type TParty = z.infer<typeof ZPartySchema>;
export type TPartyCreate = z.infer<typeof ZPartyCreateSchema>;
export type TPartyUpdate = z.infer<typeof ZPartyUpdateSchema>;
