import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Store } from '../store';
import type { outboxMessages, OutboxRecipientRow } from '../schema';

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

export function createOutboxRepo(x: Store) {
  const { orm, t } = x;
  const newestFirst: SortKey<OutboxMessageRow>[] = [
    { column: t.outboxMessages.id, isDescending: true, valueOf: (row) => row.id },
  ];
  const byId = x.prepare<OutboxMessageRow>((o, t) =>
    o
      .select()
      .from(t.outboxMessages)
      .where(eq(t.outboxMessages.id, sql.placeholder('id'))),
  );
  const insert = x.prepare<{ id: number }>((o, t) =>
    o
      .insert(t.outboxMessages)
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
      .returning({ id: t.outboxMessages.id }),
  );
  const startAttempt = x.sql(
    `UPDATE outbox_messages SET state = 'sending', attempts = attempts + 1, round_attempts = round_attempts + 1,
       message_id = coalesce(message_id, @messageId), next_attempt_at = NULL, updated_at = @now
     WHERE id = @id AND state IN ('queued', 'sending')`,
  );
  const waitForConfig = x.sql(
    `UPDATE outbox_messages SET state = 'waiting-for-config', next_attempt_at = NULL, updated_at = @now
     WHERE id = @id AND state IN ('queued', 'sending')`,
  );
  // One statement: every message still waiting goes back to queued, and says which it was.
  const wakeWaiting = x.sql<{ id: number }>(
    `UPDATE outbox_messages SET state = 'queued', updated_at = @now
     WHERE state = 'waiting-for-config' AND channel = @channel RETURNING id`,
  );
  // A new server or gateway deserves a try now rather than at the end of a backoff meant for the old one.
  const hurryRetries = x.sql(
    `UPDATE jobs SET run_at = @now, updated_at = @now
     WHERE queue = 'outbox' AND status = 'queued' AND run_at > @now
       AND ref_id IN (SELECT id FROM outbox_messages WHERE channel = @channel AND state = 'queued')`,
  );
  const hurryMessages = x.sql(
    `UPDATE outbox_messages SET next_attempt_at = @now
     WHERE channel = @channel AND state = 'queued' AND next_attempt_at > @now`,
  );

  const pendingCount = x.sql<{ n: number }>(
    "SELECT count(*) AS n FROM outbox_messages WHERE state IN ('queued', 'sending', 'waiting-for-config')",
  );

  const filterOf = (filter: OutboxFilter): SQL | undefined =>
    and(
      filter.state === undefined ? undefined : eq(t.outboxMessages.state, filter.state),
      filter.channel === undefined ? undefined : eq(t.outboxMessages.channel, filter.channel),
    );

  // SQLite's LIKE ignores the case of ASCII letters, PostgreSQL's does not: lower() reads the same on both.
  const unsealed = x.sql<{ id: number; subject: string | null; text: string; html: string | null }>(
    "SELECT id, subject, text, html FROM outbox_messages WHERE lower(text) NOT LIKE 'sealed:%' ORDER BY id",
  );
  const replaceTexts = x.sql('UPDATE outbox_messages SET subject = ?, text = ?, html = ? WHERE id = ?');
  return {
    /** Messages an older version kept in clear (bodies not yet sealed). */
    listUnsealed: async () => unsealed.all(),
    replaceTexts: async (id: number, texts: { subject: string | null; text: string; html: string | null }) => {
      await replaceTexts.run([texts.subject, texts.text, texts.html, id]);
    },
    insert: async (row: NewOutboxMessage): Promise<number> =>
      (await insert.get({
        ...row,
        subject: row.subject ?? null,
        html: row.html ?? null,
        fromName: row.fromName ?? null,
        replyTo: row.replyTo ?? null,
        contractId: row.contractId ?? null,
        partyId: row.partyId ?? null,
      }))!.id,
    findById: async (id: number): Promise<OutboxMessageRow | undefined> => byId.get({ id }),
    /**
     * Marks an attempt as under way and fixes the message's Message-ID on its first attempt;
     * false when the message is no longer deliverable.
     */
    startAttempt: async (id: number, now: number, messageId: string | null): Promise<boolean> =>
      (await startAttempt.run({ id, now, messageId })).changes > 0,
    recordAttempt: async (id: number, record: AttemptRecord, now: number): Promise<void> => {
      await x.run(
        orm
          .update(t.outboxMessages)
          .set({ ...record, updatedAt: now })
          .where(eq(t.outboxMessages.id, id)),
      );
    },
    waitForConfig: async (id: number, now: number): Promise<boolean> =>
      (await waitForConfig.run({ id, now })).changes > 0,
    /** Waiting messages of a channel go back to queued; returns their ids (each needs a job). */
    wakeWaiting: async (channel: string, now: number): Promise<number[]> =>
      (await wakeWaiting.all({ channel, now })).map((row) => row.id).sort((a, b) => a - b),
    hurryRetries: async (channel: string, now: number): Promise<void> => {
      await hurryRetries.run({ channel, now });
      await hurryMessages.run({ channel, now });
    },
    /** Back to queued for a manual retry, with a fresh retry schedule for the addresses that failed. */
    requeue: async (row: OutboxMessageRow, now: number): Promise<void> => {
      const recipients = row.recipients.map((recipient) =>
        recipient.state === 'sent' ? recipient : { ...recipient, state: 'pending' },
      );
      await x.run(
        orm
          .update(t.outboxMessages)
          .set({ state: 'queued', roundAttempts: 0, recipients, nextAttemptAt: now, updatedAt: now })
          .where(eq(t.outboxMessages.id, row.id)),
      );
    },
    /** Messages not yet delivered nor given up: queued, sending or waiting for configuration. */
    countPending: async (): Promise<number> => (await pendingCount.get())?.n ?? 0,
    count: async (filter: OutboxFilter = {}): Promise<number> =>
      (await x.get<{ n: number }>(orm.select({ n: count() }).from(t.outboxMessages).where(filterOf(filter))))?.n ?? 0,
    /** Newest first. */
    listPage: async (request: KeysetRequest, filter: OutboxFilter): Promise<KeysetPage<OutboxMessageRow>> =>
      fetchKeysetPage(newestFirst, request, filterOf(filter), (where, orderBy, limit) =>
        x.all(
          orm
            .select()
            .from(t.outboxMessages)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit),
        ),
      ),
  };
}

export type OutboxRepo = ReturnType<typeof createOutboxRepo>;
