import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import { createRunner, type JobOutcome } from '../jobs/runner';
import type { AcmeState } from './acme-store';
import { acmeDomainOf } from '../context/acme-runtime';
import type { Worker } from '../jobs/worker';
import { describeCertificate, readAcmeState, renewalTimeOf, saveCertificate, writeAcmeState } from './acme-store';

export const ACME_QUEUE = 'acme';
/** The queue's one job refers to the certificate, not to a row. */
export const ACME_JOB_REF = 1;
/** 1, 5, 15 min, 1, 3 h, then every 6 h until the CA answers: far within the third of a lifetime renewal leaves. */
const RETRY_DELAYS_MS = [60_000, 300_000, 900_000, 3_600_000, 10_800_000, 21_600_000];

const lastErrorOf = (state: AcmeState) =>
  state.lastError === null ? undefined : { message: state.lastError, at: state.lastAttemptAt ?? 0 };

/** Why the certificate in force will not do (none, another domain, due), or undefined while it does. */
async function reasonToOrder(ctx: AppContext, domain: string): Promise<string | undefined> {
  const served = ctx.acme.certificate();
  if (!served) return 'no certificate yet';
  const facts = describeCertificate(served.certPem);
  if (!facts.domains.includes(domain)) return `the certificate is for ${facts.domains.join(', ')}`;
  if (ctx.now() >= renewalTimeOf(facts)) return 'the certificate is due for renewal';
  if ((await readAcmeState(ctx)).isRenewalAsked) return 'a renewal was asked for';
  return undefined;
}

/**
 * Keeps the public listener's certificate from the ACME CA: one durable job that orders a
 * certificate when there is none (or it is for another domain, or due, or the admin asked), and
 * otherwise sleeps until the renewal time. A failure keeps the certificate in force, is recorded
 * for the admin, and is tried again with a back-off.
 */
export function createAcmeWorker(ctx: AppContext): Worker {
  const logger = ctx.logger.child({ worker: 'acme' });
  /** The job's outcome, and the state to record with it in the transaction that settles the job. */
  type Result = { outcome: JobOutcome; state?: AcmeState };
  const handle = async (): Promise<Result> => {
    const domain = acmeDomainOf(ctx.config);
    if (!domain) return { outcome: { kind: 'done' } };
    const reason = await reasonToOrder(ctx, domain);
    if (reason === undefined) {
      const facts = describeCertificate((ctx.acme.certificate() as { certPem: string }).certPem);
      return { outcome: { kind: 'again', at: renewalTimeOf(facts) } };
    }
    // acme-client (with axios and node-forge, some 9 MB of heap) loads only for an office that orders.
    const { describeAcmeError, orderCertificate } = await import('./acme-order');
    ctx.acme.isObtaining = true;
    const startedAt = ctx.now();
    try {
      // The CA's check could only fail: said as it is, and tried again with the back-off.
      if (ctx.acme.listenerError) throw new Error(ctx.acme.listenerError);
      logger.info({ domain, reason }, 'ordering a certificate from the ACME CA');
      const served = await orderCertificate(ctx, ctx.reach.challenges, domain);
      const facts = describeCertificate(served.certPem);
      await saveCertificate(ctx.keys, served);
      ctx.acme.replace(served);
      logger.info(
        { domain, issuer: facts.issuer, serial: facts.serial, notAfter: new Date(facts.notAfter).toISOString() },
        'certificate obtained from the ACME CA',
      );
      const state = {
        ...(await readAcmeState(ctx)),
        lastRenewalAt: ctx.now(),
        lastAttemptAt: startedAt,
        lastError: null,
        failures: 0,
        isRenewalAsked: false,
      };
      return { outcome: { kind: 'again', at: renewalTimeOf(facts) }, state };
    } catch (err) {
      const error = describeAcmeError(err);
      const before = await readAcmeState(ctx);
      const state = {
        ...before,
        lastAttemptAt: startedAt,
        lastError: error,
        failures: before.failures + 1,
        isRenewalAsked: false,
      };
      logger.error({ domain, error }, 'ordering a certificate from the ACME CA failed');
      const delay = RETRY_DELAYS_MS[Math.min(state.failures, RETRY_DELAYS_MS.length) - 1] as number;
      return { outcome: { kind: 'retry', at: ctx.now() + delay, error }, state };
    } finally {
      ctx.acme.isObtaining = false;
    }
  };
  const runner = createRunner<undefined, Result>({
    queue: ACME_QUEUE,
    db: ctx.db,
    jobs: ctx.repos.jobs,
    load: async () => new Map(),
    handle: async () => handle(),
    settle: async (finished, finalize) => {
      for (const { job, result } of finished) {
        if (result.state) {
          await writeAcmeState(ctx, result.state);
          ctx.acme.lastError = lastErrorOf(result.state);
        }
        await finalize(job, result.outcome);
      }
    },
    logger,
    now: ctx.now,
    concurrency: 1,
    leaseMs: 60_000,
    timeoutMs: 10 * 60_000,
  });
  let unlisten: (() => void) | undefined;
  return {
    name: 'acme',
    async start() {
      ctx.acme.lastError = lastErrorOf(await readAcmeState(ctx));
      // At every start the job looks at once: the domain may have changed, the certificate lapsed.
      await inTransaction(ctx.db, async () =>
        ctx.repos.jobs.plan(ACME_QUEUE, ACME_JOB_REF, acmeDomainOf(ctx.config) ? ctx.now() : null, ctx.now()),
      );
      unlisten = ctx.acme.signal.listen(() => runner.wake());
      runner.start();
    },
    async stop() {
      unlisten?.();
      await runner.stop();
    },
  };
}
