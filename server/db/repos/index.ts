import type { Db } from '../open-database';
import { createJobRepo } from './jobs';
import { createOfficeRepo } from './office';
import { createTemplateRepo } from './templates';
import { createTokenRepo } from './tokens';
import { createUserRepo } from './users';
import { createWebhookConsumerRepo } from './webhook-consumers';
import { createWebhookDeliveryRepo } from './webhook-deliveries';
import { createWebhookLogRepo } from './webhook-log';

/** Every repository over one connection; statements are prepared once here. */
export function createRepos(db: Db) {
  return {
    office: createOfficeRepo(db),
    users: createUserRepo(db),
    tokens: createTokenRepo(db),
    templates: createTemplateRepo(db),
    jobs: createJobRepo(db),
    webhookConsumers: createWebhookConsumerRepo(db),
    webhookDeliveries: createWebhookDeliveryRepo(db),
    webhookLog: createWebhookLogRepo(db),
  };
}

export type Repos = ReturnType<typeof createRepos>;
