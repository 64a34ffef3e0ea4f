import type { Db } from '../open-database';
import { createAdminSessionRepo } from './admin-sessions';
import { createGeneralSettingsRepo } from './general-settings';
import { createJobRepo } from './jobs';
import { createOfficeRepo } from './office';
import { createTemplateRepo } from './templates';
import { createTokenRepo } from './tokens';
import { createUserRepo } from './users';

/** Every repository over one connection; statements are prepared once here. */
export function createRepos(db: Db) {
  return {
    office: createOfficeRepo(db),
    users: createUserRepo(db),
    tokens: createTokenRepo(db),
    templates: createTemplateRepo(db),
    jobs: createJobRepo(db),
    adminSessions: createAdminSessionRepo(db),
    generalSettings: createGeneralSettingsRepo(db),
  };
}

export type Repos = ReturnType<typeof createRepos>;
