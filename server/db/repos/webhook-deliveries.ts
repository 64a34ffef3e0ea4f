import type { Store } from '../store';
import { WEBHOOK_QUEUE } from './webhook-consumers';

/** Everything one attempt needs, read for a whole claimed batch at once. */
export type DispatchRow = {
  deliveryId: number;
  state: string;
  courseAttempts: number;
  eventId: number;
  payload: string;
  consumerId: number;
  url: string;
  publicKey: Buffer;
  sealedSecretKey: Buffer;
  disabledAt: number | null;
  /** The consumer's permanent errors in a row when the batch was loaded. */
  permanentErrors: number;
  /** Released from held: it waits for the consumer's previous released delivery (1 or 0). */
  inOrder: number;
};

/** Held deliveries of one consumer released and waiting for their first attempt, at most. */
export const HELD_RELEASE_WINDOW = 8;

const DISABLED = '(SELECT disabled_at FROM webhook_consumers c WHERE c.id = consumer_id) IS NOT NULL';

export type NewAttempt = {
  deliveryId: number;
  attemptedAt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseExcerpt: string;
  outcome: string;
};

/**
 * The sending side of webhooks: events, one delivery per (event, consumer), one attempt per
 * HTTP try. Hot statements are prepared once; settleAttempts calls them inside the runner's one
 * transaction per batch of finished attempts.
 */
export function createWebhookDeliveryRepo(x: Store) {
  /** A list of ids as one parameter: JSON for SQLite's json_each, an array for PostgreSQL's ANY. */
  const idList = (ids: readonly number[]): unknown => (x.dialect === 'sqlite' ? JSON.stringify(ids) : [...ids]);
  const insertEvent = x.sql<{ id: number }>(
    'INSERT INTO webhook_events (type, payload, created_at) VALUES (@type, @payload, @now) RETURNING id',
  );
  const insertDelivery = x.sql<{ id: number }>(
    `INSERT INTO webhook_deliveries (event_id, consumer_id, state, course_attempts, next_attempt_at, created_at, updated_at)
     VALUES (@eventId, @consumerId, @state, 0, @runAt, @now, @now) RETURNING id`,
  );
  // A consumer holds new events while it is disabled, and while held ones still wait their turn
  // after it was enabled (so that a new event never overtakes the ones raised before it).
  const recipients = x.sql<{ id: number; isHolding: number | boolean; events: string }>(
    `SELECT c.id, c.events, (c.disabled_at IS NOT NULL
       OR EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.consumer_id = c.id AND d.state = 'held')) AS "isHolding"
     FROM webhook_consumers c`,
  );
  const dispatchColumns = `d.id AS "deliveryId", d.state, d.course_attempts AS "courseAttempts",
            CASE WHEN d.in_order THEN 1 ELSE 0 END AS "inOrder", d.event_id AS "eventId", e.payload,
            c.id AS "consumerId", c.url, c.public_key AS "publicKey", c.sealed_secret_key AS "sealedSecretKey",
            c.disabled_at AS "disabledAt", c.permanent_errors AS "permanentErrors"
     FROM webhook_deliveries d
     JOIN webhook_events e ON e.id = d.event_id
     JOIN webhook_consumers c ON c.id = d.consumer_id`;
  const loadBatch = x.sql<DispatchRow>({
    sqlite: `SELECT ${dispatchColumns} WHERE d.id IN (SELECT value FROM json_each(?))`,
    postgres: `SELECT ${dispatchColumns} WHERE d.id = ANY(?)`,
  });
  const insertAttempt = x.sql(
    `INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, error, duration_ms, response_excerpt, outcome)
     VALUES (@deliveryId, @attemptedAt, @statusCode, @error, @durationMs, @responseExcerpt, @outcome)`,
  );
  // A retry due while the consumer is (meanwhile) disabled is held instead: it waits for the enabling.
  // (The cast: PostgreSQL would read a parameter beside NULL in a CASE as text.)
  const settleDelivery = x.sql<{ state: string }>(
    `UPDATE webhook_deliveries SET
       state = CASE WHEN @state = 'pending' AND ${DISABLED} THEN 'held' ELSE @state END,
       course_attempts = course_attempts + 1,
       in_order = FALSE,
       next_attempt_at = CASE WHEN @state = 'pending' AND ${DISABLED} THEN NULL ELSE CAST(@nextAttemptAt AS bigint) END,
       updated_at = @now
     WHERE id = @id RETURNING state`,
  );
  const hold = x.sql(
    `UPDATE webhook_deliveries SET state = 'held', in_order = FALSE, next_attempt_at = NULL, updated_at = @now WHERE id = @id AND state = 'pending'`,
  );
  const holdJobsOf = x.sql(
    `DELETE FROM jobs WHERE queue = @queue AND status = 'queued'
       AND ref_id IN (SELECT id FROM webhook_deliveries WHERE consumer_id = @consumerId AND state = 'pending')`,
  );
  const holdAll = x.sql(
    `UPDATE webhook_deliveries SET state = 'held', in_order = FALSE, next_attempt_at = NULL, updated_at = @now
     WHERE consumer_id = @consumerId AND state = 'pending'`,
  );
  // Held events go in event order, a window at a time: the oldest held are let go while fewer
  // than HELD_RELEASE_WINDOW of the consumer wait for their first attempt (the webhook worker
  // sends released ones one after another, server/webhooks/webhook-worker.ts). Delivery ids
  // follow event order (one per event and consumer). SQLite's max(a, b) is PostgreSQL's greatest.
  const releaseWindow = (larger: string) =>
    `UPDATE webhook_deliveries SET state = 'pending', course_attempts = 0, in_order = TRUE, next_attempt_at = @now, updated_at = @now
     WHERE id IN (SELECT id FROM webhook_deliveries WHERE consumer_id = @consumerId AND state = 'held' ORDER BY id
         LIMIT ${larger}(0, @window - (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries
           WHERE consumer_id = @consumerId AND state = 'pending' AND course_attempts = 0 LIMIT @window) AS waiting)))
       AND (SELECT disabled_at FROM webhook_consumers WHERE id = @consumerId) IS NULL
     RETURNING id`;
  const release = x.sql<{ id: number }>({ sqlite: releaseWindow('max'), postgres: releaseWindow('greatest') });
  const holdingConsumers = x.sql<{ consumerId: number }>(
    `SELECT DISTINCT consumer_id AS "consumerId" FROM webhook_deliveries WHERE state = 'held' ORDER BY consumer_id`,
  );
  const restartInState = x.sql<{ id: number }>(
    `UPDATE webhook_deliveries SET state = 'pending', course_attempts = 0, in_order = FALSE, next_attempt_at = @now, updated_at = @now
     WHERE consumer_id = @consumerId AND state = @state RETURNING id`,
  );
  const countInState = x.sql<{ n: number }>(
    'SELECT count(*) AS n FROM webhook_deliveries WHERE consumer_id = @consumerId AND state = @state',
  );
  const restart = x.sql(
    `UPDATE webhook_deliveries SET state = 'pending', course_attempts = 0, in_order = FALSE, next_attempt_at = @now, updated_at = @now
     WHERE id = @id`,
  );
  const hurryJob = x.sql(
    `UPDATE jobs SET run_at = @now, updated_at = @now WHERE queue = @queue AND ref_id = @id AND status = 'queued'`,
  );
  const insertJobIfNone = x.sql(
    `INSERT INTO jobs (queue, ref_id, run_at, created_at, updated_at)
     SELECT @queue, @id, @now, @now, @now WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE queue = @queue AND ref_id = @id)`,
  );

  return {
    /** Whether the caller runs inside a transaction (recordEvent refuses to run outside one). */
    isInTransaction: async (): Promise<boolean> => x.isInTransaction(),
    insertEvent: async (type: string, payload: string, now: number): Promise<number> =>
      (await insertEvent.get({ type, payload, now }))!.id,
    /** Every consumer, and whether a new event must be held for it (see recipients above). */
    recipients: async (): Promise<Array<{ id: number; isHolding: boolean; events: string }>> =>
      (await recipients.all()).map((row) => ({ id: row.id, isHolding: Boolean(row.isHolding), events: row.events })),
    /** A pending delivery due at runAt (its job is the caller's), or a held one (runAt null). */
    insertDelivery: async (eventId: number, consumerId: number, runAt: number | null, now: number): Promise<number> =>
      (await insertDelivery.get({ eventId, consumerId, state: runAt === null ? 'held' : 'pending', runAt, now }))!.id,
    loadForDispatch: async (deliveryIds: readonly number[]): Promise<DispatchRow[]> =>
      deliveryIds.length === 0 ? [] : loadBatch.all([idList(deliveryIds)]),
    insertAttempt: async (attempt: NewAttempt): Promise<void> => {
      await insertAttempt.run(attempt);
    },
    /** The state the delivery was left in (held when its consumer was disabled meanwhile); undefined when it is gone. */
    settle: async (id: number, state: string, nextAttemptAt: number | null, now: number): Promise<string | undefined> =>
      (await settleDelivery.get({ id, state, nextAttemptAt, now }))?.state,
    /** A pending delivery of a disabled consumer waits for the enabling. */
    hold: async (id: number, now: number): Promise<void> => {
      await hold.run({ id, now });
    },
    /** Every pending delivery of a consumer that was just disabled is held; their queued jobs go. */
    holdPendingOf: async (consumerId: number, now: number): Promise<void> => {
      await holdJobsOf.run({ consumerId, queue: WEBHOOK_QUEUE });
      await holdAll.run({ consumerId, now });
    },
    /**
     * Lets the consumer's oldest held deliveries go now, as many as its window has room for;
     * returns their ids in event order (their jobs are queued in that order).
     */
    releaseHeld: async (consumerId: number, now: number): Promise<number[]> => {
      const released = (await release.all({ consumerId, now, window: HELD_RELEASE_WINDOW }))
        .map((row) => row.id)
        .sort((a, b) => a - b);
      for (const id of released) await insertJobIfNone.run({ id, now, queue: WEBHOOK_QUEUE });
      return released;
    },
    /** Consumers with held deliveries (a turn may have been lost with a purged event). */
    holdingConsumers: async (): Promise<number[]> => (await holdingConsumers.all()).map((row) => row.consumerId),
    countInState: async (consumerId: number, state: string): Promise<number> =>
      (await countInState.get({ consumerId, state }))?.n ?? 0,
    /** Bulk retry: every delivery of the consumer in that state starts afresh now; returns how many. */
    restartAllInState: async (consumerId: number, state: string, now: number): Promise<number> => {
      const ids = await restartInState.all({ consumerId, state, now });
      for (const { id } of ids) {
        await hurryJob.run({ id, now, queue: WEBHOOK_QUEUE });
        await insertJobIfNone.run({ id, now, queue: WEBHOOK_QUEUE });
      }
      return ids.length;
    },
    /** Manual retry: the delivery starts afresh and is due now (a job in flight is left to finish). */
    restart: async (id: number, now: number): Promise<void> => {
      await restart.run({ id, now });
      await hurryJob.run({ id, now, queue: WEBHOOK_QUEUE });
      await insertJobIfNone.run({ id, now, queue: WEBHOOK_QUEUE });
    },
  };
}

export type WebhookDeliveryRepo = ReturnType<typeof createWebhookDeliveryRepo>;
