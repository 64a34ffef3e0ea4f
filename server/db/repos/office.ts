import { eq } from 'drizzle-orm';
import type { Store } from '../store';
import type { office } from '../schema';
import { TtlCache } from './ttl-cache';

export type OfficeRow = typeof office.$inferSelect;
export type OfficeChanges = Partial<Pick<OfficeRow, 'name' | 'email' | 'defaultRateLimit' | 'setUpAt'>>;

const OFFICE_ID = 1;
/**
 * How long a copy of the office row is used: this process's writes clear it at once, and
 * another instance's (or the CLI's) are seen within this time (issue 38: a renamed office, the
 * first-run setup, a new default rate limit reach every instance within a second).
 */
const OFFICE_TTL_MS = 1_000;

export function createOfficeRepo(x: Store) {
  const { orm, t } = x;
  // The office row is read on every authenticated request (the default rate limit).
  const cache = new TtlCache<number, OfficeRow>(OFFICE_TTL_MS, 1);
  return {
    /** The office row, made on first read so that a fresh database always has one. */
    get: async (now: number): Promise<OfficeRow> =>
      (await cache.get(OFFICE_ID, async () => {
        await x.run(orm.insert(t.office).values({ id: OFFICE_ID, createdAt: now }).onConflictDoNothing());
        return x.get<OfficeRow>(orm.select().from(t.office).where(eq(t.office.id, OFFICE_ID)));
      })) as OfficeRow,
    update: async (changes: OfficeChanges): Promise<void> => {
      cache.clear();
      await x.run(orm.update(t.office).set(changes).where(eq(t.office.id, OFFICE_ID)));
      cache.clear();
    },
  };
}

export type OfficeRepo = ReturnType<typeof createOfficeRepo>;
