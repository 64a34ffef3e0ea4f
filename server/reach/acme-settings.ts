import type { ReadRepos } from '../db/repos/read-view';
import type { ReadContext } from '../context/read-context';
import type { TAcmeSettingsUpdate } from '../../shared/api/acme';
import type { AppContext } from '../context/app-context';
import { validationFailed } from '../core/errors';
import { inTransaction } from '../db/open-database';

const DOMAIN_KEY = 'acme.domain';
const EMAIL_KEY = 'acme.email';

/** The saved ACME domain and e-mail (the settings page), if any. */
export async function readSavedAcme(
  repos: Pick<ReadRepos, 'settings'>,
): Promise<{ domain: string | undefined; email: string | undefined }> {
  return { domain: await repos.settings.get(DOMAIN_KEY), email: await repos.settings.get(EMAIL_KEY) };
}

/**
 * At start, before listening: saved values win over ACME_DOMAIN and ACME_EMAIL, as the saved
 * public port wins over PUBLIC_PORT (the desktop app has no environment to set).
 */
export async function applySavedAcme(ctx: AppContext): Promise<void> {
  const { config } = ctx;
  const saved = await readSavedAcme(ctx.repos);
  ctx.acme.environment = { domain: config.acme.domain, email: config.acme.email };
  // A copy: the caller's Config (a test's, or the shell's) is not ours to change.
  config.acme = {
    ...config.acme,
    domain: saved.domain ?? config.acme.domain,
    email: saved.email ?? config.acme.email,
  };
}

/** The domain the next start uses. */
export async function configuredAcmeDomain(ctx: ReadContext): Promise<string | undefined> {
  return (await readSavedAcme(ctx.repos)).domain ?? ctx.acme.environment.domain;
}

/**
 * Saves the ACME domain (for the next start) and e-mail (for the next order; null: back to the
 * environment's). A domain beside the office's own certificate files is refused: one source.
 */
export async function saveAcme(ctx: AppContext, update: TAcmeSettingsUpdate): Promise<void> {
  if (update.domain != null && ctx.config.publicTlsCert !== undefined)
    throw validationFailed([
      'domain: the party listener serves the office’s own certificate files (PUBLIC_TLS_CERT): remove those first',
    ]);
  const now = ctx.now();
  await inTransaction(ctx.db, async () => {
    if (update.domain !== undefined) await ctx.repos.settings.write(DOMAIN_KEY, update.domain, now);
    if (update.email !== undefined) await ctx.repos.settings.write(EMAIL_KEY, update.email, now);
  });
  if (update.email !== undefined)
    ctx.config.acme = { ...ctx.config.acme, email: update.email ?? ctx.acme.environment.email };
}
