import type { Store } from '../store';

/**
 * The rows of `sealed_keys` (server/db/schema/keys.ts): sealed bytes by name. What they hold
 * and how they are sealed is server/secrets/database-key-store.ts's business; not a repository
 * of the context (`createRepos`), so no route's view reaches it.
 */
export function createSealedKeysRepo(x: Store) {
  const byName = x.sql<{ sealed: Buffer }>('SELECT sealed FROM sealed_keys WHERE name = ?');
  const insert = x.sql(
    'INSERT INTO sealed_keys (name, sealed, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
  );
  const upsert = x.sql(
    'INSERT INTO sealed_keys (name, sealed, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at',
  );
  const names = x.sql<{ name: string }>('SELECT name FROM sealed_keys');
  return {
    get: async (name: string): Promise<Buffer | undefined> => (await byName.get([name]))?.sealed,
    /** Whether this call stored it (false: a row of that name was there first). */
    insertIfAbsent: async (name: string, sealed: Buffer, now: number): Promise<boolean> =>
      (await insert.run([name, sealed, now])).changes === 1,
    put: async (name: string, sealed: Buffer, now: number): Promise<void> => {
      await upsert.run([name, sealed, now]);
    },
    /** Every name, sorted by code unit (as on both engines alike, whatever the collation). */
    names: async (): Promise<string[]> => (await names.all()).map((row) => row.name).sort(),
  };
}

export type SealedKeysRepo = ReturnType<typeof createSealedKeysRepo>;
