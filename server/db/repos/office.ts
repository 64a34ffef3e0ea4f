import { eq } from 'drizzle-orm';
import type { Db } from '../open-database';
import { office } from '../schema';

export type OfficeRow = typeof office.$inferSelect;
export type OfficeChanges = Partial<Pick<OfficeRow, 'name' | 'email' | 'defaultRateLimit' | 'setUpAt'>>;

const OFFICE_ID = 1;

export function createOfficeRepo(db: Db) {
  // The office row is read on every authenticated request (the default rate limit); writes
  // go through this repository, so a cached copy stays true.
  let cached: OfficeRow | undefined;
  return {
    /** The office row, made on first read so that a fresh database always has one. */
    get: async (now: number): Promise<OfficeRow> => {
      if (cached) return cached;
      db.insert(office).values({ id: OFFICE_ID, createdAt: now }).onConflictDoNothing().run();
      cached = db.select().from(office).where(eq(office.id, OFFICE_ID)).get() as OfficeRow;
      return cached;
    },
    update: async (changes: OfficeChanges): Promise<void> => {
      db.update(office).set(changes).where(eq(office.id, OFFICE_ID)).run();
      cached = undefined;
    },
  };
}

export type OfficeRepo = ReturnType<typeof createOfficeRepo>;
