import { gateRepository, type Database, type Db, type SqliteDatabase } from '../database';
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

/** Every repository over one connection; statements are prepared once here. */
/** `store`: where stored files kept in DATA_DIR/files are read (none where only the database is open). */
export function createRepos(database: Database, store?: FileStore) {
  const x = storeOf(database);
  const db: Db = x.orm;
  const repos = {
    office: createOfficeRepo(db),
    users: createUserRepo(db),
    tokens: createTokenRepo(db),
    templates: createTemplateRepo(db),
    templateFields: createTemplateFieldRepo(db),
    bulkSends: createBulkSendRepo(db),
    jobs: createJobRepo(x),
    outbox: createOutboxRepo(db),
    settings: createSettingsRepo(x),
    files: createFileRepo(db, store),
    contracts: createContractRepo(db),
    contractMetadata: createContractMetadataRepo(db),
    parties: createPartyRepo(db),
    annotations: createAnnotationRepo(db),
    attachments: createAttachmentRepo(db),
    activity: createActivityRepo(db),
    seals: createContractSealRepo(db),
    officeEvidence: createOfficeEvidenceRepo(db),
    partyCodes: createPartyCodeRepo(db),
    partyMarks: createPartyMarkRepo(db),
    webhookConsumers: createWebhookConsumerRepo(db),
    webhookDeliveries: createWebhookDeliveryRepo(db),
    webhookLog: createWebhookLogRepo(db),
    adminSessions: createAdminSessionRepo(db),
    idempotency: createIdempotencyRepo(db),
    usage: createUsageRepo(x),
  };
  if (database.dialect !== 'sqlite') return repos;
  const gated = {} as Record<string, unknown>;
  for (const [name, repository] of Object.entries(repos))
    gated[name] = gateRepository(database as SqliteDatabase, repository);
  return gated as typeof repos;
}

export type Repos = ReturnType<typeof createRepos>;
