import { randomUUID } from 'node:crypto';
import { and, eq, min, sql } from 'drizzle-orm';
import type { Db } from '../open-database';
import { jobs } from '../schema';

export type JobRow = typeof jobs.$inferSelect;

/**
 * The durable queue's storage. Claiming is one UPDATE … RETURNING (a compare-and-swap in one
 * statement); every finalizing write checks the claim token, so a worker whose lease expired
 * cannot overwrite the work of the one that took the job over. The due jobs and the expired
 * leases are two separate index ranges (queue, status, run_at), so a claim never scans the queue.
 */
export function createJobRepo(db: Db) {
  const insert = db
    .insert(jobs)
    .values({
      queue: sql.placeholder('queue'),
      refId: sql.placeholder('refId'),
      runAt: sql.placeholder('runAt'),
      createdAt: sql.placeholder('now'),
      updatedAt: sql.placeholder('now'),
    })
    .returning({ id: jobs.id })
    .prepare();
  type ClaimParams = { queue: string; now: number; limit: number; token: string; leaseUntil: number };
  const claim = db.$client.prepare<[ClaimParams], JobRow>(`
    UPDATE jobs SET status = 'running', claim_token = @token, lease_until = @leaseUntil, attempts = attempts + 1,
      updated_at = @now
    WHERE id IN (
      SELECT id FROM (
        SELECT id FROM (
          SELECT id FROM jobs WHERE queue = @queue AND status = 'queued' AND run_at <= @now ORDER BY run_at LIMIT @limit
        )
        UNION ALL
        SELECT id FROM (
          SELECT id FROM jobs WHERE queue = @queue AND status = 'running' AND lease_until < @now LIMIT @limit
        )
      ) LIMIT @limit
    )
    RETURNING id, queue, ref_id AS refId, status, run_at AS runAt, lease_until AS leaseUntil,
      claim_token AS claimToken, attempts, last_error AS lastError, created_at AS createdAt, updated_at AS updatedAt`);
  // Most polls find nothing: a read of the same two ranges answers that without a write transaction.
  type DueParams = { queue: string; now: number };
  const due = db.$client.prepare<[DueParams], { isDue: number }>(`
    SELECT EXISTS (SELECT 1 FROM jobs WHERE queue = @queue AND status = 'queued' AND run_at <= @now)
        OR EXISTS (SELECT 1 FROM jobs WHERE queue = @queue AND status = 'running' AND lease_until < @now) AS isDue`);
  type RenewParams = { id: number; token: string; leaseUntil: number; now: number };
  const renew = db.$client.prepare<[RenewParams]>(
    `UPDATE jobs SET lease_until = @leaseUntil, updated_at = @now WHERE id = @id AND claim_token = @token AND status = 'running'`,
  );
  const remove = db.$client.prepare<[number, string]>('DELETE FROM jobs WHERE id = ? AND claim_token = ?');
  type RescheduleParams = { id: number; error: string | null; runAt: number; now: number; token: string };
  const reschedule = db.$client.prepare<[RescheduleParams]>(
    `UPDATE jobs SET status = 'queued', run_at = @runAt, last_error = @error, claim_token = NULL, lease_until = NULL,
       updated_at = @now
     WHERE id = @id AND claim_token = @token`,
  );
  const removeQueued = db.$client.prepare<[string, number]>(
    `DELETE FROM jobs WHERE queue = ? AND ref_id = ? AND status = 'queued'`,
  );
  const bringForward = db.$client.prepare<[number, number, string, number]>(
    `UPDATE jobs SET run_at = min(run_at, ?), updated_at = ? WHERE queue = ? AND ref_id = ? AND status = 'queued'`,
  );
  const plannedAt = db.$client.prepare<[string, number], { runAt: number }>(
    `SELECT run_at AS runAt FROM jobs WHERE queue = ? AND ref_id = ? AND status = 'queued' ORDER BY run_at LIMIT 1`,
  );
  const nextRun = db
    .select({ at: min(jobs.runAt) })
    .from(jobs)
    .where(and(eq(jobs.queue, sql.placeholder('queue')), eq(jobs.status, 'queued')))
    .prepare();
  const nextLease = db
    .select({ at: min(jobs.leaseUntil) })
    .from(jobs)
    .where(and(eq(jobs.queue, sql.placeholder('queue')), eq(jobs.status, 'running')))
    .prepare();

  return {
    /** Call inside the transaction of the change that makes the work, so both commit or neither. */
    enqueue: async (queue: string, refId: number, runAt: number, now: number): Promise<number> =>
      (insert.get({ queue, refId, runAt, now }) as { id: number }).id,
    claim: async (queue: string, limit: number, now: number, leaseMs: number): Promise<JobRow[]> =>
      due.get({ queue, now })?.isDue
        ? claim.all({ queue, now, limit, token: randomUUID(), leaseUntil: now + leaseMs })
        : [],
    /** Extends the lease of a job still being worked on; false when the claim was lost. */
    renewLease: async (job: JobRow, leaseUntil: number, now: number): Promise<boolean> =>
      renew.run({ id: job.id, token: job.claimToken ?? '', leaseUntil, now }).changes > 0,
    /** Removes a finished (or finally failed) job; false when the claim was lost. */
    finish: async (job: JobRow): Promise<boolean> => remove.run(job.id, job.claimToken ?? '').changes > 0,
    retryAt: async (job: JobRow, runAt: number, error: string | null, now: number): Promise<boolean> =>
      reschedule.run({ id: job.id, error, runAt, now, token: job.claimToken ?? '' }).changes > 0,
    /** When the next job of the queue becomes due (a queued run_at or an expiring lease). */
    nextDueAt: async (queue: string): Promise<number | undefined> => {
      const times = [nextRun.get({ queue })?.at, nextLease.get({ queue })?.at].filter(
        (at): at is number => typeof at === 'number',
      );
      return times.length > 0 ? Math.min(...times) : undefined;
    },
    countPending: async (queue: string): Promise<number> =>
      (db.$client.prepare('SELECT count(*) AS n FROM jobs WHERE queue = ?').get(queue) as { n: number }).n,
    /**
     * The one queued job of this row from now on: at `runAt`, or none (null). A claimed job of
     * the row is left alone (it finishes, and re-plans in its own transaction).
     */
    plan: async (queue: string, refId: number, runAt: number | null, now: number): Promise<void> => {
      removeQueued.run(queue, refId);
      if (runAt !== null) insert.get({ queue, refId, runAt, now });
    },
    /**
     * The queued job of this row runs at `runAt` at the latest: brought forward when it was
     * planned later, else (none queued: none, or only a running one) queued anew.
     */
    runBy: async (queue: string, refId: number, runAt: number, now: number): Promise<void> => {
      if (bringForward.run(runAt, now, queue, refId).changes === 0) insert.get({ queue, refId, runAt, now });
    },
    /** Whether any job of this row exists (queued or running). */
    exists: async (queue: string, refId: number): Promise<boolean> =>
      db.$client.prepare('SELECT 1 FROM jobs WHERE queue = ? AND ref_id = ? LIMIT 1').get(queue, refId) !== undefined,
    /** When the queued job of this row runs; undefined when none is queued. */
    plannedAt: async (queue: string, refId: number): Promise<number | undefined> => plannedAt.get(queue, refId)?.runAt,
    /** Puts a job for this row back to run now (manual retry); enqueues one when none is pending. */
    requeue: async (queue: string, refId: number, now: number): Promise<void> => {
      const updated = db
        .update(jobs)
        .set({ status: 'queued', runAt: now, claimToken: null, leaseUntil: null, updatedAt: now })
        .where(and(eq(jobs.queue, queue), eq(jobs.refId, refId), eq(jobs.status, 'queued')))
        .run().changes;
      if (updated === 0) insert.get({ queue, refId, runAt: now, now });
    },
  };
}

export type JobRepo = ReturnType<typeof createJobRepo>;
