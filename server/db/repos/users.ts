import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Store } from '../store';
import type { users } from '../schema';
import { TtlCache } from './ttl-cache';

export type UserRow = typeof users.$inferSelect;
export type NewUser = Omit<typeof users.$inferInsert, 'id' | 'deletedAt'>;
export type UserChanges = Partial<Omit<NewUser, 'createdAt'>>;
/** Column values a user must have; who counts as what is decided in policies/ (ACTIVE_ADMINISTRATOR). */
export type UserMatch = Partial<Pick<UserRow, 'permissionTemplate' | 'active'>>;

export function createUserRepo(x: Store) {
  const { orm, t } = x;
  const newestFirst: SortKey<UserRow>[] = [{ column: t.users.id, isDescending: true, valueOf: (row) => row.id }];
  const live = isNull(t.users.deletedAt);
  /** Live users with every value of `match`. */
  const matching = (match: UserMatch) =>
    and(
      live,
      ...Object.entries(match).map(([column, value]) => eq(t.users[column as keyof UserMatch], value as never)),
    );
  const byId = x.prepare<UserRow>((o, t) =>
    o
      .select()
      .from(t.users)
      .where(and(eq(t.users.id, sql.placeholder('id')), isNull(t.users.deletedAt))),
  );
  const byUsername = x.prepare<UserRow>((o, t) =>
    o
      .select()
      .from(t.users)
      .where(and(eq(t.users.username, sql.placeholder('username')), isNull(t.users.deletedAt))),
  );

  // Authentication reads the acting user on every request; handlers read through findById.
  const actorCache = new TtlCache<number, UserRow>(1_000);

  return {
    findById: async (id: number): Promise<UserRow | undefined> => byId.get({ id }),
    findActor: async (id: number): Promise<UserRow | undefined> => actorCache.get(id, () => byId.get({ id })),
    findByUsername: async (username: string): Promise<UserRow | undefined> => byUsername.get({ username }),
    /** Live users with this e-mail address, compared without case (single sign-on finds its user by it). */
    listByEmail: async (email: string): Promise<UserRow[]> =>
      x.all<UserRow>(
        orm
          .select()
          .from(t.users)
          .where(and(live, eq(sql`lower(${t.users.email})`, email.toLowerCase())))
          .orderBy(t.users.id)
          .limit(2),
      ),
    insert: async (row: NewUser): Promise<UserRow> =>
      (await x.get<UserRow>(orm.insert(t.users).values(row).returning()))!,
    update: async (id: number, changes: UserChanges): Promise<UserRow | undefined> => {
      actorCache.clear();
      const row = await x.get<UserRow>(
        orm
          .update(t.users)
          .set(changes)
          .where(and(eq(t.users.id, id), live))
          .returning(),
      );
      actorCache.clear();
      return row;
    },
    softDelete: async (id: number, at: number): Promise<void> => {
      actorCache.clear();
      await x.run(orm.update(t.users).set({ deletedAt: at, active: false }).where(eq(t.users.id, id)));
      actorCache.clear();
    },
    count: async (): Promise<number> =>
      (await x.get<{ n: number }>(orm.select({ n: count() }).from(t.users).where(live)))?.n ?? 0,
    countMatching: async (match: UserMatch): Promise<number> =>
      (await x.get<{ n: number }>(orm.select({ n: count() }).from(t.users).where(matching(match))))?.n ?? 0,
    /** The oldest live user with every value of `match`. */
    firstMatching: async (match: UserMatch): Promise<UserRow | undefined> =>
      x.get(orm.select().from(t.users).where(matching(match)).orderBy(t.users.id).limit(1)),
    /** Newest first. */
    listPage: async (request: KeysetRequest): Promise<KeysetPage<UserRow>> =>
      fetchKeysetPage(newestFirst, request, live, (where, orderBy, limit) =>
        x.all(
          orm
            .select()
            .from(t.users)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit),
        ),
      ),
  };
}

export type UserRepo = ReturnType<typeof createUserRepo>;
