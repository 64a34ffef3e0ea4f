import { sql } from 'drizzle-orm';
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';
import { contractTemplates } from './templates';

/**
 * Stored bytes (contract PDFs, attachments, signed PDFs). Same bytes of the same type are kept
 * once. Bytes written inside a transaction live in `data`; an upload's bytes are written ahead,
 * off the request thread, into DATA_DIR/files under their SHA-256 (`in_files`, `data` empty),
 * and the row that names them commits with the contract (see server/db/file-store.ts).
 */
export const storedFiles = sqliteTable(
  'stored_files',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sha256: text('sha256').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    data: blob('data', { mode: 'buffer' }).notNull(),
    /**
     * The bytes are kept by the file store under their hash, not in `data`: the file
     * DATA_DIR/files/<first two of sha256>/<sha256> on SQLite, rows of `file_chunks` on PostgreSQL.
     */
    inFiles: integer('in_files', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('stored_files_sha256').on(t.sha256, t.contentType)],
);

/**
 * Files of DATA_DIR/files that may have no row: placed for an upload whose row has not committed
 * yet, or whose last row was deleted. Each is checked, and removed when no row claims it, at the
 * next start (server/db/file-store.ts).
 */
export const unclaimedFiles = sqliteTable('unclaimed_files', {
  sha256: text('sha256').primaryKey(),
  since: integer('since').notNull(),
});

/**
 * The bytes of stored files on PostgreSQL, where an office's files live in its database (any
 * instance reads any file): each file under its SHA-256 in chunks of 256 KiB, numbered from 0,
 * kept once whatever the rows that name it (server/db/pg/pg-file-store.ts). Unused on SQLite,
 * whose files live in DATA_DIR/files; the table is here so that both dialects keep one schema.
 */
export const fileChunks = sqliteTable(
  'file_chunks',
  {
    sha256: text('sha256').notNull(),
    chunk: integer('chunk').notNull(),
    data: blob('data', { mode: 'buffer' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sha256, t.chunk] })],
);

export const contracts = sqliteTable(
  'contracts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull().default(''),
    /** Lower-cased name: the case-insensitive sort and search key. */
    nameFolded: text('name_folded').notNull().default(''),
    language: text('language').notNull().default('en'),
    content: text('content').notNull().default(''),
    emailInviteContent: text('email_invite_content').notNull().default(''),
    emailFromName: text('email_from_name').notNull().default(''),
    emailReplyTo: text('email_reply_to').notNull().default(''),
    partyOrderDefined: integer('party_order_defined', { mode: 'boolean' }).notNull().default(false),
    showIdentityNumber: integer('show_identity_number', { mode: 'boolean' }).notNull().default(false),
    requireAuth: text('require_auth').notNull().default('NONE'),
    /** Sent with `silent`: the appliance sends no message of its own about this contract. */
    isSilent: integer('is_silent', { mode: 'boolean' }).notNull().default(false),
    /** A test contract: parties may be answered for through the API (test_answer); never a real signature. */
    isTest: integer('is_test', { mode: 'boolean' }).notNull().default(false),
    /** A party may hand its turn to another person from its signing page (allow_delegation). */
    allowDelegation: integer('allow_delegation', { mode: 'boolean' }).notNull().default(false),
    /** draft | sent | signed | rejected */
    status: text('status').notNull().default('draft'),
    isSigned: integer('is_signed', { mode: 'boolean' })
      .notNull()
      .generatedAlwaysAs(sql`(status = 'signed')`, { mode: 'virtual' }),
    /** The negation of is_signed: lets a sort like `is_signed,-name` walk one index in one direction. */
    isUnsigned: integer('is_unsigned', { mode: 'boolean' })
      .notNull()
      .generatedAlwaysAs(sql`(status <> 'signed')`, { mode: 'virtual' }),
    /** upload: the PDF was sent as is; rendered: the PDF is made from header, content and footer. */
    source: text('source').notNull(),
    templateId: integer('template_id').references(() => contractTemplates.id, { onDelete: 'set null' }),
    /** JSON array of the PDF template's role names as they were when the contract was made from it. */
    roleNames: text('role_names').notNull().default('[]'),
    header: text('header').notNull().default(''),
    footer: text('footer').notNull().default(''),
    footerType: text('footer_type').notNull().default('NONE'),
    originalFileId: integer('original_file_id')
      .notNull()
      .references(() => storedFiles.id),
    signedFileId: integer('signed_file_id').references(() => storedFiles.id),
    /** JSON `[[width, height], …]` in points, as displayed (rotation applied), one pair per page. */
    pageSizes: text('page_sizes').notNull(),
    sentAt: integer('sent_at'),
    expireAt: integer('expire_at'),
    signedAt: integer('signed_at'),
    rejectedAt: integer('rejected_at'),
    /** Automatic reminders every this many days (REMINDER_DAY_S each); null: none. */
    reminderIntervalDays: integer('reminder_interval_days'),
    /** At most this many automatic reminders per party. */
    reminderMaxCount: integer('reminder_max_count').notNull().default(3),
    /** A warning this many days before expire_at to the parties still awaited; null: none. */
    expiryWarningDays: integer('expiry_warning_days'),
    /** When the reminder job next reminds (planned; null: no reminder ahead). */
    nextReminderAt: integer('next_reminder_at'),
    /** When the expiry warning goes out (planned), and when it went. */
    expiryWarningAt: integer('expiry_warning_at'),
    expiryWarnedAt: integer('expiry_warned_at'),
    /** Withdrawn by the office while out for signing: the links are closed (the status stays `sent`). */
    withdrawnAt: integer('withdrawn_at'),
    withdrawnBy: integer('withdrawn_by').references(() => users.id),
    withdrawReason: text('withdraw_reason'),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  // One index per list ordering and filter, so that every page is an index seek (see docs/decisions.md).
  (t) => [
    index('contracts_status_id').on(t.status, t.id),
    index('contracts_status_name').on(t.status, t.nameFolded, t.id),
    index('contracts_name_id').on(t.nameFolded, t.id),
    index('contracts_signed_id').on(t.isSigned, t.id),
    index('contracts_signed_name').on(t.isSigned, t.nameFolded, t.id),
    index('contracts_unsigned_id').on(t.isUnsigned, t.id),
    index('contracts_unsigned_name').on(t.isUnsigned, t.nameFolded, t.id),
    index('contracts_user_id').on(t.createdBy, t.id),
    index('contracts_user_status_id').on(t.createdBy, t.status, t.id),
    index('contracts_user_name').on(t.createdBy, t.nameFolded, t.id),
    index('contracts_user_signed_id').on(t.createdBy, t.isSigned, t.id),
    index('contracts_user_status_name').on(t.createdBy, t.status, t.nameFolded, t.id),
    index('contracts_user_signed_name').on(t.createdBy, t.isSigned, t.nameFolded, t.id),
    index('contracts_user_unsigned_id').on(t.createdBy, t.isUnsigned, t.id),
    index('contracts_user_unsigned_name').on(t.createdBy, t.isUnsigned, t.nameFolded, t.id),
    index('contracts_original_file').on(t.originalFileId),
    index('contracts_signed_file').on(t.signedFileId),
    index('contracts_template').on(t.templateId),
    // updated_since: a range of this index, never a walk of every contract.
    index('contracts_updated_at').on(t.updatedAt),
  ],
);

/**
 * A contract's metadata (`metadata` in the API): string keys and values of the integrator's
 * own. The list filters by an exact key and value through the (key, value, contract_id) index.
 */
export const contractMetadata = sqliteTable(
  'contract_metadata',
  {
    contractId: integer('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.contractId, t.key] }),
    index('contract_metadata_key_value').on(t.key, t.value, t.contractId),
  ],
);

/**
 * Totals of the contract list kept in the same transactions as the contracts, so that
 * `Pagination-Items-Total` never counts rows. Scopes: `*`, `s:<status>`, `u:<user>`, `u:<user>:s:<status>`.
 */
export const contractCounts = sqliteTable('contract_counts', {
  scope: text('scope').primaryKey(),
  n: integer('n').notNull().default(0),
});

export const parties = sqliteTable(
  'parties',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    contractId: integer('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull().default(''),
    mobilePhone: text('mobile_phone').notNull().default(''),
    identityNumber: text('identity_number').notNull().default(''),
    deliveryMethod: text('delivery_method').notNull().default('EMAIL'),
    signType: text('sign_type').notNull().default('DEFAULT'),
    signOrder: integer('sign_order').notNull().default(0),
    userId: integer('user_id').references(() => users.id),
    /** The template role (1, 2, …) whose fields this party took, if any, and that role's name then. */
    role: integer('role'),
    roleName: text('role_name'),
    /**
     * SHA-256 (base64url) of the token of the party's secret link (`/sign/<token>`): links are
     * looked up by it; the token itself is never stored.
     */
    signTokenHash: text('sign_token_hash').notNull(),
    /** The token is HMAC(app secret, this nonce): recomputable with DATA_DIR/keys, not from the database alone. */
    signNonce: text('sign_nonce'),
    /** A link made before tokens were derived (kept working): its token sealed under the app secret. */
    signTokenSealed: text('sign_token_sealed'),
    isAccept: integer('is_accept', { mode: 'boolean' }).notNull().default(false),
    signTime: integer('sign_time'),
    rejectCause: text('reject_cause'),
    rejectedAt: integer('rejected_at'),
    invitedAt: integer('invited_at'),
    openedAt: integer('opened_at'),
    answerIpAddress: text('answer_ip_address'),
    answerUserAgent: text('answer_user_agent'),
    /** The name the party typed to sign with (their signature mark). */
    signatureName: text('signature_name'),
    /** How the party was identified when answering: NONE, EMAIL_CODE, SMS_CODE, AUTO_SIGN or TEST_API (a test contract). */
    answerAuthentication: text('answer_authentication'),
    emailSent: integer('email_sent', { mode: 'boolean' }).notNull().default(false),
    emailOpened: integer('email_opened', { mode: 'boolean' }).notNull().default(false),
    emailClicked: integer('email_clicked', { mode: 'boolean' }).notNull().default(false),
    emailBounced: integer('email_bounced', { mode: 'boolean' }).notNull().default(false),
    emailHardbounced: integer('email_hardbounced', { mode: 'boolean' }).notNull().default(false),
    emailSoftbounced: integer('email_softbounced', { mode: 'boolean' }).notNull().default(false),
    emailBlocked: integer('email_blocked', { mode: 'boolean' }).notNull().default(false),
    emailUnsub: integer('email_unsub', { mode: 'boolean' }).notNull().default(false),
    emailSpam: integer('email_spam', { mode: 'boolean' }).notNull().default(false),
    /** Automatic reminders this party has had, and when it was last reminded (automatically or by hand). */
    remindersSent: integer('reminders_sent').notNull().default(0),
    lastRemindedAt: integer('last_reminded_at'),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('parties_contract_id').on(t.contractId, t.id),
    uniqueIndex('parties_sign_token_hash').on(t.signTokenHash),
    index('parties_user').on(t.userId),
  ],
);

export const annotations = sqliteTable(
  'annotations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    contractId: integer('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    partyId: integer('party_id')
      .notNull()
      .references(() => parties.id, { onDelete: 'cascade' }),
    pdfPage: integer('pdf_page').notNull(),
    posX: real('pos_x').notNull(),
    posY: real('pos_y').notNull(),
    width: real('width').notNull(),
    height: real('height').notNull(),
    type: text('type').notNull(),
    content: text('content').notNull().default(''),
    /** What the field asks and a line of help, shown to the party. */
    label: text('label').notNull().default(''),
    hint: text('hint').notNull().default(''),
    /** JSON array of the choices of a DROPDOWN or RADIO field; null for other types. */
    options: text('options'),
    inputRequired: integer('input_required', { mode: 'boolean' }).notNull().default(true),
    renderWhenSigned: integer('render_when_signed', { mode: 'boolean' }).notNull().default(true),
    /**
     * What the party filled in when signing; for ATTACHMENT the JSON `{name, content_type, size,
     * sha256}` of the file (its bytes: annotation_files).
     */
    value: text('value'),
    /**
     * JSON `{page, x, y, width, height}` of the text tag this field was made from: painted white
     * in the signed PDF, so the tag's text never shows (wherever the field was moved since).
     */
    tagBox: text('tag_box'),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('annotations_contract_id').on(t.contractId, t.id), index('annotations_party').on(t.partyId)],
);

/** The file a party attached to an ATTACHMENT field, stored with its answer. */
export const annotationFiles = sqliteTable('annotation_files', {
  annotationId: integer('annotation_id')
    .primaryKey()
    .references(() => annotations.id, { onDelete: 'cascade' }),
  fileId: integer('file_id')
    .notNull()
    .references(() => storedFiles.id),
});

export const attachments = sqliteTable(
  'attachments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    contractId: integer('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    fileId: integer('file_id')
      .notNull()
      .references(() => storedFiles.id),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('attachments_contract_id').on(t.contractId, t.id), index('attachments_file').on(t.fileId)],
);

export const activityLog = sqliteTable(
  'activity_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    contractId: integer('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    /** The resource the entry is about (a party, annotation or attachment path), or empty. */
    subject: text('subject').notNull().default(''),
    /** The acting user; null for the appliance itself and for parties. The chain hashes the actor. */
    userId: integer('user_id').references(() => users.id),
    /**
     * The acting party (opened, signed, rejected, asked for a code); null for users and the
     * appliance. No foreign key: parties act only once sent, when they can no longer be removed.
     */
    partyId: integer('party_id'),
    userAgent: text('user_agent').notNull().default(''),
    ipAddress: text('ip_address').notNull().default(''),
    createdAt: integer('created_at').notNull(),
    /** 1, 2, … within the contract: the entry's place in the contract's hash chain. */
    sequence: integer('sequence'),
    /** JSON object of strings, keys sorted: what the event says beyond who, when and where (channel, typed name, cause, …). */
    details: text('details').notNull().default('{}'),
    /** The hash of the entry before (64 zeros for the first): see server/evidence/activity-chain.ts. */
    previousHash: text('previous_hash'),
    /** SHA-256 (hex) of this entry's canonical form, which includes previousHash. */
    hash: text('hash'),
  },
  (t) => [
    index('activity_log_contract_id').on(t.contractId, t.id),
    uniqueIndex('activity_log_chain').on(t.contractId, t.sequence),
    // Entries from before the chain existed, found at start-up without a scan.
    index('activity_log_unchained')
      .on(t.contractId, t.id)
      .where(sql`hash IS NULL`),
  ],
);

/**
 * What a signed contract's evidence rests on, written with the `signed` state: the sealed file's
 * hash (the verify page finds the contract by it), the activity-chain head printed in the sealed
 * audit trail, and the state of its RFC 3161 timestamp.
 */
export const contractSeals = sqliteTable(
  'contract_seals',
  {
    contractId: integer('contract_id')
      .primaryKey()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    /** SHA-256 of the signed PDF as sealed, before any document timestamp was appended. */
    sealedSha256: text('sealed_sha256').notNull(),
    sealedSize: integer('sealed_size').notNull(),
    /** SHA-256 of the bytes the seal signs (its /ByteRange): what is sealed, whatever happens to the file around it. */
    sealedContentSha256: text('sealed_content_sha256'),
    /** SHA-256 (hex) of the certificate that sealed it: the verify page knows the appliance's seals by it. */
    sealCertificateSha256: text('seal_certificate_sha256'),
    /** The chain head printed in the audit trail; null for contracts sealed before the chain existed. */
    chainHeadSequence: integer('chain_head_sequence'),
    chainHeadHash: text('chain_head_hash'),
    /** none (no authority configured) | pending (asked again by a job) | signature (in the seal's CMS) | document (a document timestamp) */
    timestampStatus: text('timestamp_status').notNull().default('none'),
    tsaUrl: text('tsa_url'),
    /** The authority's genTime, epoch ms. */
    timestampTime: integer('timestamp_time'),
    /** genTime minus this PC's clock when the answer came, ms. */
    clockOffsetMs: integer('clock_offset_ms'),
    timestampAttempts: integer('timestamp_attempts').notNull().default(0),
    timestampError: text('timestamp_error'),
    /**
     * Long-term validation (PAdES B-LT/B-LTA): none (no authority, or nothing to extend yet) |
     * pending (validation data or the archive timestamp not had yet; a job asks again) | done.
     */
    ltvStatus: text('ltv_status').notNull().default('none'),
    ltvAttempts: integer('ltv_attempts').notNull().default(0),
    /** Why it is pending; once done, what its validation data lacks (the API's ltv_note), or null. */
    ltvError: text('ltv_error'),
    /** The newest archive (document) timestamp over the DSS: the authority's time, epoch ms. */
    archiveTime: integer('archive_time'),
    /** When that timestamp's authority certificate expires, epoch ms: it is renewed well before. */
    archiveExpiresAt: integer('archive_expires_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('contract_seals_sha256').on(t.sealedSha256),
    index('contract_seals_content_sha256').on(t.sealedContentSha256),
  ],
);
