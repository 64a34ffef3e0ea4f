import { and, count, eq, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Db } from '../open-database';
import { parties } from '../schema';

export type PartyRow = typeof parties.$inferSelect;
export type NewParty = Omit<typeof parties.$inferInsert, 'id'>;
export type PartyChanges = Partial<
  Omit<NewParty, 'contractId' | 'createdAt' | 'createdBy' | 'signTokenHash' | 'signNonce' | 'signTokenSealed'>
>;

/** The nine `email_status` flags of a party, as their column names in the repository. */
export type EmailStatusFlags = Partial<
  Pick<
    PartyRow,
    | 'emailSent'
    | 'emailOpened'
    | 'emailClicked'
    | 'emailBounced'
    | 'emailHardbounced'
    | 'emailSoftbounced'
    | 'emailBlocked'
    | 'emailUnsub'
    | 'emailSpam'
  >
>;

const NEWEST_FIRST: SortKey<PartyRow>[] = [{ column: parties.id, isDescending: true, valueOf: (row) => row.id }];

export function createPartyRepo(db: Db) {
  const legacyLinks = db.$client.prepare<[], { id: number; token: string }>(
    'SELECT id, sign_token_hash AS token FROM parties WHERE sign_nonce IS NULL AND sign_token_sealed IS NULL',
  );
  const replaceLegacyLink = db.$client.prepare<[string, string, number]>(
    'UPDATE parties SET sign_token_hash = ?, sign_token_sealed = ? WHERE id = ?',
  );
  const inContract = db
    .select()
    .from(parties)
    .where(and(eq(parties.contractId, sql.placeholder('contractId')), eq(parties.id, sql.placeholder('id'))))
    .prepare();
  const byTokenHash = db
    .select()
    .from(parties)
    .where(eq(parties.signTokenHash, sql.placeholder('hash')))
    .prepare();
  const countIn = db
    .select({ n: count() })
    .from(parties)
    .where(eq(parties.contractId, sql.placeholder('contractId')))
    .prepare();

  return {
    /** Parties from before links were derived: their token kept in clear in sign_token_hash. */
    listLegacyLinkTokens: async (): Promise<{ id: number; token: string }[]> => legacyLinks.all(),
    replaceLegacyLinkToken: async (id: number, hash: string, sealed: string): Promise<void> => {
      replaceLegacyLink.run(hash, sealed, id);
    },
    findInContract: async (contractId: number, id: number): Promise<PartyRow | undefined> =>
      inContract.get({ contractId, id }),
    findById: async (id: number): Promise<PartyRow | undefined> =>
      db.select().from(parties).where(eq(parties.id, id)).get(),
    /** The party whose link token hashes to this (see link-tokens.ts). */
    findBySignTokenHash: async (hash: string): Promise<PartyRow | undefined> => byTokenHash.get({ hash }),
    insert: async (row: NewParty): Promise<PartyRow> => db.insert(parties).values(row).returning().get(),
    update: async (id: number, changes: PartyChanges): Promise<PartyRow | undefined> =>
      db.update(parties).set(changes).where(eq(parties.id, id)).returning().get(),
    /** Sets e-mail status flags (the outbox and the signing page); true flags stay true when not named. */
    /** False when no such party exists. */
    markEmailStatus: async (id: number, flags: EmailStatusFlags): Promise<boolean> => {
      if (Object.keys(flags).length === 0) return true;
      return db.update(parties).set(flags).where(eq(parties.id, id)).run().changes > 0;
    },
    /** A new link for the party: the old one stops working at once (links are found by their hash). */
    replaceLink: async (id: number, link: { hash: string; nonce: string }, now: number): Promise<void> => {
      db.update(parties)
        .set({ signTokenHash: link.hash, signNonce: link.nonce, signTokenSealed: null, updatedAt: now })
        .where(eq(parties.id, id))
        .run();
    },
    remove: async (id: number): Promise<boolean> => db.delete(parties).where(eq(parties.id, id)).run().changes > 0,
    countInContract: async (contractId: number): Promise<number> => countIn.get({ contractId })?.n ?? 0,
    maxSignOrder: async (contractId: number): Promise<number> =>
      db
        .select({ n: sql<number | null>`max(${parties.signOrder})` })
        .from(parties)
        .where(eq(parties.contractId, contractId))
        .get()?.n ?? 0,
    /** Every party of a contract in signing order (for sending and the signing page). */
    listInContract: async (contractId: number): Promise<PartyRow[]> =>
      db.select().from(parties).where(eq(parties.contractId, contractId)).orderBy(parties.signOrder, parties.id).all(),
    listPage: async (contractId: number, request: KeysetRequest): Promise<KeysetPage<PartyRow>> =>
      fetchKeysetPage(NEWEST_FIRST, request, eq(parties.contractId, contractId), (where, orderBy, limit) =>
        db
          .select()
          .from(parties)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .all(),
      ),
  };
}

export type PartyRepo = ReturnType<typeof createPartyRepo>;
