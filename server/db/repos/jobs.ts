import { randomUUID } from 'node:crypto';
import { and, eq, min, sql } from 'drizzle-orm';
import type { Store } from '../store';
import type { jobs } from '../schema';

export type JobRow = typeof jobs.$inferSelect;

/** A claimed job's columns under the names of JobRow. */
const RETURNED = `id, queue, ref_id AS "refId", status, run_at AS "runAt", lease_until AS "leaseUntil",
      claim_token AS "claimToken", attempts, last_error AS "lastError", created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * The durable queue's storage. Claiming is one UPDATE … RETURNING (a compare-and-swap in one
 * statement); every finalizing write checks the claim token, so a worker whose lease expired
 * cannot overwrite the work of the one that took the job over. The due jobs and the expired
 * leases are two separate index ranges (queue, status, run_at), so a claim never scans the queue.
 */
export function createJobRepo(x: Store) {
  const insert = x.prepare<{ id: number }>((o, t) =>
    o
      .insert(t.jobs)
      .values({
        queue: sql.placeholder('queue'),
        refId: sql.placeholder('refId'),
        runAt: sql.placeholder('runAt'),
        createdAt: sql.placeholder('now'),
        updatedAt: sql.placeholder('now'),
      })
      .returning({ id: t.jobs.id }),
  );
  // On PostgreSQL several instances claim at once: the due rows are locked as they are read and
  // rows another claimer holds are passed over (FOR UPDATE SKIP LOCKED), so a job goes to one.
  const claim = x.sql<JobRow>({
    sqlite: `
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
    RETURNING ${RETURNED}`,
    postgres: `
    UPDATE jobs SET status = 'running', claim_token = @token, lease_until = @leaseUntil, attempts = attempts + 1,
      updated_at = @now
    WHERE id IN (
      SELECT id FROM jobs
      WHERE id IN (
        (SELECT id FROM jobs WHERE queue = @queue AND status = 'queued' AND run_at <= @now ORDER BY run_at LIMIT @limit)
        UNION ALL
        (SELECT id FROM jobs WHERE queue = @queue AND status = 'running' AND lease_until < @now LIMIT @limit)
      )
      AND ((status = 'queued' AND run_at <= @now) OR (status = 'running' AND lease_until < @now))
      LIMIT @limit
      FOR UPDATE SKIP LOCKED
    )
    RETURNING ${RETURNED}`,
  });
  // Most polls find nothing: a read of the same two ranges answers that without a write transaction.
  const due = x.sql<{ isDue: number | boolean }>(`
    SELECT (EXISTS (SELECT 1 FROM jobs WHERE queue = @queue AND status = 'queued' AND run_at <= @now)
        OR EXISTS (SELECT 1 FROM jobs WHERE queue = @queue AND status = 'running' AND lease_until < @now)) AS "isDue"`);
  const renew = x.sql(
    `UPDATE jobs SET lease_until = @leaseUntil, updated_at = @now WHERE id = @id AND claim_token = @token AND status = 'running'`,
  );
  const remove = x.sql('DELETE FROM jobs WHERE id = ? AND claim_token = ?');
  const reschedule = x.sql(
    `UPDATE jobs SET status = 'queued', run_at = @runAt, last_error = @error, claim_token = NULL, lease_until = NULL,
       updated_at = @now
     WHERE id = @id AND claim_token = @token`,
  );
  const removeQueued = x.sql(`DELETE FROM jobs WHERE queue = ? AND ref_id = ? AND status = 'queued'`);
  const bringForward = x.sql({
    sqlite: `UPDATE jobs SET run_at = min(run_at, ?), updated_at = ? WHERE queue = ? AND ref_id = ? AND status = 'queued'`,
    postgres: `UPDATE jobs SET run_at = least(run_at, ?), updated_at = ? WHERE queue = ? AND ref_id = ? AND status = 'queued'`,
  });
  const plannedAt = x.sql<{ runAt: number }>(
    `SELECT run_at AS "runAt" FROM jobs WHERE queue = ? AND ref_id = ? AND status = 'queued' ORDER BY run_at LIMIT 1`,
  );
  const nextRun = x.prepare<{ at: number | null }>((o, t) =>
    o
      .select({ at: min(t.jobs.runAt) })
      .from(t.jobs)
      .where(and(eq(t.jobs.queue, sql.placeholder('queue')), eq(t.jobs.status, 'queued'))),
  );
  const nextLease = x.prepare<{ at: number | null }>((o, t) =>
    o
      .select({ at: min(t.jobs.leaseUntil) })
      .from(t.jobs)
      .where(and(eq(t.jobs.queue, sql.placeholder('queue')), eq(t.jobs.status, 'running'))),
  );
  const countPending = x.sql<{ n: number }>('SELECT count(*) AS n FROM jobs WHERE queue = ?');
  const exists = x.sql('SELECT 1 AS one FROM jobs WHERE queue = ? AND ref_id = ? LIMIT 1');
  const requeue = x.sql(
    `UPDATE jobs SET status = 'queued', run_at = @now, claim_token = NULL, lease_until = NULL, updated_at = @now
     WHERE queue = @queue AND ref_id = @refId AND status = 'queued'`,
  );
  const enqueue = async (queue: string, refId: number, runAt: number, now: number): Promise<number> =>
    (await insert.get({ queue, refId, runAt, now }))!.id;

  return {
    /** Call inside the transaction of the change that makes the work, so both commit or neither. */
    enqueue,
    claim: async (queue: string, limit: number, now: number, leaseMs: number): Promise<JobRow[]> =>
      (await due.get({ queue, now }))?.isDue
        ? claim.all({ queue, now, limit, token: randomUUID(), leaseUntil: now + leaseMs })
        : [],
    /** Extends the lease of a job still being worked on; false when the claim was lost. */
    renewLease: async (job: JobRow, leaseUntil: number, now: number): Promise<boolean> =>
      (await renew.run({ id: job.id, token: job.claimToken ?? '', leaseUntil, now })).changes > 0,
    /** Removes a finished (or finally failed) job; false when the claim was lost. */
    finish: async (job: JobRow): Promise<boolean> => (await remove.run([job.id, job.claimToken ?? ''])).changes > 0,
    retryAt: async (job: JobRow, runAt: number, error: string | null, now: number): Promise<boolean> =>
      (await reschedule.run({ id: job.id, error, runAt, now, token: job.claimToken ?? '' })).changes > 0,
    /** When the next job of the queue becomes due (a queued run_at or an expiring lease). */
    nextDueAt: async (queue: string): Promise<number | undefined> => {
      const times = [(await nextRun.get({ queue }))?.at, (await nextLease.get({ queue }))?.at].filter(
        (at): at is number => typeof at === 'number',
      );
      return times.length > 0 ? Math.min(...times) : undefined;
    },
    countPending: async (queue: string): Promise<number> => (await countPending.get([queue]))?.n ?? 0,
    /**
     * The one queued job of this row from now on: at `runAt`, or none (null). A claimed job of
     * the row is left alone (it finishes, and re-plans in its own transaction).
     */
    plan: async (queue: string, refId: number, runAt: number | null, now: number): Promise<void> => {
      await removeQueued.run([queue, refId]);
      if (runAt !== null) await enqueue(queue, refId, runAt, now);
    },
    /**
     * The queued job of this row runs at `runAt` at the latest: brought forward when it was
     * planned later, else (none queued: none, or only a running one) queued anew.
     */
    runBy: async (queue: string, refId: number, runAt: number, now: number): Promise<void> => {
      if ((await bringForward.run([runAt, now, queue, refId])).changes === 0) await enqueue(queue, refId, runAt, now);
    },
    /** Whether any job of this row exists (queued or running). */
    exists: async (queue: string, refId: number): Promise<boolean> => (await exists.get([queue, refId])) !== undefined,
    /** When the queued job of this row runs; undefined when none is queued. */
    plannedAt: async (queue: string, refId: number): Promise<number | undefined> =>
      (await plannedAt.get([queue, refId]))?.runAt,
    /** Puts a job for this row back to run now (manual retry); enqueues one when none is pending. */
    requeue: async (queue: string, refId: number, now: number): Promise<void> => {
      if ((await requeue.run({ queue, refId, now })).changes === 0) await enqueue(queue, refId, now, now);
    },
  };
}

export type JobRepo = ReturnType<typeof createJobRepo>;
