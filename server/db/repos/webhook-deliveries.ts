import type { Db } from '../open-database';
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
};

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
 * HTTP try. Hot statements are prepared once; the dispatcher calls them inside one transaction
 * per batch of finished attempts.
 */
export function createWebhookDeliveryRepo(db: Db) {
  const client = db.$client;
  const insertEvent = client.prepare<[{ type: string; payload: string; now: number }], { id: number }>(
    'INSERT INTO webhook_events (type, payload, created_at) VALUES (@type, @payload, @now) RETURNING id',
  );
  const insertDelivery = client.prepare<[{ eventId: number; consumerId: number; runAt: number; now: number }], { id: number }>(
    `INSERT INTO webhook_deliveries (event_id, consumer_id, state, course_attempts, next_attempt_at, created_at, updated_at)
     VALUES (@eventId, @consumerId, 'pending', 0, @runAt, @now, @now) RETURNING id`,
  );
  const loadBatch = client.prepare<[string], DispatchRow>(
    `SELECT d.id AS deliveryId, d.state, d.course_attempts AS courseAttempts, d.event_id AS eventId, e.payload,
            c.id AS consumerId, c.url, c.public_key AS publicKey, c.sealed_secret_key AS sealedSecretKey,
            c.disabled_at AS disabledAt, c.permanent_errors AS permanentErrors
     FROM webhook_deliveries d
     JOIN webhook_events e ON e.id = d.event_id
     JOIN webhook_consumers c ON c.id = d.consumer_id
     WHERE d.id IN (SELECT value FROM json_each(?))`,
  );
  const insertAttempt = client.prepare<[NewAttempt]>(
    `INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, error, duration_ms, response_excerpt, outcome)
     VALUES (@deliveryId, @attemptedAt, @statusCode, @error, @durationMs, @responseExcerpt, @outcome)`,
  );
  const settleDelivery = client.prepare<[{ id: number; state: string; nextAttemptAt: number | null; now: number }]>(
    `UPDATE webhook_deliveries SET state = @state, course_attempts = course_attempts + 1,
       next_attempt_at = @nextAttemptAt, updated_at = @now WHERE id = @id`,
  );
  const restart = client.prepare<[{ id: number; now: number }]>(
    `UPDATE webhook_deliveries SET state = 'pending', course_attempts = 0, next_attempt_at = @now, updated_at = @now
     WHERE id = @id`,
  );
  const hurryJob = client.prepare<[{ id: number; now: number; queue: string }]>(
    `UPDATE jobs SET run_at = @now, updated_at = @now WHERE queue = @queue AND ref_id = @id AND status = 'queued'`,
  );
  const insertJobIfNone = client.prepare<[{ id: number; now: number; queue: string }]>(
    `INSERT INTO jobs (queue, ref_id, run_at, created_at, updated_at)
     SELECT @queue, @id, @now, @now, @now WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE queue = @queue AND ref_id = @id)`,
  );

  return {
    isInTransaction: (): boolean => client.inTransaction,
    insertEvent: (type: string, payload: string, now: number): number => (insertEvent.get({ type, payload, now }) as { id: number }).id,
    insertDelivery: (eventId: number, consumerId: number, runAt: number, now: number): number =>
      (insertDelivery.get({ eventId, consumerId, runAt, now }) as { id: number }).id,
    loadForDispatch: (deliveryIds: readonly number[]): DispatchRow[] =>
      deliveryIds.length === 0 ? [] : loadBatch.all(JSON.stringify(deliveryIds)),
    insertAttempt: (attempt: NewAttempt): void => {
      insertAttempt.run(attempt);
    },
    /** False when the delivery is gone (its consumer was deleted, or the event purged, meanwhile). */
    settle: (id: number, state: string, nextAttemptAt: number | null, now: number): boolean =>
      settleDelivery.run({ id, state, nextAttemptAt, now }).changes > 0,
    /** Manual retry: the delivery starts afresh and is due now (a job in flight is left to finish). */
    restart: (id: number, now: number): void => {
      restart.run({ id, now });
      hurryJob.run({ id, now, queue: WEBHOOK_QUEUE });
      insertJobIfNone.run({ id, now, queue: WEBHOOK_QUEUE });
    },
  };
}

export type WebhookDeliveryRepo = ReturnType<typeof createWebhookDeliveryRepo>;
