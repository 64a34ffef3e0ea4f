import { eq } from 'drizzle-orm';
import type { Db } from '../open-database';
import { partyCodes } from '../schema';

export type PartyCodeRow = typeof partyCodes.$inferSelect;

export function createPartyCodeRepo(db: Db) {
  return {
    find: async (partyId: number): Promise<PartyCodeRow | undefined> =>
      db.select().from(partyCodes).where(eq(partyCodes.partyId, partyId)).get(),
    save: async (row: PartyCodeRow): Promise<void> => {
      db.insert(partyCodes).values(row).onConflictDoUpdate({ target: partyCodes.partyId, set: row }).run();
    },
    countFailure: async (partyId: number): Promise<void> => {
      const row = db.select().from(partyCodes).where(eq(partyCodes.partyId, partyId)).get();
      if (row)
        db.update(partyCodes)
          .set({ failedAttempts: row.failedAttempts + 1 })
          .where(eq(partyCodes.partyId, partyId))
          .run();
    },
    /** A code is good once: it is spent when it opens the document. */
    spend: async (partyId: number, now: number): Promise<void> => {
      db.update(partyCodes).set({ expiresAt: now }).where(eq(partyCodes.partyId, partyId)).run();
    },
  };
}

export type PartyCodeRepo = ReturnType<typeof createPartyCodeRepo>;
