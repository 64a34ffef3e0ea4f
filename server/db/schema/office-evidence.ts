import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * The office's own log: changes to users, API keys, webhook consumers, settings and the seal
 * certificate, and deleted drafts, hash chained as a contract's activity log is (the same
 * algorithm, with the chain named `/api/office`), each written in the transaction of the change
 * it records.
 */
export const officeLog = sqliteTable(
  'office_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** 1, 2, …: the entry's place in the office chain. */
    sequence: integer('sequence').notNull(),
    event: text('event').notNull(),
    /** The resource the entry is about, e.g. /api/users/3, or empty. */
    subject: text('subject').notNull().default(''),
    /** The acting user, when known; no foreign key: the log outlives deleted users. */
    userId: integer('user_id'),
    userAgent: text('user_agent').notNull().default(''),
    ipAddress: text('ip_address').notNull().default(''),
    createdAt: integer('created_at').notNull(),
    /** JSON object of strings, keys sorted; never a secret. */
    details: text('details').notNull().default('{}'),
    previousHash: text('previous_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [uniqueIndex('office_log_sequence').on(t.sequence)],
);

/**
 * The office anchors: one chain whose every entry folds the heads of the chains that changed
 * since the entry before (each contract's activity log, the office log) and carries an RFC 3161
 * token over its own hash, whose time and imprint come from outside this database
 * (docs/decisions.md, "Office anchors"). Made after each seal and at least daily.
 */
export const officeAnchors = sqliteTable(
  'office_anchors',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sequence: integer('sequence').notNull(),
    /** This PC's time when the heads were read (the same clock as the entries' times). */
    createdAt: integer('created_at').notNull(),
    /** The last activity_log and office_log ids read: where the next anchor looks for changes. */
    activityIdThrough: integer('activity_id_through').notNull(),
    officeLogIdThrough: integer('office_log_id_through').notNull(),
    /** SHA-256 (hex) of the canonical list of the folded heads. */
    headsRoot: text('heads_root').notNull(),
    headCount: integer('head_count').notNull(),
    previousHash: text('previous_hash').notNull(),
    /** SHA-256 (hex) of the anchor's canonical form: what the token's message imprint holds. */
    hash: text('hash').notNull(),
    /** The authority's RFC 3161 token (CMS, DER). */
    token: blob('token', { mode: 'buffer' }).notNull(),
    /** The token's genTime as read when it came (checks read it from the token again). */
    tokenTime: integer('token_time').notNull(),
    /** The authority asked, origin and path only (never its credentials). */
    tsaUrl: text('tsa_url').notNull(),
    /** The authority's time minus this PC's at the answer, ms. */
    clockOffsetMs: integer('clock_offset_ms').notNull(),
  },
  (t) => [uniqueIndex('office_anchors_sequence').on(t.sequence)],
);

/** The heads an anchor folds: one row per chain that changed since the anchor before. */
export const anchorHeads = sqliteTable(
  'anchor_heads',
  {
    anchorId: integer('anchor_id')
      .notNull()
      .references(() => officeAnchors.id),
    /** The chain: /api/contracts/7, or /api/office for the office log. */
    chain: text('chain').notNull(),
    sequence: integer('sequence').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.anchorId, t.chain] }), index('anchor_heads_chain').on(t.chain, t.anchorId)],
);
