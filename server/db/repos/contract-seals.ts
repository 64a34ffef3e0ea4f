import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../open-database';
import { contractSeals } from '../schema';

export type ContractSealRow = typeof contractSeals.$inferSelect;
/** none | pending | signature | document (the API's timestamp_status). */
export type TimestampStatus = 'none' | 'pending' | 'signature' | 'document';

/** The evidence of each signed contract: sealed hash, printed chain head, timestamp state. */
export function createContractSealRepo(db: Db) {
  const byContract = db
    .select()
    .from(contractSeals)
    .where(eq(contractSeals.contractId, sql.placeholder('contractId')))
    .prepare();
  const credentialUrls = db.$client.prepare<[], { id: number; url: string }>(
    "SELECT contract_id AS id, tsa_url AS url FROM contract_seals WHERE tsa_url LIKE '%@%' OR tsa_url LIKE '%?%' OR tsa_url LIKE '%#%'",
  );
  const setTsaUrl = db.$client.prepare<[string, number]>('UPDATE contract_seals SET tsa_url = ? WHERE contract_id = ?');
  return {
    /** Seals whose authority URL may carry credentials (an @, a query or a fragment). */
    listTsaUrlsWithCredentials: async () => credentialUrls.all(),
    setTsaUrl: async (contractId: number, url: string): Promise<void> => {
      setTsaUrl.run(url, contractId);
    },
    find: async (contractId: number): Promise<ContractSealRow | undefined> => byContract.get({ contractId }),
    /** Contracts whose sealed PDF had exactly these bytes (SHA-256, hex). */
    findBySealedSha256: async (sha256: string): Promise<ContractSealRow[]> =>
      db.select().from(contractSeals).where(eq(contractSeals.sealedSha256, sha256)).all(),
    /** Contracts whose seal signed exactly these bytes (SHA-256 of its byte range, hex). */
    findBySealedContent: async (sha256: string): Promise<ContractSealRow[]> =>
      db.select().from(contractSeals).where(eq(contractSeals.sealedContentSha256, sha256)).all(),
    insert: async (row: typeof contractSeals.$inferInsert): Promise<void> => {
      db.insert(contractSeals).values(row).run();
    },
    update: async (contractId: number, changes: Partial<Omit<ContractSealRow, 'contractId'>>): Promise<void> => {
      db.update(contractSeals).set(changes).where(eq(contractSeals.contractId, contractId)).run();
    },
    countPending: async (): Promise<number> =>
      (
        db.$client.prepare("SELECT count(*) AS n FROM contract_seals WHERE timestamp_status = 'pending'").get() as {
          n: number;
        }
      ).n,
    pendingContractIds: async (): Promise<number[]> =>
      (
        db.$client.prepare("SELECT contract_id AS id FROM contract_seals WHERE timestamp_status = 'pending'").all() as {
          id: number;
        }[]
      ).map((row) => row.id),
    /** Contracts whose validation data (or archive timestamp) waits. */
    pendingLtvContractIds: async (): Promise<number[]> =>
      (
        db.$client.prepare("SELECT contract_id AS id FROM contract_seals WHERE ltv_status = 'pending'").all() as {
          id: number;
        }[]
      ).map((row) => row.id),
    /** The seal timestamped last, by the authority's time (this PC's clock may be the one that is off). */
    /** The last timestamp obtained; the authority's time has whole seconds, so the newer contract wins a tie. */
    latestTimestamped: async (): Promise<ContractSealRow | undefined> =>
      db
        .select()
        .from(contractSeals)
        .where(inArray(contractSeals.timestampStatus, ['signature', 'document']))
        .orderBy(desc(contractSeals.timestampTime), desc(contractSeals.contractId))
        .limit(1)
        .get(),
    /**
     * Timestamped contracts (an archive timestamp can go on them); with `due`, only those that have
     * none yet, or whose archive timestamp's certificate expires before `expiringBefore` and that
     * were not renewed since `renewedBefore`.
     */
    archivable: async (due?: { expiringBefore: number; renewedBefore: number }): Promise<number[]> =>
      (
        db.$client
          .prepare(
            `SELECT contract_id AS id FROM contract_seals WHERE timestamp_status IN ('signature', 'document')
             AND ltv_status != 'pending'
             AND (@expiringBefore IS NULL OR archive_expires_at IS NULL
               OR (archive_expires_at < @expiringBefore AND archive_time < @renewedBefore))`,
          )
          .all({ expiringBefore: due?.expiringBefore ?? null, renewedBefore: due?.renewedBefore ?? null }) as {
          id: number;
        }[]
      ).map((row) => row.id),
    /** How far a renewal begun at `since` has come: archive timestamps added since, those still pending, and their last errors. */
    renewalProgress: async (
      since: number,
    ): Promise<{ renewed: number; pending: number; errors: { contractId: number; error: string }[] }> => {
      const count = (sql: string) => (db.$client.prepare(sql).get(since) as { n: number }).n;
      return {
        renewed: count("SELECT count(*) AS n FROM contract_seals WHERE ltv_status = 'done' AND updated_at >= ?"),
        pending: count("SELECT count(*) AS n FROM contract_seals WHERE ltv_status = 'pending' AND ? IS NOT NULL"),
        errors: db.$client
          .prepare(
            "SELECT contract_id AS contractId, ltv_error AS error FROM contract_seals WHERE ltv_status = 'pending' AND ltv_error IS NOT NULL ORDER BY contract_id LIMIT 5",
          )
          .all() as { contractId: number; error: string }[],
      };
    },
    /** Whether a certificate (SHA-256, hex) ever sealed a contract here. */
    isSealCertificate: async (sha256: string): Promise<boolean> =>
      db.$client.prepare('SELECT 1 FROM contract_seals WHERE seal_certificate_sha256 = ? LIMIT 1').get(sha256) !==
      undefined,
    /** Signed contracts sealed before this table existed, which need a row (start-up). */
    signedWithout: async (): Promise<{ contractId: number; signedFileId: number; signedAt: number | null }[]> =>
      db.$client
        .prepare(
          `SELECT c.id AS contractId, c.signed_file_id AS signedFileId, c.signed_at AS signedAt FROM contracts c
           WHERE c.status = 'signed' AND c.signed_file_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM contract_seals s WHERE s.contract_id = c.id)`,
        )
        .all() as { contractId: number; signedFileId: number; signedAt: number | null }[],
  };
}

export type ContractSealRepo = ReturnType<typeof createContractSealRepo>;
