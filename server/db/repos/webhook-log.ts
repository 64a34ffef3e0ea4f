import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Store } from '../store';
import type { webhookAttempts } from '../schema';
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

/** The event log of the admin UI and the API, and its one-month retention. */
export function createWebhookLogRepo(x: Store) {
  const { orm, t } = x;
  const newestFirst: SortKey<WebhookLogRow>[] = [
    { column: t.webhookDeliveries.eventId, isDescending: true, valueOf: (row) => row.eventId },
  ];
  const columns = {
    deliveryId: t.webhookDeliveries.id,
    eventId: t.webhookEvents.id,
    type: t.webhookEvents.type,
    payload: t.webhookEvents.payload,
    state: t.webhookDeliveries.state,
    nextAttemptAt: t.webhookDeliveries.nextAttemptAt,
    createdAt: t.webhookEvents.createdAt,
  };
  const filterOf = (consumerId: number, state: string | undefined): SQL | undefined =>
    and(
      eq(t.webhookDeliveries.consumerId, consumerId),
      state === undefined ? undefined : eq(t.webhookDeliveries.state, state),
    );

  const oldEvents = x.sql<{ id: number }>(
    'SELECT id FROM webhook_events WHERE created_at < ? ORDER BY created_at LIMIT ?',
  );
  // A list of ids is one parameter: JSON read by SQLite's json_each, an array for PostgreSQL's ANY.
  const idList = (ids: readonly number[]): unknown => (x.dialect === 'sqlite' ? JSON.stringify(ids) : [...ids]);
  const deleteJobsOf = x.sql({
    sqlite: `DELETE FROM jobs WHERE queue = ? AND ref_id IN
       (SELECT id FROM webhook_deliveries WHERE event_id IN (SELECT value FROM json_each(?)))`,
    postgres: `DELETE FROM jobs WHERE queue = ? AND ref_id IN
       (SELECT id FROM webhook_deliveries WHERE event_id = ANY(?))`,
  });
  const deleteEvents = x.sql({
    sqlite: 'DELETE FROM webhook_events WHERE id IN (SELECT value FROM json_each(?))',
    postgres: 'DELETE FROM webhook_events WHERE id = ANY(?)',
  });

  return {
    listPage: async (
      consumerId: number,
      state: string | undefined,
      request: KeysetRequest,
    ): Promise<KeysetPage<WebhookLogRow>> =>
      fetchKeysetPage(newestFirst, request, filterOf(consumerId, state), (where, orderBy, limit) =>
        x.all(
          orm
            .select(columns)
            .from(t.webhookDeliveries)
            .innerJoin(t.webhookEvents, eq(t.webhookEvents.id, t.webhookDeliveries.eventId))
            .where(where)
            .orderBy(...orderBy)
            .limit(limit),
        ),
      ),
    count: async (consumerId: number, state: string | undefined): Promise<number> =>
      (
        await x.get<{ n: number }>(
          orm.select({ n: count() }).from(t.webhookDeliveries).where(filterOf(consumerId, state)),
        )
      )?.n ?? 0,
    find: async (consumerId: number, eventId: number): Promise<WebhookLogRow | undefined> =>
      x.get(
        orm
          .select(columns)
          .from(t.webhookDeliveries)
          .innerJoin(t.webhookEvents, eq(t.webhookEvents.id, t.webhookDeliveries.eventId))
          .where(and(eq(t.webhookDeliveries.consumerId, consumerId), eq(t.webhookDeliveries.eventId, eventId))),
      ),
    /** Every attempt of these deliveries, oldest first. */
    attemptsOf: async (deliveryIds: readonly number[]): Promise<WebhookAttemptRow[]> =>
      deliveryIds.length === 0
        ? []
        : x.all(
            orm
              .select()
              .from(t.webhookAttempts)
              .where(inArray(t.webhookAttempts.deliveryId, [...deliveryIds]))
              .orderBy(asc(t.webhookAttempts.id)),
          ),
    /**
     * Deletes up to `limit` events made before `cutoff`, with their deliveries and attempts
     * (foreign-key cascade) and any job still queued for them. Call inside a transaction.
     */
    purgeBefore: async (cutoff: number, limit: number): Promise<number> => {
      const ids = idList((await oldEvents.all([cutoff, limit])).map((row) => row.id));
      await deleteJobsOf.run([WEBHOOK_QUEUE, ids]);
      return (await deleteEvents.run([ids])).changes;
    },
  };
}

export type WebhookLogRepo = ReturnType<typeof createWebhookLogRepo>;
