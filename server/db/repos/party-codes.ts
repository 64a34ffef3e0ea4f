import { eq, sql } from 'drizzle-orm';
import type { Store } from '../store';
import type { partyCodes } from '../schema';

export type PartyCodeRow = typeof partyCodes.$inferSelect;

export function createPartyCodeRepo(x: Store) {
  const { orm, t } = x;
  return {
    find: async (partyId: number): Promise<PartyCodeRow | undefined> =>
      x.get(orm.select().from(t.partyCodes).where(eq(t.partyCodes.partyId, partyId))),
    save: async (row: PartyCodeRow): Promise<void> => {
      await x.run(orm.insert(t.partyCodes).values(row).onConflictDoUpdate({ target: t.partyCodes.partyId, set: row }));
    },
    /** One more failed attempt (none is counted for a party without a code). */
    countFailure: async (partyId: number): Promise<void> => {
      await x.run(
        orm
          .update(t.partyCodes)
          .set({ failedAttempts: sql`${t.partyCodes.failedAttempts} + 1` })
          .where(eq(t.partyCodes.partyId, partyId)),
      );
    },
    /** A code is good once: it is spent when it opens the document. */
    spend: async (partyId: number, now: number): Promise<void> => {
      await x.run(orm.update(t.partyCodes).set({ expiresAt: now }).where(eq(t.partyCodes.partyId, partyId)));
    },
  };
}

export type PartyCodeRepo = ReturnType<typeof createPartyCodeRepo>;
