import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../open-database';
import { idempotencyKeys } from '../schema';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;
export type StoredAnswer = { status: number; contentType: string | null; location: string | null; body: Buffer };

/** How many expired keys one claim clears: the table stays small without a sweep of its own. */
const PRUNE_BATCH = 100;

export function createIdempotencyRepo(db: Db) {
  const prune = db
    .delete(idempotencyKeys)
    .where(
      sql`rowid in (select rowid from ${idempotencyKeys} where ${idempotencyKeys.createdAt} < ${sql.placeholder('before')} limit ${PRUNE_BATCH})`,
    )
    .prepare();
  return {
    find: async (scope: string, key: string): Promise<IdempotencyRow | undefined> =>
      db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))
        .get(),
    /**
     * Claims the key for a request about to run; false when a row for it exists (answered or in
     * flight). Keys older than `expiredBefore` are dropped first, so an expired key is free again.
     */
    claim: async (
      scope: string,
      key: string,
      fingerprint: string,
      now: number,
      expiredBefore: number,
    ): Promise<boolean> =>
      db.transaction(() => {
        prune.run({ before: expiredBefore });
        const result = db
          .insert(idempotencyKeys)
          .values({ scope, key, fingerprint, createdAt: now })
          .onConflictDoNothing()
          .run();
        return result.changes === 1;
      }),
    record: async (scope: string, key: string, answer: StoredAnswer): Promise<void> => {
      db.update(idempotencyKeys)
        .set(answer)
        .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))
        .run();
    },
    /** Frees a key whose request ended without an answer worth repeating. */
    release: async (scope: string, key: string): Promise<void> => {
      db.delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))
        .run();
    },
    /** Keys whose request was in flight when the process stopped: their answer never came. */
    releaseUnanswered: async (): Promise<void> => {
      db.delete(idempotencyKeys)
        .where(sql`${idempotencyKeys.status} is null`)
        .run();
    },
    dropOlderThan: async (before: number): Promise<void> => {
      db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before)).run();
    },
  };
}

export type IdempotencyRepo = ReturnType<typeof createIdempotencyRepo>;
