import type { TAcmeSettingsUpdate } from '../../shared/api/acme';
import type { AppContext } from '../context/app-context';
import { validationFailed } from '../core/errors';
import { inTransaction } from '../db/open-database';
import type { Repos } from '../db/repos/index';

const DOMAIN_KEY = 'acme.domain';
const EMAIL_KEY = 'acme.email';

/** The saved ACME domain and e-mail (the settings page), if any. */
export function readSavedAcme(repos: Repos): { domain: string | undefined; email: string | undefined } {
  return { domain: repos.settings.get(DOMAIN_KEY), email: repos.settings.get(EMAIL_KEY) };
}

/**
 * At start, before listening: saved values win over ACME_DOMAIN and ACME_EMAIL, as the saved
 * public port wins over PUBLIC_PORT (the desktop app has no environment to set).
 */
export function applySavedAcme(ctx: AppContext): void {
  const { config } = ctx;
  const saved = readSavedAcme(ctx.repos);
  ctx.acme.environment = { domain: config.acme.domain, email: config.acme.email };
  // A copy: the caller's Config (a test's, or the shell's) is not ours to change.
  config.acme = {
    ...config.acme,
    domain: saved.domain ?? config.acme.domain,
    email: saved.email ?? config.acme.email,
  };
}

/** The domain the next start uses. */
export function configuredAcmeDomain(ctx: AppContext): string | undefined {
  return readSavedAcme(ctx.repos).domain ?? ctx.acme.environment.domain;
}

/**
 * Saves the ACME domain (for the next start) and e-mail (for the next order; null: back to the
 * environment's). A domain beside the office's own certificate files is refused: one source.
 */
export function saveAcme(ctx: AppContext, update: TAcmeSettingsUpdate): void {
  if (update.domain != null && ctx.config.publicTlsCert !== undefined)
    throw validationFailed([
      'domain: the party listener serves the office’s own certificate files (PUBLIC_TLS_CERT): remove those first',
    ]);
  const now = ctx.now();
  inTransaction(ctx.db, () => {
    if (update.domain !== undefined) ctx.repos.settings.write(DOMAIN_KEY, update.domain, now);
    if (update.email !== undefined) ctx.repos.settings.write(EMAIL_KEY, update.email, now);
  });
  if (update.email !== undefined)
    ctx.config.acme = { ...ctx.config.acme, email: update.email ?? ctx.acme.environment.email };
}
