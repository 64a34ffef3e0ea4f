import { eq, inArray } from 'drizzle-orm';
import type { Store } from '../store';
import type { partyMarks } from '../schema';

export type PartyMarkRow = typeof partyMarks.$inferSelect;

/** The marks parties signed with (one per party, written in the acceptance's transaction). */
export function createPartyMarkRepo(x: Store) {
  const { orm, t } = x;
  return {
    save: async (row: PartyMarkRow): Promise<void> => {
      await x.run(orm.insert(t.partyMarks).values(row).onConflictDoUpdate({ target: t.partyMarks.partyId, set: row }));
    },
    listOf: async (partyIds: readonly number[]): Promise<PartyMarkRow[]> =>
      partyIds.length === 0
        ? []
        : x.all(
            orm
              .select()
              .from(t.partyMarks)
              .where(inArray(t.partyMarks.partyId, [...partyIds])),
          ),
    find: async (partyId: number): Promise<PartyMarkRow | undefined> =>
      x.get(orm.select().from(t.partyMarks).where(eq(t.partyMarks.partyId, partyId))),
  };
}

export type PartyMarkRepo = ReturnType<typeof createPartyMarkRepo>;
