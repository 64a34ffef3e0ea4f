import { eq, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../open-database';
import { adminSessions } from '../schema';

export type AdminSessionRow = typeof adminSessions.$inferSelect;
export type NewAdminSession = Omit<typeof adminSessions.$inferInsert, 'id'>;

export function createAdminSessionRepo(db: Db) {
  // Read on every request of the admin UI: one indexed lookup.
  const byHash = db
    .select()
    .from(adminSessions)
    .where(eq(adminSessions.idHash, sql.placeholder('idHash')))
    .prepare();
  const touch = db
    .update(adminSessions)
    .set({ lastSeenAt: sql`${sql.placeholder('at')}` })
    .where(eq(adminSessions.id, sql.placeholder('id')))
    .prepare();

  return {
    findByHash: async (idHash: string): Promise<AdminSessionRow | undefined> => byHash.get({ idHash }),
    insert: async (row: NewAdminSession): Promise<AdminSessionRow> =>
      db.insert(adminSessions).values(row).returning().get(),
    touch: async (id: number, at: number): Promise<void> => {
      touch.run({ id, at });
    },
    delete: async (id: number): Promise<void> => {
      db.delete(adminSessions).where(eq(adminSessions.id, id)).run();
    },
    deleteAll: async (): Promise<void> => {
      db.delete(adminSessions).run();
    },
    /** Sessions past their absolute end or idle for longer than `idleMs`. */
    deleteExpired: async (now: number, idleMs: number): Promise<void> => {
      db.delete(adminSessions)
        .where(or(lt(adminSessions.expiresAt, now), lt(adminSessions.lastSeenAt, now - idleMs)))
        .run();
    },
  };
}

export type AdminSessionRepo = ReturnType<typeof createAdminSessionRepo>;
