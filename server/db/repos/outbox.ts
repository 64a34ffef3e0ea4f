import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Db } from '../open-database';
import { outboxMessages, type OutboxRecipientRow } from '../schema';

export type OutboxMessageRow = typeof outboxMessages.$inferSelect;
export type NewOutboxMessage = Omit<
  typeof outboxMessages.$inferInsert,
  'id' | 'attempts' | 'roundAttempts' | 'lastError' | 'response' | 'messageId' | 'sentAt' | 'nextAttemptAt'
>;
export type OutboxFilter = { state?: string | undefined; channel?: string | undefined };

/** What an attempt leaves on the row. */
export type AttemptRecord = {
  state: string;
  recipients: OutboxRecipientRow[];
  lastError: string | null;
  response: string | null;
  messageId: string | null;
  sentAt: number | null;
  nextAttemptAt: number | null;
};

const NEWEST_FIRST: SortKey<OutboxMessageRow>[] = [
  { column: outboxMessages.id, isDescending: true, valueOf: (row) => row.id },
];

export function createOutboxRepo(db: Db) {
  const byId = db
    .select()
    .from(outboxMessages)
    .where(eq(outboxMessages.id, sql.placeholder('id')))
    .prepare();
  const insert = db
    .insert(outboxMessages)
    .values({
      channel: sql.placeholder('channel'),
      recipient: sql.placeholder('recipient'),
      recipients: sql.placeholder('recipients'),
      subject: sql.placeholder('subject'),
      text: sql.placeholder('text'),
      html: sql.placeholder('html'),
      fromName: sql.placeholder('fromName'),
      replyTo: sql.placeholder('replyTo'),
      purpose: sql.placeholder('purpose'),
      contractId: sql.placeholder('contractId'),
      partyId: sql.placeholder('partyId'),
      state: sql.placeholder('state'),
      createdAt: sql.placeholder('createdAt'),
      updatedAt: sql.placeholder('updatedAt'),
    })
    .returning({ id: outboxMessages.id })
    .prepare();
  const startAttempt = db.$client.prepare<[{ id: number; now: number; messageId: string | null }]>(
    `UPDATE outbox_messages SET state = 'sending', attempts = attempts + 1, round_attempts = round_attempts + 1,
       message_id = coalesce(message_id, @messageId), next_attempt_at = NULL, updated_at = @now
     WHERE id = @id AND state IN ('queued', 'sending')`,
  );
  const waitForConfig = db.$client.prepare<[{ id: number; now: number }]>(
    `UPDATE outbox_messages SET state = 'waiting-for-config', next_attempt_at = NULL, updated_at = @now
     WHERE id = @id AND state IN ('queued', 'sending')`,
  );
  const waitingIds = db.$client.prepare<[string], { id: number }>(
    `SELECT id FROM outbox_messages WHERE state = 'waiting-for-config' AND channel = ? ORDER BY id`,
  );
  const wakeWaiting = db.$client.prepare<[{ id: number; now: number }]>(
    `UPDATE outbox_messages SET state = 'queued', updated_at = @now WHERE id = @id AND state = 'waiting-for-config'`,
  );
  // A new server or gateway deserves a try now rather than at the end of a backoff meant for the old one.
  const hurryRetries = db.$client.prepare<[{ channel: string; now: number }]>(
    `UPDATE jobs SET run_at = @now, updated_at = @now
     WHERE queue = 'outbox' AND status = 'queued' AND run_at > @now
       AND ref_id IN (SELECT id FROM outbox_messages WHERE channel = @channel AND state = 'queued')`,
  );
  const hurryMessages = db.$client.prepare<[{ channel: string; now: number }]>(
    `UPDATE outbox_messages SET next_attempt_at = @now
     WHERE channel = @channel AND state = 'queued' AND next_attempt_at > @now`,
  );

  const pendingCount = db.$client.prepare<[], { n: number }>(
    "SELECT count(*) AS n FROM outbox_messages WHERE state IN ('queued', 'sending', 'waiting-for-config')",
  );

  const filterOf = (filter: OutboxFilter): SQL | undefined =>
    and(
      filter.state === undefined ? undefined : eq(outboxMessages.state, filter.state),
      filter.channel === undefined ? undefined : eq(outboxMessages.channel, filter.channel),
    );

  const unsealed = db.$client.prepare<[], { id: number; subject: string | null; text: string; html: string | null }>(
    "SELECT id, subject, text, html FROM outbox_messages WHERE text NOT LIKE 'sealed:%'",
  );
  const replaceTexts = db.$client.prepare<[string | null, string, string | null, number]>(
    'UPDATE outbox_messages SET subject = ?, text = ?, html = ? WHERE id = ?',
  );
  return {
    /** Messages an older version kept in clear (bodies not yet sealed). */
    listUnsealed: async () => unsealed.all(),
    replaceTexts: async (id: number, texts: { subject: string | null; text: string; html: string | null }) => {
      replaceTexts.run(texts.subject, texts.text, texts.html, id);
    },
    insert: async (row: NewOutboxMessage): Promise<number> =>
      (
        insert.get({
          ...row,
          subject: row.subject ?? null,
          html: row.html ?? null,
          fromName: row.fromName ?? null,
          replyTo: row.replyTo ?? null,
          contractId: row.contractId ?? null,
          partyId: row.partyId ?? null,
        }) as { id: number }
      ).id,
    findById: async (id: number): Promise<OutboxMessageRow | undefined> => byId.get({ id }),
    /**
     * Marks an attempt as under way and fixes the message's Message-ID on its first attempt;
     * false when the message is no longer deliverable.
     */
    startAttempt: async (id: number, now: number, messageId: string | null): Promise<boolean> =>
      startAttempt.run({ id, now, messageId }).changes > 0,
    recordAttempt: async (id: number, record: AttemptRecord, now: number): Promise<void> => {
      db.update(outboxMessages)
        .set({ ...record, updatedAt: now })
        .where(eq(outboxMessages.id, id))
        .run();
    },
    waitForConfig: async (id: number, now: number): Promise<boolean> => waitForConfig.run({ id, now }).changes > 0,
    /** Waiting messages of a channel go back to queued; returns their ids (each needs a job). */
    wakeWaiting: async (channel: string, now: number): Promise<number[]> => {
      const ids = waitingIds.all(channel).map((row) => row.id);
      for (const id of ids) wakeWaiting.run({ id, now });
      return ids;
    },
    hurryRetries: async (channel: string, now: number): Promise<void> => {
      hurryRetries.run({ channel, now });
      hurryMessages.run({ channel, now });
    },
    /** Back to queued for a manual retry, with a fresh retry schedule for the addresses that failed. */
    requeue: async (row: OutboxMessageRow, now: number): Promise<void> => {
      const recipients = row.recipients.map((recipient) =>
        recipient.state === 'sent' ? recipient : { ...recipient, state: 'pending' },
      );
      db.update(outboxMessages)
        .set({ state: 'queued', roundAttempts: 0, recipients, nextAttemptAt: now, updatedAt: now })
        .where(eq(outboxMessages.id, row.id))
        .run();
    },
    /** Messages not yet delivered nor given up: queued, sending or waiting for configuration. */
    countPending: async (): Promise<number> => pendingCount.get()?.n ?? 0,
    count: async (filter: OutboxFilter = {}): Promise<number> =>
      db.select({ n: count() }).from(outboxMessages).where(filterOf(filter)).get()?.n ?? 0,
    /** Newest first. */
    listPage: async (request: KeysetRequest, filter: OutboxFilter): Promise<KeysetPage<OutboxMessageRow>> =>
      fetchKeysetPage(NEWEST_FIRST, request, filterOf(filter), (where, orderBy, limit) =>
        db
          .select()
          .from(outboxMessages)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .all(),
      ),
  };
}

export type OutboxRepo = ReturnType<typeof createOutboxRepo>;
