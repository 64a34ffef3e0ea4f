import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../open-database';
import { settings } from '../schema';

/** Saved settings by key; a missing key means "use the default". */
export function createSettingsRepo(db: Db) {
  return {
    get: (key: string): string | undefined => db.select().from(settings).where(eq(settings.key, key)).get()?.value,
    getMany: (keys: readonly string[]): Map<string, string> =>
      new Map(
        db
          .select()
          .from(settings)
          .where(inArray(settings.key, [...keys]))
          .all()
          .map((row) => [row.key, row.value]),
      ),
    set: (key: string, value: string, now: number): void => {
      db.insert(settings)
        .values({ key, value, updatedAt: now })
        .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } })
        .run();
    },
    remove: (key: string): void => {
      db.delete(settings).where(eq(settings.key, key)).run();
    },
  };
}

export type SettingsRepo = ReturnType<typeof createSettingsRepo>;
