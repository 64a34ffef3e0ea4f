import type { Database } from '../database';
import { storeOf } from '../stores';
import type { FileStore } from '../file-store';
import { createActivityRepo } from './activity-log';
import { createAnnotationRepo } from './annotations';
import { createBulkSendRepo } from './bulk-sends';
import { createAttachmentRepo } from './attachments';
import { createContractRepo } from './contracts';
import { createContractMetadataRepo } from './contract-metadata';
import { createContractSealRepo } from './contract-seals';
import { createFileRepo } from './files';
import { createIdempotencyRepo } from './idempotency';
import { createAdminSessionRepo } from './admin-sessions';
import { createJobRepo } from './jobs';
import { createOfficeRepo } from './office';
import { createOfficeEvidenceRepo } from './office-evidence';
import { createOutboxRepo } from './outbox';
import { createSettingsRepo } from './settings';
import { createSecondFactorRepo } from './second-factors';
import { createSsoAttemptRepo } from './sso-attempts';
import { createPartyCodeRepo } from './party-codes';
import { createPartyMarkRepo } from './party-marks';
import { createPartyRepo } from './parties';
import { createTemplateFieldRepo } from './template-fields';
import { createTemplateRepo } from './templates';
import { createTokenRepo } from './tokens';
import { createUserRepo } from './users';
import { createUsageRepo } from './usage';
import { createWebhookConsumerRepo } from './webhook-consumers';
import { createWebhookDeliveryRepo } from './webhook-deliveries';
import { createWebhookLogRepo } from './webhook-log';

/**
 * Every repository over the database's store (either engine); statements are prepared once here.
 * `store`: the office's file store (../file-store.ts; none where only the database is open).
 */
export function createRepos(database: Database, store?: FileStore) {
  const x = storeOf(database);
  return {
    office: createOfficeRepo(x),
    users: createUserRepo(x),
    tokens: createTokenRepo(x),
    templates: createTemplateRepo(x),
    templateFields: createTemplateFieldRepo(x),
    bulkSends: createBulkSendRepo(x),
    jobs: createJobRepo(x),
    outbox: createOutboxRepo(x),
    settings: createSettingsRepo(x),
    files: createFileRepo(x, store),
    contracts: createContractRepo(x),
    contractMetadata: createContractMetadataRepo(x),
    parties: createPartyRepo(x),
    annotations: createAnnotationRepo(x),
    attachments: createAttachmentRepo(x),
    activity: createActivityRepo(x),
    seals: createContractSealRepo(x),
    officeEvidence: createOfficeEvidenceRepo(x),
    partyCodes: createPartyCodeRepo(x),
    partyMarks: createPartyMarkRepo(x),
    webhookConsumers: createWebhookConsumerRepo(x),
    webhookDeliveries: createWebhookDeliveryRepo(x),
    webhookLog: createWebhookLogRepo(x),
    adminSessions: createAdminSessionRepo(x),
    idempotency: createIdempotencyRepo(x),
    usage: createUsageRepo(x),
    secondFactors: createSecondFactorRepo(x),
    ssoAttempts: createSsoAttemptRepo(x),
  };
}

export type Repos = ReturnType<typeof createRepos>;
