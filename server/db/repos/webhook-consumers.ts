import { count, eq, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Store } from '../store';
import type { webhookConsumers } from '../schema';

export type WebhookConsumerRow = typeof webhookConsumers.$inferSelect;
export type NewWebhookConsumer = Omit<typeof webhookConsumers.$inferInsert, 'id' | 'permanentErrors' | 'disabledAt'>;

/** The opt-in events a consumer chose, from its stored JSON. */
export const chosenEventsOf = (row: { events: string }): string[] => JSON.parse(row.events) as string[];
export type WebhookConsumerChanges = Partial<Pick<WebhookConsumerRow, 'url' | 'contactEmail' | 'events' | 'updatedAt'>>;

export const WEBHOOK_QUEUE = 'webhook';

export function createWebhookConsumerRepo(x: Store) {
  const { orm, t } = x;
  const newestFirst: SortKey<WebhookConsumerRow>[] = [
    { column: t.webhookConsumers.id, isDescending: true, valueOf: (row) => row.id },
  ];
  const byId = x.prepare<WebhookConsumerRow>((o, t) =>
    o
      .select()
      .from(t.webhookConsumers)
      .where(eq(t.webhookConsumers.id, sql.placeholder('id'))),
  );
  const countError = x.sql<{ errors: number; disabledAt: number | null }>(
    `UPDATE webhook_consumers SET permanent_errors = permanent_errors + 1, updated_at = @now WHERE id = @id
     RETURNING permanent_errors AS errors, disabled_at AS "disabledAt"`,
  );
  const resetErrors = x.sql('UPDATE webhook_consumers SET permanent_errors = 0 WHERE id = ? AND permanent_errors != 0');
  const disable = x.sql(
    'UPDATE webhook_consumers SET disabled_at = @now, updated_at = @now WHERE id = @id AND disabled_at IS NULL',
  );
  // A disabled consumer's deliveries are held without jobs; one still pending (made by an older
  // version, or a race) gets a job due now on enabling.
  const requeuePending = x.sql(
    `INSERT INTO jobs (queue, ref_id, run_at, created_at, updated_at)
     SELECT @queue, d.id, @now, @now, @now FROM webhook_deliveries d
     WHERE d.consumer_id = @id AND d.state = 'pending'
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.queue = @queue AND j.ref_id = d.id)`,
  );
  const hurryQueued = x.sql(
    `UPDATE jobs SET run_at = @now, updated_at = @now
     WHERE queue = @queue AND status = 'queued' AND run_at > @now
       AND ref_id IN (SELECT id FROM webhook_deliveries WHERE consumer_id = @id AND state = 'pending')`,
  );
  const deleteJobs = x.sql(
    `DELETE FROM jobs WHERE queue = @queue AND ref_id IN (SELECT id FROM webhook_deliveries WHERE consumer_id = @id)`,
  );

  return {
    findById: async (id: number): Promise<WebhookConsumerRow | undefined> => byId.get({ id }),
    insert: async (row: NewWebhookConsumer): Promise<WebhookConsumerRow> =>
      (await x.get<WebhookConsumerRow>(orm.insert(t.webhookConsumers).values(row).returning()))!,
    update: async (id: number, changes: WebhookConsumerChanges): Promise<WebhookConsumerRow | undefined> =>
      x.get(orm.update(t.webhookConsumers).set(changes).where(eq(t.webhookConsumers.id, id)).returning()),
    /** Deletes the consumer with its deliveries, attempts and queued jobs; call inside a transaction. */
    remove: async (id: number): Promise<boolean> => {
      await deleteJobs.run({ id, queue: WEBHOOK_QUEUE });
      return (await x.run(orm.delete(t.webhookConsumers).where(eq(t.webhookConsumers.id, id)))).changes > 0;
    },
    count: async (): Promise<number> =>
      (await x.get<{ n: number }>(orm.select({ n: count() }).from(t.webhookConsumers)))?.n ?? 0,
    listPage: async (request: KeysetRequest): Promise<KeysetPage<WebhookConsumerRow>> =>
      fetchKeysetPage(newestFirst, request, undefined, (where, orderBy, limit) =>
        x.all(
          orm
            .select()
            .from(t.webhookConsumers)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit),
        ),
      ),
    /** Counts a permanent error; returns the count in a row and whether the consumer was already disabled. */
    countPermanentError: async (
      id: number,
      now: number,
    ): Promise<{ errors: number; disabledAt: number | null } | undefined> => countError.get({ id, now }),
    resetPermanentErrors: async (id: number): Promise<void> => {
      await resetErrors.run([id]);
    },
    /** True when this call disabled it (it was enabled). */
    disable: async (id: number, now: number): Promise<boolean> => (await disable.run({ id, now })).changes > 0,
    /** Clears the disabled state and the error count; pending deliveries become due now. Call inside a transaction. */
    enable: async (id: number, now: number): Promise<number> => {
      await x.run(
        orm
          .update(t.webhookConsumers)
          .set({ disabledAt: null, permanentErrors: 0, updatedAt: now })
          .where(eq(t.webhookConsumers.id, id)),
      );
      await hurryQueued.run({ id, now, queue: WEBHOOK_QUEUE });
      return (await requeuePending.run({ id, now, queue: WEBHOOK_QUEUE })).changes;
    },
  };
}

export type WebhookConsumerRepo = ReturnType<typeof createWebhookConsumerRepo>;
