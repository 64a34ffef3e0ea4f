import { eq } from 'drizzle-orm';
import type { Db } from '../open-database';
import { partyCodes } from '../schema';

export type PartyCodeRow = typeof partyCodes.$inferSelect;

export function createPartyCodeRepo(db: Db) {
  return {
    find: (partyId: number): PartyCodeRow | undefined =>
      db.select().from(partyCodes).where(eq(partyCodes.partyId, partyId)).get(),
    save: (row: PartyCodeRow): void => {
      db.insert(partyCodes).values(row).onConflictDoUpdate({ target: partyCodes.partyId, set: row }).run();
    },
    countFailure: (partyId: number): void => {
      const row = db.select().from(partyCodes).where(eq(partyCodes.partyId, partyId)).get();
      if (row)
        db.update(partyCodes)
          .set({ failedAttempts: row.failedAttempts + 1 })
          .where(eq(partyCodes.partyId, partyId))
          .run();
    },
    /** A code is good once: it is spent when it opens the document. */
    spend: (partyId: number, now: number): void => {
      db.update(partyCodes).set({ expiresAt: now }).where(eq(partyCodes.partyId, partyId)).run();
    },
  };
}

export type PartyCodeRepo = ReturnType<typeof createPartyCodeRepo>;
