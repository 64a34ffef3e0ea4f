import { count, eq, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Store } from '../store';
import type { apiTokens } from '../schema';
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

export function createTokenRepo(x: Store) {
  const { orm, t } = x;
  const newestFirst: SortKey<TokenRow>[] = [{ column: t.apiTokens.id, isDescending: true, valueOf: (row) => row.id }];
  const byPublicId = x.prepare<TokenWithOwner>((o, t) =>
    o
      .select({
        id: t.apiTokens.id,
        secretHash: t.apiTokens.secretHash,
        kind: t.apiTokens.kind,
        rateLimit: t.apiTokens.rateLimit,
        revokedAt: t.apiTokens.revokedAt,
        ownerUserId: t.apiTokens.ownerUserId,
      })
      .from(t.apiTokens)
      .where(eq(t.apiTokens.publicId, sql.placeholder('publicId'))),
  );
  const byId = x.prepare<TokenRow>((o, t) =>
    o
      .select()
      .from(t.apiTokens)
      .where(eq(t.apiTokens.id, sql.placeholder('id'))),
  );
  const touch = x.prepare((o, t) =>
    o
      .update(t.apiTokens)
      .set({ lastUsedAt: sql`${sql.placeholder('at')}` })
      .where(eq(t.apiTokens.id, sql.placeholder('id'))),
  );

  const authCache = new TtlCache<string, TokenWithOwner>(1_000);
  const invalidate = () => authCache.clear();

  return {
    findForAuth: async (publicId: string): Promise<TokenWithOwner | undefined> =>
      authCache.get(publicId, () => byPublicId.get({ publicId })),
    findById: async (id: number): Promise<TokenRow | undefined> => byId.get({ id }),
    insert: async (row: NewToken): Promise<TokenRow> =>
      (await x.get<TokenRow>(orm.insert(t.apiTokens).values(row).returning()))!,
    update: async (
      id: number,
      changes: Partial<Pick<TokenRow, 'name' | 'rateLimit' | 'revokedAt'>>,
    ): Promise<TokenRow | undefined> => {
      invalidate();
      const row = await x.get<TokenRow>(orm.update(t.apiTokens).set(changes).where(eq(t.apiTokens.id, id)).returning());
      invalidate();
      return row;
    },
    markUsed: async (id: number, at: number): Promise<void> => {
      await touch.run({ id, at });
    },
    revokeAllOf: async (userId: number, at: number): Promise<void> => {
      invalidate();
      await x.run(
        orm
          .update(t.apiTokens)
          .set({ revokedAt: at })
          .where(sql`${t.apiTokens.ownerUserId} = ${userId} AND ${t.apiTokens.revokedAt} IS NULL`),
      );
      invalidate();
    },
    count: async (): Promise<number> =>
      (await x.get<{ n: number }>(orm.select({ n: count() }).from(t.apiTokens)))?.n ?? 0,
    listPage: async (request: KeysetRequest): Promise<KeysetPage<TokenRow>> =>
      fetchKeysetPage(newestFirst, request, undefined, (where, orderBy, limit) =>
        x.all(
          orm
            .select()
            .from(t.apiTokens)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit),
        ),
      ),
    ownerUsername: async (userId: number): Promise<string | undefined> =>
      (
        await x.get<{ username: string }>(
          orm.select({ username: t.users.username }).from(t.users).where(eq(t.users.id, userId)),
        )
      )?.username,
  };
}

export type TokenRepo = ReturnType<typeof createTokenRepo>;
