import { eq, lt, or, sql } from 'drizzle-orm';
import type { Store } from '../store';
import type { adminSessions } from '../schema';

export type AdminSessionRow = typeof adminSessions.$inferSelect;
export type NewAdminSession = Omit<typeof adminSessions.$inferInsert, 'id'>;

export function createAdminSessionRepo(x: Store) {
  const { orm, t } = x;
  // Read on every request of the admin UI: one indexed lookup.
  const byHash = x.prepare<AdminSessionRow>((o, t) =>
    o
      .select()
      .from(t.adminSessions)
      .where(eq(t.adminSessions.idHash, sql.placeholder('idHash'))),
  );
  const touch = x.prepare((o, t) =>
    o
      .update(t.adminSessions)
      .set({ lastSeenAt: sql`${sql.placeholder('at')}` })
      .where(eq(t.adminSessions.id, sql.placeholder('id'))),
  );

  return {
    findByHash: async (idHash: string): Promise<AdminSessionRow | undefined> => byHash.get({ idHash }),
    insert: async (row: NewAdminSession): Promise<AdminSessionRow> =>
      (await x.get<AdminSessionRow>(orm.insert(t.adminSessions).values(row).returning()))!,
    touch: async (id: number, at: number): Promise<void> => {
      await touch.run({ id, at });
    },
    delete: async (id: number): Promise<void> => {
      await x.run(orm.delete(t.adminSessions).where(eq(t.adminSessions.id, id)));
    },
    deleteAll: async (): Promise<void> => {
      await x.run(orm.delete(t.adminSessions));
    },
    /** Sessions past their absolute end or idle for longer than `idleMs`. */
    deleteExpired: async (now: number, idleMs: number): Promise<void> => {
      await x.run(
        orm
          .delete(t.adminSessions)
          .where(or(lt(t.adminSessions.expiresAt, now), lt(t.adminSessions.lastSeenAt, now - idleMs))),
      );
    },
  };
}

export type AdminSessionRepo = ReturnType<typeof createAdminSessionRepo>;
