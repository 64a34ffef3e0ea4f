import { gateRepository, type Db, type SqliteDatabase } from '../database';
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
import { createWebhookConsumerRepo } from './webhook-consumers';
import { createWebhookDeliveryRepo } from './webhook-deliveries';
import { createWebhookLogRepo } from './webhook-log';

/** Every repository over one connection; statements are prepared once here. */
/** `store`: where stored files kept in DATA_DIR/files are read (none where only the database is open). */
export function createRepos(database: SqliteDatabase, store?: FileStore) {
  const db: Db = database.orm;
  const x = storeOf(database);
  const repos = {
    office: createOfficeRepo(x),
    users: createUserRepo(x),
    tokens: createTokenRepo(x),
    templates: createTemplateRepo(db),
    templateFields: createTemplateFieldRepo(db),
    bulkSends: createBulkSendRepo(x),
    jobs: createJobRepo(x),
    outbox: createOutboxRepo(x),
    settings: createSettingsRepo(x),
    files: createFileRepo(db, store),
    contracts: createContractRepo(db),
    contractMetadata: createContractMetadataRepo(db),
    parties: createPartyRepo(db),
    annotations: createAnnotationRepo(db),
    attachments: createAttachmentRepo(db),
    activity: createActivityRepo(x),
    seals: createContractSealRepo(db),
    officeEvidence: createOfficeEvidenceRepo(x),
    partyCodes: createPartyCodeRepo(db),
    partyMarks: createPartyMarkRepo(db),
    webhookConsumers: createWebhookConsumerRepo(x),
    webhookDeliveries: createWebhookDeliveryRepo(x),
    webhookLog: createWebhookLogRepo(x),
    adminSessions: createAdminSessionRepo(x),
    idempotency: createIdempotencyRepo(x),
  };
  const gated = {} as Record<string, unknown>;
  for (const [name, repository] of Object.entries(repos)) gated[name] = gateRepository(database, repository);
  return gated as typeof repos;
}

export type Repos = ReturnType<typeof createRepos>;
