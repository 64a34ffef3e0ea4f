import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../open-database';
import { partyMarks } from '../schema';

export type PartyMarkRow = typeof partyMarks.$inferSelect;

/** The marks parties signed with (one per party, written in the acceptance's transaction). */
export function createPartyMarkRepo(db: Db) {
  return {
    save: async (row: PartyMarkRow): Promise<void> => {
      db.insert(partyMarks).values(row).onConflictDoUpdate({ target: partyMarks.partyId, set: row }).run();
    },
    listOf: async (partyIds: readonly number[]): Promise<PartyMarkRow[]> =>
      partyIds.length === 0
        ? []
        : db
            .select()
            .from(partyMarks)
            .where(inArray(partyMarks.partyId, [...partyIds]))
            .all(),
    find: async (partyId: number): Promise<PartyMarkRow | undefined> =>
      db.select().from(partyMarks).where(eq(partyMarks.partyId, partyId)).get(),
  };
}

export type PartyMarkRepo = ReturnType<typeof createPartyMarkRepo>;
