import { z } from 'zod';
import { CONTRACT_STATUSES, LANGUAGES, REQUIRE_AUTH_VALUES, TIMESTAMP_STATUSES, LTV_STATUSES } from './enums';
import { longText, resourcePath, shortText, ZPageQuerySchema, ZTimeFilterSchema, ZTimestampSchema } from './common';
import { reminderFields } from './reminders';
import { anchoringFields } from './anchors';

/** Loose enough for every address a mail server takes, strict enough to catch a typo'd field. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An e-mail address, or empty for none. */
export const optionalEmail = () =>
  z
    .string()
    .max(1_000)
    .refine((value) => value === '' || EMAIL_PATTERN.test(value), 'must be an e-mail address or empty');

export const ZTemplatePathSchema = resourcePath('contract_templates');

const testMode = z.boolean().meta({
  description:
    "true: a test contract. Its parties can be answered for through the API (POST …/parties/{party_id}/test_answer), so that an integration's tests walk the whole flow; its audit trail says so, and it is never a real signature. Set on a draft only.",
});

const allowDelegation = z.boolean().meta({
  description:
    'true: a party that has not answered may hand its turn to another person from its signing page ("Someone else should sign": name, e-mail or mobile number, and a reason). Its link stops working at once, the new person is invited like a corrected party, the activity log records party.delegated (who, to whom, why) and the opt-in contract.party_delegated event is raised. Default false. Set on a draft only.',
});

/** The bounds of a contract's metadata (docs: ApiContract.metadata). */
export const METADATA_MAX_KEYS = 20;
export const METADATA_KEY_PATTERN = /^[A-Za-z0-9_.-]{1,40}$/;
export const METADATA_MAX_VALUE_LENGTH = 500;
const METADATA_BOUNDS = `At most ${METADATA_MAX_KEYS} keys; a key is 1 to 40 of A-Z a-z 0-9 _ . -, a value at most ${METADATA_MAX_VALUE_LENGTH} characters.`;

const metadataKey = z.string().regex(METADATA_KEY_PATTERN, 'keys must be 1 to 40 of A-Z a-z 0-9 _ . -');
const metadataWrite = z
  .record(metadataKey, z.string().max(METADATA_MAX_VALUE_LENGTH))
  .refine((value) => Object.keys(value).length <= METADATA_MAX_KEYS, `must have at most ${METADATA_MAX_KEYS} keys`)
  .meta({
    description: `Your own string keys and values (an order number, a customer id), returned on read and searchable with the list's metadata filter. ${METADATA_BOUNDS} On update the keys sent are set, a key sent with "" is removed and the others stay; a draft only.`,
    example: { order_id: 'A-1042' },
  });

export const ZContractSchema = z
  .object({
    self: z.string().meta({ description: "The contract's path", example: '/api/contracts/1' }),
    name: z.string().meta({ description: 'Empty until named', example: 'Lease agreement' }),
    language: z
      .enum(LANGUAGES)
      .meta({ description: 'Language of the invitations, the signing page and the audit trail' }),
    content: z
      .string()
      .meta({ description: 'The text a rendered contract is made from; empty for an uploaded PDF', example: '' }),
    pdf_preview_uri: z.string().meta({
      description: 'Authenticated API URL that returns the contract PDF',
      example: 'http://127.0.0.1:8750/api/contracts/1/pdf',
    }),
    email_invite_content: z.string().meta({ description: 'Added to the invitation e-mail', example: '' }),
    email_from_name: z
      .string()
      .meta({ description: "The invitations' sender name; empty: the office's name", example: '' }),
    email_reply_to: z
      .string()
      .meta({ description: 'Where replies to the invitations go; empty: the sender', example: '' }),
    party_order_defined: z.boolean().meta({ description: 'true: parties sign one sign_order after the other' }),
    show_identity_number: z.boolean().meta({
      description:
        "true: each party's identity_number is shown on its signing page and in the signed PDF's audit trail",
    }),
    require_auth: z
      .enum(REQUIRE_AUTH_VALUES)
      .meta({ description: 'A one-time code the party must enter before the document opens' }),
    test_mode: testMode,
    allow_delegation: allowDelegation,
    metadata: z.record(z.string(), z.string()).meta({
      description: `Your own string keys and values, as set on create or update (a draft). ${METADATA_BOUNDS}`,
      example: { order_id: 'A-1042' },
    }),
    updated_time: ZTimestampSchema.meta({
      description:
        'When the contract last changed (its settings, a party, an answer, a message): what updated_since filters on',
    }),
    sent_time: ZTimestampSchema.nullable().meta({ description: 'null while a draft' }),
    expire_time: ZTimestampSchema.nullable().meta({
      description: 'When the signing links close; null: never',
      example: null,
    }),
    created_by: z.string().meta({ description: 'The author: a user path', example: '/api/users/1' }),
    created_time: ZTimestampSchema,
    template: z.string().nullable().meta({ description: 'The template the PDF was rendered from', example: null }),
    is_answered: z.boolean().meta({ description: 'Signed or rejected' }),
    is_signed: z.boolean().meta({ description: 'Every party has accepted; the signed PDF is ready' }),
    is_rejected: z.boolean().meta({ description: 'A party rejected it' }),
    timestamp_status: z.enum(TIMESTAMP_STATUSES).nullable().meta({
      description:
        "The RFC 3161 timestamp of the signed PDF: none (no authority configured when it was sealed: its times are only the appliance clock's word), pending (the authority did not answer; asked again until it does), signature (in the seal, PAdES B-T), document (a document timestamp appended later). null until signed",
    }),
    timestamp_time: ZTimestampSchema.nullable().meta({ description: "The timestamp authority's time (genTime)" }),
    ltv_status: z.enum(LTV_STATUSES).nullable().meta({
      description:
        "Long-term validation of the signed PDF (PAdES B-LT and B-LTA): none (no timestamp authority, or no timestamp yet), pending (the certificates' revocation data or the archive timestamp could not be had yet; asked again until they are, see ltv_error), done (a DSS with the seal's and the authorities' certificates and revocation data, and an archive timestamp over it; renewed before its authority's certificate expires). null until signed",
    }),
    ltv_error: z
      .string()
      .nullable()
      .meta({ description: 'Why long-term validation is still pending; null otherwise', example: null }),
    ltv_note: z.string().nullable().meta({
      description:
        'Once long-term validation is done, what its validation data lacks, in words: a certificate that publishes no revocation source (no OCSP responder, no CRL: its certificates are in the PDF, and nothing can say it was not revoked), or, after a renewal, older signatures whose revocation data was kept as the PDF had it because their CA did not answer; null when nothing is lacking',
      example: null,
    }),
    archive_time: ZTimestampSchema.nullable().meta({ description: "The newest archive timestamp's time (genTime)" }),
    archive_expire_time: ZTimestampSchema.nullable().meta({
      description: "When the newest archive timestamp's authority certificate expires: it is renewed a year before",
    }),
    ...reminderFields,
    next_reminder_time: ZTimestampSchema.nullable().meta({
      description: 'When the next automatic reminder goes out; null: none planned',
    }),
    expiry_warning_time: ZTimestampSchema.nullable().meta({
      description: 'When the expiry warning goes out; null: none planned',
    }),
    expiry_warned_time: ZTimestampSchema.nullable().meta({ description: 'When the expiry warning went out' }),
    withdrawn_time: ZTimestampSchema.nullable().meta({
      description: 'Set when the office withdrew the sent contract: its links are closed. The status stays sent.',
    }),
    withdrawn_by: z.string().nullable().meta({ description: 'The user who withdrew it (/api/users/<id>)' }),
    withdraw_reason: z.string().nullable().meta({ description: 'Why the office withdrew it, as it told the parties' }),
  })
  .meta({ id: 'ApiContract' });

const writableContractFields = {
  name: shortText(),
  language: z.enum(LANGUAGES),
  content: longText().meta({
    description: 'Light Markdown; the PDF of a contract made from a template (or from JSON) is rendered from it',
  }),
  email_invite_content: longText(),
  email_from_name: shortText(),
  email_reply_to: optionalEmail(),
  party_order_defined: z.boolean(),
  show_identity_number: z.boolean(),
  require_auth: z.enum(REQUIRE_AUTH_VALUES),
  test_mode: testMode,
  allow_delegation: allowDelegation,
  metadata: metadataWrite,
  expire_time: ZTimestampSchema.nullable(),
  template: ZTemplatePathSchema.nullable().meta({
    description: 'Render the contract PDF from this template; null unlinks the template and keeps the PDF',
  }),
  ...reminderFields,
};

/** The JSON way to create a contract (the other is a PDF body): every writable field, all optional. */
export const ZContractCreateSchema = z.strictObject(writableContractFields).partial().meta({ id: 'ApiContractCreate' });
export const ZContractUpdateSchema = z.strictObject(writableContractFields).partial().meta({ id: 'ApiContractUpdate' });

/** `POST /api/contracts?name=…`: names a contract uploaded as a PDF body, which has no room for fields. */
export const ZContractCreateQuerySchema = z.strictObject({
  name: shortText().optional().meta({
    description: 'The contract name (for a PDF body; a JSON body may carry name itself)',
    example: 'Lease agreement',
  }),
  metadata: metadataWrite.optional().meta({
    description: `Metadata for a PDF body, as metadata[key]=value (a JSON body carries metadata itself). ${METADATA_BOUNDS}`,
    param: { style: 'deepObject', explode: true },
  }),
});

export const CONTRACT_READ_ONLY_FIELDS = [
  'self',
  'pdf_preview_uri',
  'updated_time',
  'sent_time',
  'created_by',
  'created_time',
  'is_answered',
  'is_signed',
  'is_rejected',
  'timestamp_status',
  'timestamp_time',
  'ltv_status',
  'ltv_error',
  'ltv_note',
  'archive_time',
  'archive_expire_time',
  'next_reminder_time',
  'expiry_warning_time',
  'expiry_warned_time',
  'withdrawn_time',
  'withdrawn_by',
  'withdraw_reason',
] as const;

/** The bounds of a search (docs/decisions.md, "Contracts", search); server/db/repos/contract-search.ts holds the numbers. */
const SEARCH_NOTE =
  'A search looks at its newest 1,000 matches (checking at most 5,000 candidates; one or two characters: the newest 1,000 contracts); the other filters, the sort, the pages and the total apply within those.';

export const CONTRACT_SORT_KEYS = ['id', 'name', 'is_signed'] as const;
export type ContractSortKey = (typeof CONTRACT_SORT_KEYS)[number];
export type ContractSortTerm = { key: ContractSortKey; isDescending: boolean };

const SORT_PATTERN = /^-?(id|name|is_signed)(,-?(id|name|is_signed))*$/;

export const ZContractSortSchema = z
  .string()
  .regex(SORT_PATTERN, 'must be a comma-separated list of id, name, is_signed, each optionally prefixed with -')
  .refine((text) => {
    const keys = text.split(',').map((term) => term.replace(/^-/, ''));
    return new Set(keys).size === keys.length;
  }, 'must not name a key twice')
  .transform((text): ContractSortTerm[] =>
    text
      .split(',')
      .map((term) => ({ key: term.replace(/^-/, '') as ContractSortKey, isDescending: term.startsWith('-') })),
  )
  .meta({
    description: 'Comma-separated id, name, is_signed; - for descending. Default -id (newest first)',
    example: '-name',
  });

export const ZContractListQuerySchema = ZPageQuerySchema.extend({
  status: z.enum(CONTRACT_STATUSES).optional(),
  user: z
    .string()
    .regex(/^(\/api\/users\/)?[1-9][0-9]{0,15}$/, 'must be a user path of the form /api/users/<id>')
    .transform((text) => Number(text.replace('/api/users/', '')))
    .optional()
    .meta({ description: 'Only contracts created by this user (/api/users/<id>)' }),
  name: shortText()
    .optional()
    .meta({ description: `Case-insensitive substring of the contract name. ${SEARCH_NOTE}` }),
  q: shortText()
    .optional()
    .meta({
      description: `Case-insensitive substring of the contract name or of a party's name, e-mail or phone number. ${SEARCH_NOTE}`,
    }),
  sort: ZContractSortSchema.optional(),
  metadata: z
    .record(metadataKey, z.string().max(METADATA_MAX_VALUE_LENGTH))
    .refine((value) => Object.keys(value).length <= METADATA_MAX_KEYS, `must name at most ${METADATA_MAX_KEYS} keys`)
    .optional()
    .meta({
      description:
        'Only contracts whose metadata has exactly this value under this key, written metadata[key]=value (e.g. ?metadata[order_id]=A-1042); several keys must all match. Read through an index: its cost grows with the matches, not with the number of contracts.',
      param: { style: 'deepObject', explode: true },
    }),
  updated_since: ZTimeFilterSchema.optional().meta({
    description:
      "Only contracts whose updated_time is at or after this time, for syncing: keep the newest updated_time you saw and ask from it. Either YYYY-MM-DD HH:MM:SS in the office's time zone (the form every timestamp the API returns), or an ISO 8601 time with Z or an offset: 2026-12-07T09:00:00Z, 2026-12-07T10:00:00+01:00, 2026-12-07T04:00:00-05:00 (a fraction of a second is taken to the millisecond). Escape the offset's + as %2B in a URL; an unescaped + that arrives as a space is read as +. Any other form, or a time that does not exist (30 February, 25:00), is a 400 naming updated_since. Read through an index: its cost grows with the matches, not with the number of contracts.",
    example: '2026-11-26 09:00:00',
  }),
});

export const ZContractSendSchema = z
  .strictObject({
    silent: z.boolean().optional().meta({ description: 'true: no invitations are sent' }),
    auto_sign: z.boolean().optional().meta({ description: 'true: parties whose user is the acting user sign at once' }),
  })
  .meta({ id: 'ApiContractSend' });

const HASH = z.string().regex(/^[0-9a-f]{64}$/);
export const ACTOR_TYPES = ['user', 'party', 'appliance'] as const;

export const ZActivityEntrySchema = z
  .object({
    time: ZTimestampSchema,
    event: z.string(),
    user_agent: z.string(),
    ip_address: z.string(),
    sequence: z.number().int().meta({ description: "The entry's place in the contract's hash chain: 1, 2, …" }),
    recorded_time: ZTimestampSchema.meta({
      description: 'When it was recorded (the same moment as time)',
    }),
    recorded_ms: z.number().int().meta({
      description:
        'When it was recorded, in milliseconds since 1970-01-01 UTC: the moment the hash covers, exact to the millisecond and free of time zones',
      example: 1795647590829,
    }),
    actor_type: z
      .enum(ACTOR_TYPES)
      .meta({ description: 'Who did it: a user, a party (from its link), or SignDesk itself' }),
    actor: z.string().nullable().meta({ description: 'The user or party path of the actor; null for SignDesk itself' }),
    actor_name: z.string().meta({
      description:
        "The actor's name as it reads: a user's full name (else username), a party's name when it acted (details.party_name; a delegation or correction later makes the party someone else)",
    }),
    subject: z
      .string()
      .meta({ description: 'The resource the entry is about (a party, annotation or attachment path), or empty' }),
    details: z.record(z.string(), z.string()).meta({
      description:
        'What the event says beyond who, when and where: channel and addresses, typed name, cause, reason, copy_of, …; party_name on every entry about a party: its name when the entry was written',
    }),
    previous_hash: HASH.meta({ description: 'The hash of the entry before (64 zeros for the first)' }),
    hash: HASH.meta({
      description:
        'SHA-256 (hex) of the UTF-8 JSON array ["signdesk-activity-v1", contract path, sequence, recorded, event, subject, actor or "", user_agent, ip_address, details (keys sorted), previous_hash], written without spaces; recorded is recorded_ms written in UTC as YYYY-MM-DDTHH:MM:SS.mmmZ (JavaScript new Date(recorded_ms).toISOString())',
    }),
  })
  .meta({ id: 'ApiActivityLogEntry' });

export const ZActivityChainCheckSchema = z
  .object({
    is_intact: z.boolean().meta({
      description:
        'Every entry hashes to its stored hash, names the one before, the sequence has no gap, and every head an office anchor holds (re-derived from its timestamp token) is still there',
    }),
    entry_count: z.number().int(),
    head_sequence: z.number().int().nullable(),
    head_hash: HASH.nullable(),
    sealed_head_sequence: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The head printed in the sealed audit trail (signed contracts)' }),
    sealed_head_hash: HASH.nullable(),
    ...anchoringFields,
    problems: z.array(z.object({ sequence: z.number().int(), problem: z.string() })),
  })
  .meta({ id: 'ApiActivityChainCheck' });

export const ZTemplatePreviewQuerySchema = z.strictObject({
  language: z.enum(LANGUAGES).optional().meta({ description: 'Language of the page numbers; default en' }),
});

export type TContract = z.infer<typeof ZContractSchema>;
export type TContractCreate = z.infer<typeof ZContractCreateSchema>;
export type TContractUpdate = z.infer<typeof ZContractUpdateSchema>;
export type TContractListQuery = z.output<typeof ZContractListQuerySchema>;
/** `notify` takes no fields; a body, if sent, must be empty like every other endpoint's unknown fields. */
export const ZContractNotifySchema = z.strictObject({}).meta({ id: 'ApiContractNotify' });

export type TContractSend = z.infer<typeof ZContractSendSchema>;
export type TActivityEntry = z.infer<typeof ZActivityEntrySchema>;
export type TActivityChainCheck = z.infer<typeof ZActivityChainCheckSchema>;
