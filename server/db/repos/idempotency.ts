import { and, eq, lt, sql } from 'drizzle-orm';
import type { Store } from '../store';
import type { idempotencyKeys } from '../schema';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;
export type StoredAnswer = { status: number; contentType: string | null; location: string | null; body: Buffer };

/** How many expired keys one claim clears: the table stays small without a sweep of its own. */
const PRUNE_BATCH = 100;

export function createIdempotencyRepo(x: Store) {
  const { orm, t } = x;
  const byKey = (scope: string, key: string) => and(eq(t.idempotencyKeys.scope, scope), eq(t.idempotencyKeys.key, key));
  // The oldest expired keys, by their primary key (PostgreSQL has no rowid).
  const prune = x.sql(
    `DELETE FROM idempotency_keys WHERE (scope, "key") IN
       (SELECT scope, "key" FROM idempotency_keys WHERE created_at < ? LIMIT ${PRUNE_BATCH})`,
  );
  const claim = x.prepare((o, t) =>
    o
      .insert(t.idempotencyKeys)
      .values({
        scope: sql.placeholder('scope'),
        key: sql.placeholder('key'),
        fingerprint: sql.placeholder('fingerprint'),
        createdAt: sql.placeholder('now'),
      })
      .onConflictDoNothing(),
  );
  return {
    find: async (scope: string, key: string): Promise<IdempotencyRow | undefined> =>
      x.get(orm.select().from(t.idempotencyKeys).where(byKey(scope, key))),
    /**
     * Claims the key for a request about to run; false when a row for it exists (answered or in
     * flight). Keys older than `expiredBefore` are dropped first, so an expired key is free again.
     * Two statements, each whole: a claim made by another request between them wins, and this
     * one answers false, as it would have after it.
     */
    claim: async (
      scope: string,
      key: string,
      fingerprint: string,
      now: number,
      expiredBefore: number,
    ): Promise<boolean> => {
      await prune.run([expiredBefore]);
      return (await claim.run({ scope, key, fingerprint, now })).changes === 1;
    },
    record: async (scope: string, key: string, answer: StoredAnswer): Promise<void> => {
      await x.run(orm.update(t.idempotencyKeys).set(answer).where(byKey(scope, key)));
    },
    /** Frees a key whose request ended without an answer worth repeating. */
    release: async (scope: string, key: string): Promise<void> => {
      await x.run(orm.delete(t.idempotencyKeys).where(byKey(scope, key)));
    },
    /** Keys whose request was in flight when the process stopped: their answer never came. */
    releaseUnanswered: async (): Promise<void> => {
      await x.run(orm.delete(t.idempotencyKeys).where(sql`${t.idempotencyKeys.status} is null`));
    },
    dropOlderThan: async (before: number): Promise<void> => {
      await x.run(orm.delete(t.idempotencyKeys).where(lt(t.idempotencyKeys.createdAt, before)));
    },
  };
}

export type IdempotencyRepo = ReturnType<typeof createIdempotencyRepo>;
