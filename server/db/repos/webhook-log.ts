import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Db } from '../open-database';
import { webhookAttempts, webhookDeliveries, webhookEvents } from '../schema';
import { WEBHOOK_QUEUE } from './webhook-consumers';

/** An event as one consumer sees it: the event and its delivery to that consumer. */
export type WebhookLogRow = {
  deliveryId: number;
  eventId: number;
  type: string;
  payload: string;
  state: string;
  nextAttemptAt: number | null;
  createdAt: number;
};

export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;

const NEWEST_FIRST: SortKey<WebhookLogRow>[] = [
  { column: webhookDeliveries.eventId, isDescending: true, valueOf: (row) => row.eventId },
];

/** The event log of the admin UI and the API, and its one-month retention. */
export function createWebhookLogRepo(db: Db) {
  const client = db.$client;
  const columns = {
    deliveryId: webhookDeliveries.id,
    eventId: webhookEvents.id,
    type: webhookEvents.type,
    payload: webhookEvents.payload,
    state: webhookDeliveries.state,
    nextAttemptAt: webhookDeliveries.nextAttemptAt,
    createdAt: webhookEvents.createdAt,
  };
  const filterOf = (consumerId: number, state: string | undefined): SQL | undefined =>
    and(
      eq(webhookDeliveries.consumerId, consumerId),
      state === undefined ? undefined : eq(webhookDeliveries.state, state),
    );

  const oldEvents = client.prepare<[number, number], { id: number }>(
    'SELECT id FROM webhook_events WHERE created_at < ? ORDER BY created_at LIMIT ?',
  );
  const deleteJobsOf = client.prepare<[string, string]>(
    `DELETE FROM jobs WHERE queue = ? AND ref_id IN
       (SELECT id FROM webhook_deliveries WHERE event_id IN (SELECT value FROM json_each(?)))`,
  );
  const deleteEvents = client.prepare<[string]>(
    'DELETE FROM webhook_events WHERE id IN (SELECT value FROM json_each(?))',
  );

  return {
    listPage: async (
      consumerId: number,
      state: string | undefined,
      request: KeysetRequest,
    ): Promise<KeysetPage<WebhookLogRow>> =>
      fetchKeysetPage(NEWEST_FIRST, request, filterOf(consumerId, state), (where, orderBy, limit) =>
        db
          .select(columns)
          .from(webhookDeliveries)
          .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .all(),
      ),
    count: async (consumerId: number, state: string | undefined): Promise<number> =>
      db.select({ n: count() }).from(webhookDeliveries).where(filterOf(consumerId, state)).get()?.n ?? 0,
    find: async (consumerId: number, eventId: number): Promise<WebhookLogRow | undefined> =>
      db
        .select(columns)
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .where(and(eq(webhookDeliveries.consumerId, consumerId), eq(webhookDeliveries.eventId, eventId)))
        .get(),
    /** Every attempt of these deliveries, oldest first. */
    attemptsOf: async (deliveryIds: readonly number[]): Promise<WebhookAttemptRow[]> =>
      deliveryIds.length === 0
        ? []
        : db
            .select()
            .from(webhookAttempts)
            .where(inArray(webhookAttempts.deliveryId, [...deliveryIds]))
            .orderBy(asc(webhookAttempts.id))
            .all(),
    /**
     * Deletes up to `limit` events made before `cutoff`, with their deliveries and attempts
     * (foreign-key cascade) and any job still queued for them. Call inside a transaction.
     */
    purgeBefore: async (cutoff: number, limit: number): Promise<number> => {
      const ids = JSON.stringify(oldEvents.all(cutoff, limit).map((row) => row.id));
      deleteJobsOf.run(WEBHOOK_QUEUE, ids);
      return deleteEvents.run(ids).changes;
    },
  };
}

export type WebhookLogRepo = ReturnType<typeof createWebhookLogRepo>;
