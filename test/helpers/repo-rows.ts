import { randomBytes } from 'node:crypto';
import type { Store } from '../../server/db/store';
import { createContractRepo, type ContractRow, type NewContract } from '../../server/db/repos/contracts';
import { createFileRepo } from '../../server/db/repos/files';
import { createPartyRepo, type NewParty, type PartyRow } from '../../server/db/repos/parties';

/**
 * Rows the repository tests of either dialect build on (test/unit/repos-*.test.ts): users through
 * the store's own tables (their repository is not what these tests are about), contracts and
 * parties through the repositories under test.
 */
export function repoRows(x: Store) {
  const contracts = createContractRepo(x);
  const parties = createPartyRepo(x);
  const files = createFileRepo(x);
  let partyCount = 0;

  return {
    async addUser(username: string): Promise<number> {
      const row = await x.get<{ id: number }>(
        x.orm
          .insert(x.t.users)
          .values({ username, email: `${username}@example.se`, permissionTemplate: 'CUSTOMER_USER', createdAt: 1 })
          .returning({ id: x.t.users.id }),
      );
      return row!.id;
    },
    /** A stored PDF of its own (distinct bytes per `seed`). */
    addPdf: (seed: string) => files.putFile(Buffer.from(`%PDF-1.7 ${seed}`), 'application/pdf', 1),
    contract: (createdBy: number, originalFileId: number, row: Partial<NewContract> = {}): NewContract => ({
      source: 'upload',
      originalFileId,
      pageSizes: '[[595,842]]',
      createdBy,
      createdAt: 10,
      updatedAt: 10,
      ...row,
    }),
    addContract(createdBy: number, originalFileId: number, row: Partial<NewContract> = {}): Promise<ContractRow> {
      return contracts.insert(this.contract(createdBy, originalFileId, row));
    },
    party: (contract: ContractRow, row: Partial<NewParty> = {}): NewParty => {
      partyCount += 1;
      return {
        contractId: contract.id,
        name: `Part ${partyCount}`,
        signTokenHash: `hash-${partyCount}`,
        signNonce: `nonce-${partyCount}`,
        createdBy: contract.createdBy,
        createdAt: 20,
        updatedAt: 20,
        ...row,
      };
    },
    addParty(contract: ContractRow, row: Partial<NewParty> = {}): Promise<PartyRow> {
      return parties.insert(this.party(contract, row));
    },
  };
}

/**
 * Rows the repositories' own tests stand on (a user, a contract), written through the Store as
 * a repository would, so that the same call makes them on SQLite and on PostgreSQL.
 */
export async function addUser(
  x: Store,
  username: string,
  fields: { permissionTemplate?: string; active?: boolean; createdAt?: number } = {},
): Promise<number> {
  const row = await x.get<{ id: number }>(
    x.orm
      .insert(x.t.users)
      .values({
        username,
        email: `${username}@office.test`,
        permissionTemplate: fields.permissionTemplate ?? 'CUSTOMER_ADMIN_USER',
        active: fields.active ?? true,
        createdAt: fields.createdAt ?? 1_000,
      })
      .returning({ id: x.t.users.id }),
  );
  return row!.id;
}

/** A draft contract over a stored file of its own; its id. */
export async function addContract(x: Store, createdBy: number, now = 1_000): Promise<number> {
  const file = await x.get<{ id: number }>(
    x.orm
      .insert(x.t.storedFiles)
      .values({
        sha256: randomBytes(32).toString('hex'),
        contentType: 'application/pdf',
        size: 4,
        data: Buffer.from('%PDF'),
        createdAt: now,
      })
      .returning({ id: x.t.storedFiles.id }),
  );
  const contract = await x.get<{ id: number }>(
    x.orm
      .insert(x.t.contracts)
      .values({
        source: 'upload',
        originalFileId: file!.id,
        pageSizes: '[]',
        createdBy,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: x.t.contracts.id }),
  );
  return contract!.id;
}
