import { and, count, eq, max, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Store } from '../store';
import type { parties } from '../schema';

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

export function createPartyRepo(x: Store) {
  const { orm, t } = x;
  const newestFirst: SortKey<PartyRow>[] = [{ column: t.parties.id, isDescending: true, valueOf: (row) => row.id }];
  const legacyLinks = x.sql<{ id: number; token: string }>(
    'SELECT id, sign_token_hash AS token FROM parties WHERE sign_nonce IS NULL AND sign_token_sealed IS NULL',
  );
  const replaceLegacyLink = x.sql('UPDATE parties SET sign_token_hash = ?, sign_token_sealed = ? WHERE id = ?');
  const inContract = x.prepare<PartyRow>((o, t) =>
    o
      .select()
      .from(t.parties)
      .where(and(eq(t.parties.contractId, sql.placeholder('contractId')), eq(t.parties.id, sql.placeholder('id')))),
  );
  const byTokenHash = x.prepare<PartyRow>((o, t) =>
    o
      .select()
      .from(t.parties)
      .where(eq(t.parties.signTokenHash, sql.placeholder('hash'))),
  );
  const countIn = x.prepare<{ n: number }>((o, t) =>
    o
      .select({ n: count() })
      .from(t.parties)
      .where(eq(t.parties.contractId, sql.placeholder('contractId'))),
  );

  return {
    /** Parties from before links were derived: their token kept in clear in sign_token_hash. */
    listLegacyLinkTokens: async (): Promise<{ id: number; token: string }[]> => legacyLinks.all(),
    replaceLegacyLinkToken: async (id: number, hash: string, sealed: string): Promise<void> => {
      await replaceLegacyLink.run([hash, sealed, id]);
    },
    findInContract: async (contractId: number, id: number): Promise<PartyRow | undefined> =>
      inContract.get({ contractId, id }),
    findById: async (id: number): Promise<PartyRow | undefined> =>
      x.get(orm.select().from(t.parties).where(eq(t.parties.id, id))),
    /** The party whose link token hashes to this (see link-tokens.ts). */
    findBySignTokenHash: async (hash: string): Promise<PartyRow | undefined> => byTokenHash.get({ hash }),
    insert: async (row: NewParty): Promise<PartyRow> =>
      (await x.get<PartyRow>(orm.insert(t.parties).values(row).returning()))!,
    update: async (id: number, changes: PartyChanges): Promise<PartyRow | undefined> =>
      x.get(orm.update(t.parties).set(changes).where(eq(t.parties.id, id)).returning()),
    /** Sets e-mail status flags (the outbox and the signing page); true flags stay true when not named. */
    /** False when no such party exists. */
    markEmailStatus: async (id: number, flags: EmailStatusFlags): Promise<boolean> => {
      if (Object.keys(flags).length === 0) return true;
      return (await x.run(orm.update(t.parties).set(flags).where(eq(t.parties.id, id)))).changes > 0;
    },
    /** A new link for the party: the old one stops working at once (links are found by their hash). */
    replaceLink: async (id: number, link: { hash: string; nonce: string }, now: number): Promise<void> => {
      await x.run(
        orm
          .update(t.parties)
          .set({ signTokenHash: link.hash, signNonce: link.nonce, signTokenSealed: null, updatedAt: now })
          .where(eq(t.parties.id, id)),
      );
    },
    remove: async (id: number): Promise<boolean> =>
      (await x.run(orm.delete(t.parties).where(eq(t.parties.id, id)))).changes > 0,
    countInContract: async (contractId: number): Promise<number> => (await countIn.get({ contractId }))?.n ?? 0,
    maxSignOrder: async (contractId: number): Promise<number> =>
      (
        await x.get<{ n: number | null }>(
          orm
            .select({ n: max(t.parties.signOrder) })
            .from(t.parties)
            .where(eq(t.parties.contractId, contractId)),
        )
      )?.n ?? 0,
    /** Every party of a contract in signing order (for sending and the signing page). */
    listInContract: async (contractId: number): Promise<PartyRow[]> =>
      x.all(
        orm
          .select()
          .from(t.parties)
          .where(eq(t.parties.contractId, contractId))
          .orderBy(t.parties.signOrder, t.parties.id),
      ),
    listPage: async (contractId: number, request: KeysetRequest): Promise<KeysetPage<PartyRow>> =>
      fetchKeysetPage(newestFirst, request, eq(t.parties.contractId, contractId), (where, orderBy, limit) =>
        x.all(
          orm
            .select()
            .from(t.parties)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit),
        ),
      ),
  };
}

export type PartyRepo = ReturnType<typeof createPartyRepo>;
