import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * Single sign-on attempts between `POST /api/sso/start` and its callback: the one-time
 * `state` (kept as its SHA-256), the browser it was given to (the SHA-256 of the binding
 * cookie), the PKCE verifier (sealed under the app secret), the nonce and the redirect URI.
 * A row is deleted when its callback comes, whatever the outcome, so a state works once.
 */
export const ssoAttempts = sqliteTable(
  'sso_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    stateHash: text('state_hash').notNull(),
    browserHash: text('browser_hash').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [uniqueIndex('sso_attempts_state_hash').on(t.stateHash), index('sso_attempts_expires').on(t.expiresAt)],
);
