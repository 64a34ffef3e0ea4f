import { eq } from 'drizzle-orm';
import type { Store } from '../store';
import type { office } from '../schema';

export type OfficeRow = typeof office.$inferSelect;
export type OfficeChanges = Partial<Pick<OfficeRow, 'name' | 'email' | 'defaultRateLimit' | 'setUpAt'>>;

const OFFICE_ID = 1;

export function createOfficeRepo(x: Store) {
  const { orm, t } = x;
  // The office row is read on every authenticated request (the default rate limit); writes
  // go through this repository, so a cached copy stays true.
  let cached: OfficeRow | undefined;
  /** Bumped by every update: a read begun before it does not cache what it read. */
  let version = 0;
  return {
    /** The office row, made on first read so that a fresh database always has one. */
    get: async (now: number): Promise<OfficeRow> => {
      if (cached) return cached;
      const readAt = version;
      await x.run(orm.insert(t.office).values({ id: OFFICE_ID, createdAt: now }).onConflictDoNothing());
      const row = (await x.get<OfficeRow>(orm.select().from(t.office).where(eq(t.office.id, OFFICE_ID))))!;
      if (readAt === version) cached = row;
      return row;
    },
    update: async (changes: OfficeChanges): Promise<void> => {
      version += 1;
      cached = undefined;
      await x.run(orm.update(t.office).set(changes).where(eq(t.office.id, OFFICE_ID)));
      version += 1;
      cached = undefined;
    },
  };
}

export type OfficeRepo = ReturnType<typeof createOfficeRepo>;
