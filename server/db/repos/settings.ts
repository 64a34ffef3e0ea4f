import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../open-database';
import { settings } from '../schema';

/** Saved settings by key (general, messaging, …); a missing key means "use the default", usually the environment's. */
export function createSettingsRepo(db: Db) {
  // Read on many requests (a new contract's reminder defaults, among others): prepared once.
  const byKey = db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, sql.placeholder('key')))
    .prepare();
  return {
    get: async (key: string): Promise<string | undefined> => byKey.get({ key })?.value,
    getMany: async <K extends string>(keys: readonly K[]): Promise<Map<K, string>> =>
      new Map(
        db
          .select()
          .from(settings)
          .where(inArray(settings.key, [...keys]))
          .all()
          .map((row) => [row.key as K, row.value]),
      ),
    set: async (key: string, value: string, now: number): Promise<void> => {
      db.insert(settings)
        .values({ key, value, updatedAt: now })
        .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } })
        .run();
    },
    remove: async (key: string): Promise<void> => {
      db.delete(settings).where(eq(settings.key, key)).run();
    },
    /** null removes the key: back to the default. */
    write: async (key: string, value: string | null, now: number): Promise<void> => {
      if (value === null) db.delete(settings).where(eq(settings.key, key)).run();
      else
        db.insert(settings)
          .values({ key, value, updatedAt: now })
          .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } })
          .run();
    },
  };
}

export type SettingsRepo = ReturnType<typeof createSettingsRepo>;
