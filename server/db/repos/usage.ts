import type { Store } from '../store';

/** What a month's usage counts: contracts sent and SMS queued. */
export type UsageKind = 'sent' | 'sms';

const scopeOf = (kind: UsageKind, month: string) => `${kind}:${month}`;

/**
 * What the office used of its plan, for the subscription's limits. A month's contracts sent and
 * SMS are kept in `contract_counts` (scopes `sent:2026-12`, `sms:2026-12`), each added in the
 * transaction of the send or the SMS it counts, so a rolled-back send counts nothing; rows are
 * read by key. Active users are counted from `users` (a few dozen rows at most).
 */
export function createUsageRepo(x: Store) {
  // Both dialects accept the target's column qualified in the update (docs: porting-guide).
  const add = x.sql(
    'INSERT INTO contract_counts (scope, n) VALUES (?, ?) ON CONFLICT (scope) DO UPDATE SET n = contract_counts.n + excluded.n',
  );
  const countOf = x.sql<{ n: number }>('SELECT n FROM contract_counts WHERE scope = ?');
  const activeUsers = x.sql<{ n: number }>(
    'SELECT count(*) AS n FROM users WHERE active = TRUE AND deleted_at IS NULL',
  );
  return {
    /** Adds `n` to a month's count; call inside the transaction of what it counts. */
    add: async (kind: UsageKind, month: string, n = 1): Promise<void> => {
      await add.run([scopeOf(kind, month), n]);
    },
    /** A month's count (`YYYY-MM` in the office's time zone); 0 when nothing was counted. */
    monthCount: async (kind: UsageKind, month: string): Promise<number> =>
      Number((await countOf.get([scopeOf(kind, month)]))?.n ?? 0),
    /** Users who are active now (deleted ones never are): the seats in use. */
    activeUsers: async (): Promise<number> => Number((await activeUsers.get())?.n ?? 0),
  };
}

export type UsageRepo = ReturnType<typeof createUsageRepo>;
