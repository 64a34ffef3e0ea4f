import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Db } from '../open-database';
import { users } from '../schema';
import { TtlCache } from './ttl-cache';

export type UserRow = typeof users.$inferSelect;
export type NewUser = Omit<typeof users.$inferInsert, 'id' | 'deletedAt'>;
export type UserChanges = Partial<Omit<NewUser, 'createdAt'>>;

const NEWEST_FIRST: SortKey<UserRow>[] = [{ column: users.id, isDescending: true, valueOf: (row) => row.id }];

export function createUserRepo(db: Db) {
  const live = isNull(users.deletedAt);
  const byId = db
    .select()
    .from(users)
    .where(and(eq(users.id, sql.placeholder('id')), live))
    .prepare();
  const byUsername = db
    .select()
    .from(users)
    .where(and(eq(users.username, sql.placeholder('username')), live))
    .prepare();

  // Authentication reads the acting user on every request; handlers read through findById.
  const actorCache = new TtlCache<number, UserRow>(5_000);

  return {
    findById: async (id: number): Promise<UserRow | undefined> => byId.get({ id }),
    findActor: async (id: number): Promise<UserRow | undefined> => actorCache.get(id, () => byId.get({ id })),
    findByUsername: async (username: string): Promise<UserRow | undefined> => byUsername.get({ username }),
    insert: async (row: NewUser): Promise<UserRow> => db.insert(users).values(row).returning().get(),
    update: async (id: number, changes: UserChanges): Promise<UserRow | undefined> => {
      actorCache.clear();
      return db
        .update(users)
        .set(changes)
        .where(and(eq(users.id, id), live))
        .returning()
        .get();
    },
    softDelete: async (id: number, at: number): Promise<void> => {
      actorCache.clear();
      db.update(users).set({ deletedAt: at, active: false }).where(eq(users.id, id)).run();
    },
    count: async (): Promise<number> => db.select({ n: count() }).from(users).where(live).get()?.n ?? 0,
    countActiveAdmins: async (): Promise<number> =>
      db
        .select({ n: count() })
        .from(users)
        .where(and(live, eq(users.active, true), eq(users.permissionTemplate, 'CUSTOMER_ADMIN_USER')))
        .get()?.n ?? 0,
    firstActiveAdmin: async (): Promise<UserRow | undefined> =>
      db
        .select()
        .from(users)
        .where(and(live, eq(users.active, true), eq(users.permissionTemplate, 'CUSTOMER_ADMIN_USER')))
        .orderBy(users.id)
        .limit(1)
        .get(),
    /** Newest first. */
    listPage: async (request: KeysetRequest): Promise<KeysetPage<UserRow>> =>
      fetchKeysetPage(NEWEST_FIRST, request, live, (where, orderBy, limit) =>
        db
          .select()
          .from(users)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .all(),
      ),
  };
}

export type UserRepo = ReturnType<typeof createUserRepo>;
