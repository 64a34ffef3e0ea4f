import { count, eq, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Db } from '../open-database';
import { apiTokens, users } from '../schema';
import { TtlCache } from './ttl-cache';

export type TokenRow = typeof apiTokens.$inferSelect;
export type NewToken = Omit<typeof apiTokens.$inferInsert, 'id'>;

/** What authentication needs of a token, in one indexed read. */
export type TokenWithOwner = {
  id: number;
  secretHash: string;
  kind: string;
  rateLimit: number | null;
  revokedAt: number | null;
  ownerUserId: number;
};

const NEWEST_FIRST: SortKey<TokenRow>[] = [{ column: apiTokens.id, isDescending: true, valueOf: (row) => row.id }];

export function createTokenRepo(db: Db) {
  const byPublicId = db
    .select({
      id: apiTokens.id,
      secretHash: apiTokens.secretHash,
      kind: apiTokens.kind,
      rateLimit: apiTokens.rateLimit,
      revokedAt: apiTokens.revokedAt,
      ownerUserId: apiTokens.ownerUserId,
    })
    .from(apiTokens)
    .where(eq(apiTokens.publicId, sql.placeholder('publicId')))
    .prepare();
  const byId = db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.id, sql.placeholder('id')))
    .prepare();
  const touch = db
    .update(apiTokens)
    .set({ lastUsedAt: sql`${sql.placeholder('at')}` })
    .where(eq(apiTokens.id, sql.placeholder('id')))
    .prepare();

  const authCache = new TtlCache<string, TokenWithOwner>(5_000);
  const invalidate = () => authCache.clear();

  return {
    findForAuth: async (publicId: string): Promise<TokenWithOwner | undefined> =>
      authCache.get(publicId, () => byPublicId.get({ publicId })),
    findById: async (id: number): Promise<TokenRow | undefined> => byId.get({ id }),
    insert: async (row: NewToken): Promise<TokenRow> => db.insert(apiTokens).values(row).returning().get(),
    update: async (
      id: number,
      changes: Partial<Pick<TokenRow, 'name' | 'rateLimit' | 'revokedAt'>>,
    ): Promise<TokenRow | undefined> => {
      invalidate();
      return db.update(apiTokens).set(changes).where(eq(apiTokens.id, id)).returning().get();
    },
    markUsed: async (id: number, at: number): Promise<void> => {
      touch.run({ id, at });
    },
    revokeAllOf: async (userId: number, at: number): Promise<void> => {
      invalidate();
      db.update(apiTokens)
        .set({ revokedAt: at })
        .where(sql`${apiTokens.ownerUserId} = ${userId} AND ${apiTokens.revokedAt} IS NULL`)
        .run();
    },
    count: async (): Promise<number> => db.select({ n: count() }).from(apiTokens).get()?.n ?? 0,
    listPage: async (request: KeysetRequest): Promise<KeysetPage<TokenRow>> =>
      fetchKeysetPage(NEWEST_FIRST, request, undefined, (where, orderBy, limit) =>
        db
          .select()
          .from(apiTokens)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .all(),
      ),
    ownerUsername: async (userId: number): Promise<string | undefined> =>
      db.select({ username: users.username }).from(users).where(eq(users.id, userId)).get()?.username,
  };
}

export type TokenRepo = ReturnType<typeof createTokenRepo>;
