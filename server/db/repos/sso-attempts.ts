import { eq, lt } from 'drizzle-orm';
import type { Store } from '../store';
import type { ssoAttempts } from '../schema';

export type SsoAttemptRow = typeof ssoAttempts.$inferSelect;
export type NewSsoAttempt = Omit<typeof ssoAttempts.$inferInsert, 'id'>;

/** Single sign-on attempts waiting for their callback (schema/sso.ts). */
export function createSsoAttemptRepo(x: Store) {
  const { orm, t } = x;
  return {
    insert: async (row: NewSsoAttempt): Promise<void> => {
      await x.run(orm.insert(t.ssoAttempts).values(row));
    },
    /**
     * The attempt of this state, deleted in the same statement: of two callbacks with one
     * state only one gets the row, so a state is used once whatever the outcome.
     */
    take: async (stateHash: string): Promise<SsoAttemptRow | undefined> =>
      x.get<SsoAttemptRow>(orm.delete(t.ssoAttempts).where(eq(t.ssoAttempts.stateHash, stateHash)).returning()),
    deleteExpired: async (now: number): Promise<void> => {
      await x.run(orm.delete(t.ssoAttempts).where(lt(t.ssoAttempts.expiresAt, now)));
    },
  };
}

export type SsoAttemptRepo = ReturnType<typeof createSsoAttemptRepo>;
