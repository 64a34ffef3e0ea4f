import type { ReadContext } from '../context/read-context';
import type { TAcmeStatus } from '../../shared/api/acme';
import type { AppContext } from '../context/app-context';
import { AppError } from '../core/errors';
import { inTransaction } from '../db/open-database';
import { describeCertificate, readAcmeState, renewalTimeOf, writeAcmeState } from './acme-store';
import { ACME_JOB_REF, ACME_QUEUE } from './acme-worker';
import { acmeDomainOf } from '../context/acme-runtime';
import { configuredAcmeDomain, readSavedAcme } from './acme-settings';

/** The ACME certificate as the admin sees it: never a key, only the public facts and what happened last. */
export async function presentAcmeStatus(ctx: ReadContext): Promise<TAcmeStatus> {
  const domain = acmeDomainOf(ctx.config);
  const { email, directoryUrl } = ctx.config.acme;
  const state = await readAcmeState(ctx);
  const served = domain ? ctx.acme.certificate() : undefined;
  const configured = await configuredAcmeDomain(ctx);
  const facts = served ? describeCertificate(served.certPem) : undefined;
  return {
    is_enabled: domain !== undefined,
    domain: domain ?? null,
    email: email ?? null,
    directory_url: domain ? directoryUrl : null,
    challenge_port: domain ? ctx.acme.challengePort : null,
    certificate: facts
      ? {
          subject: facts.subject,
          domains: facts.domains,
          issuer: facts.issuer,
          serial: facts.serial,
          not_before: ctx.timestamp(facts.notBefore),
          not_after: ctx.timestamp(facts.notAfter),
          renewal_time: ctx.timestamp(renewalTimeOf(facts)),
        }
      : null,
    configured_domain: configured ?? null,
    source:
      (await readSavedAcme(ctx.repos)).domain !== undefined
        ? 'settings'
        : ctx.acme.environment.domain !== undefined
          ? 'environment'
          : null,
    is_restart_needed: (configured ?? null) !== (ctx.config.acme.domain ?? null),
    is_obtaining: ctx.acme.isObtaining,
    next_attempt_time: domain ? ctx.timestampOrNull(await ctx.repos.jobs.plannedAt(ACME_QUEUE, ACME_JOB_REF)) : null,
    last_renewal_time: ctx.timestampOrNull(state.lastRenewalAt),
    last_attempt_time: ctx.timestampOrNull(state.lastAttemptAt),
    last_error: state.lastError,
  };
}

/** "Renew now": a new certificate is ordered at once, whatever the one in force; the old one is served until it comes. */
export async function askAcmeRenewal(ctx: AppContext): Promise<void> {
  if (!acmeDomainOf(ctx.config))
    throw new AppError('conflict', 'No ACME certificate is configured: set ACME_DOMAIN (with PUBLIC_PORT) first.');
  if (ctx.acme.isObtaining)
    throw new AppError('conflict', 'A certificate is being ordered right now: wait for it to finish.');
  await inTransaction(ctx.db, async () => {
    await writeAcmeState(ctx, { ...(await readAcmeState(ctx)), isRenewalAsked: true });
    await ctx.repos.jobs.plan(ACME_QUEUE, ACME_JOB_REF, ctx.now(), ctx.now());
  });
  ctx.acme.signal.wake();
}
