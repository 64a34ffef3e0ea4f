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
