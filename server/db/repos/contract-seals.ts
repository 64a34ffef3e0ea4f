import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Store } from '../store';
import type { contractSeals } from '../schema';

export type ContractSealRow = typeof contractSeals.$inferSelect;
/** none | pending | signature | document (the API's timestamp_status). */
export type TimestampStatus = 'none' | 'pending' | 'signature' | 'document';

/** The evidence of each signed contract: sealed hash, printed chain head, timestamp state. */
export function createContractSealRepo(x: Store) {
  const { orm, t } = x;
  const byContract = x.prepare<ContractSealRow>((o, t) =>
    o
      .select()
      .from(t.contractSeals)
      .where(eq(t.contractSeals.contractId, sql.placeholder('contractId'))),
  );
  const credentialUrls = x.sql<{ id: number; url: string }>(
    "SELECT contract_id AS id, tsa_url AS url FROM contract_seals WHERE tsa_url LIKE '%@%' OR tsa_url LIKE '%?%' OR tsa_url LIKE '%#%'",
  );
  const setTsaUrl = x.sql('UPDATE contract_seals SET tsa_url = ? WHERE contract_id = ?');
  const countPending = x.sql<{ n: number }>(
    "SELECT count(*) AS n FROM contract_seals WHERE timestamp_status = 'pending'",
  );
  const pendingIds = x.sql<{ id: number }>(
    "SELECT contract_id AS id FROM contract_seals WHERE timestamp_status = 'pending'",
  );
  // The bounds are bigints: PostgreSQL cannot tell a parameter's type from `IS NULL` alone.
  const archivable = x.sql<{ id: number }>(
    `SELECT contract_id AS id FROM contract_seals WHERE timestamp_status IN ('signature', 'document')
     AND ltv_status != 'pending'
     AND (CAST(@expiringBefore AS bigint) IS NULL OR archive_expires_at IS NULL
       OR (archive_expires_at < CAST(@expiringBefore AS bigint) AND archive_time < CAST(@renewedBefore AS bigint)))`,
  );
  const renewedSince = x.sql<{ n: number }>(
    "SELECT count(*) AS n FROM contract_seals WHERE ltv_status = 'done' AND updated_at >= ?",
  );
  const ltvPending = x.sql<{ n: number }>("SELECT count(*) AS n FROM contract_seals WHERE ltv_status = 'pending'");
  const ltvErrors = x.sql<{ contractId: number; error: string }>(
    `SELECT contract_id AS "contractId", ltv_error AS error FROM contract_seals WHERE ltv_status = 'pending' AND ltv_error IS NOT NULL
     ORDER BY contract_id LIMIT 5`,
  );
  const sealedBy = x.sql('SELECT 1 AS one FROM contract_seals WHERE seal_certificate_sha256 = ? LIMIT 1');
  const signedWithout = x.sql<{ contractId: number; signedFileId: number; signedAt: number | null }>(
    `SELECT c.id AS "contractId", c.signed_file_id AS "signedFileId", c.signed_at AS "signedAt" FROM contracts c
     WHERE c.status = 'signed' AND c.signed_file_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM contract_seals s WHERE s.contract_id = c.id)`,
  );
  return {
    /** Seals whose authority URL may carry credentials (an @, a query or a fragment). */
    listTsaUrlsWithCredentials: async () => credentialUrls.all(),
    setTsaUrl: async (contractId: number, url: string): Promise<void> => {
      await setTsaUrl.run([url, contractId]);
    },
    find: async (contractId: number): Promise<ContractSealRow | undefined> => byContract.get({ contractId }),
    /** Contracts whose sealed PDF had exactly these bytes (SHA-256, hex). */
    findBySealedSha256: async (sha256: string): Promise<ContractSealRow[]> =>
      x.all(orm.select().from(t.contractSeals).where(eq(t.contractSeals.sealedSha256, sha256))),
    /** Contracts whose seal signed exactly these bytes (SHA-256 of its byte range, hex). */
    findBySealedContent: async (sha256: string): Promise<ContractSealRow[]> =>
      x.all(orm.select().from(t.contractSeals).where(eq(t.contractSeals.sealedContentSha256, sha256))),
    insert: async (row: typeof contractSeals.$inferInsert): Promise<void> => {
      await x.run(orm.insert(t.contractSeals).values(row));
    },
    update: async (contractId: number, changes: Partial<Omit<ContractSealRow, 'contractId'>>): Promise<void> => {
      await x.run(orm.update(t.contractSeals).set(changes).where(eq(t.contractSeals.contractId, contractId)));
    },
    countPending: async (): Promise<number> => (await countPending.get())?.n ?? 0,
    pendingContractIds: async (): Promise<number[]> => (await pendingIds.all()).map((row) => row.id),
    /** The seal timestamped last, by the authority's time (this PC's clock may be the one that is off). */
    /** The last timestamp obtained; the authority's time has whole seconds, so the newer contract wins a tie. */
    latestTimestamped: async (): Promise<ContractSealRow | undefined> =>
      x.get(
        orm
          .select()
          .from(t.contractSeals)
          .where(inArray(t.contractSeals.timestampStatus, ['signature', 'document']))
          // A seal without a time comes last, as SQLite orders NULL (PostgreSQL would put it first).
          .orderBy(sql`${t.contractSeals.timestampTime} DESC NULLS LAST`, desc(t.contractSeals.contractId))
          .limit(1),
      ),
    /**
     * Timestamped contracts (an archive timestamp can go on them); with `due`, only those that have
     * none yet, or whose archive timestamp's certificate expires before `expiringBefore` and that
     * were not renewed since `renewedBefore`.
     */
    archivable: async (due?: { expiringBefore: number; renewedBefore: number }): Promise<number[]> =>
      (
        await archivable.all({
          expiringBefore: due?.expiringBefore ?? null,
          renewedBefore: due?.renewedBefore ?? null,
        })
      ).map((row) => row.id),
    /** How far a renewal begun at `since` has come: archive timestamps added since, those still pending, and their last errors. */
    renewalProgress: async (
      since: number,
    ): Promise<{ renewed: number; pending: number; errors: { contractId: number; error: string }[] }> => ({
      renewed: (await renewedSince.get([since]))?.n ?? 0,
      pending: (await ltvPending.get())?.n ?? 0,
      errors: await ltvErrors.all(),
    }),
    /** Whether a certificate (SHA-256, hex) ever sealed a contract here. */
    isSealCertificate: async (sha256: string): Promise<boolean> => (await sealedBy.get([sha256])) !== undefined,
    /** Signed contracts sealed before this table existed, which need a row (start-up). */
    signedWithout: async (): Promise<{ contractId: number; signedFileId: number; signedAt: number | null }[]> =>
      signedWithout.all(),
  };
}

export type ContractSealRepo = ReturnType<typeof createContractSealRepo>;
