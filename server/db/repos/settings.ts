import { eq, inArray, sql } from 'drizzle-orm';
import type { Store } from '../store';

/** Saved settings by key (general, messaging, …); a missing key means "use the default", usually the environment's. */
export function createSettingsRepo(x: Store) {
  const { orm, t } = x;
  // Read on many requests (a new contract's reminder defaults, among others): prepared once.
  const byKey = x.prepare<{ value: string }>((o, t) =>
    o
      .select({ value: t.settings.value })
      .from(t.settings)
      .where(eq(t.settings.key, sql.placeholder('key'))),
  );
  const upsert = (key: string, value: string, now: number) =>
    x.run(
      orm
        .insert(t.settings)
        .values({ key, value, updatedAt: now })
        .onConflictDoUpdate({ target: t.settings.key, set: { value, updatedAt: now } }),
    );
  const remove = (key: string) => x.run(orm.delete(t.settings).where(eq(t.settings.key, key)));
  return {
    get: async (key: string): Promise<string | undefined> => (await byKey.get({ key }))?.value,
    getMany: async <K extends string>(keys: readonly K[]): Promise<Map<K, string>> =>
      new Map(
        (
          await x.all<{ key: string; value: string }>(
            orm
              .select()
              .from(t.settings)
              .where(inArray(t.settings.key, [...keys])),
          )
        ).map((row) => [row.key as K, row.value]),
      ),
    set: async (key: string, value: string, now: number): Promise<void> => {
      await upsert(key, value, now);
    },
    remove: async (key: string): Promise<void> => {
      await remove(key);
    },
    /** null removes the key: back to the default. */
    write: async (key: string, value: string | null, now: number): Promise<void> => {
      await (value === null ? remove(key) : upsert(key, value, now));
    },
  };
}

export type SettingsRepo = ReturnType<typeof createSettingsRepo>;
