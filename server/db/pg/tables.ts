import { pgSchema } from './schema';

/**
 * Each PostgreSQL table as an export of its own, for drizzle-kit (drizzle.pg.config.ts), which
 * finds tables among a module's exports. test/integration/schema-drift.test.ts fails when one
 * is missing here.
 */
export const {
  activityLog,
  adminSessions,
  anchorHeads,
  annotationFiles,
  annotations,
  apiTokens,
  attachments,
  bulkSendRows,
  bulkSends,
  contractCounts,
  contractMetadata,
  contractRoleFields,
  contractSeals,
  contractTemplates,
  contracts,
  fileChunks,
  idempotencyKeys,
  jobs,
  office,
  officeAnchors,
  officeLog,
  outboxMessages,
  parties,
  partyCodes,
  partyMarks,
  sealedKeys,
  settings,
  ssoAttempts,
  storedFiles,
  templateFields,
  unclaimedFiles,
  userRecoveryCodes,
  users,
  userTotp,
  webhookAttempts,
  webhookConsumers,
  webhookDeliveries,
  webhookEvents,
} = pgSchema;
