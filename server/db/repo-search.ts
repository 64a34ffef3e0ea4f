import type { SearchPool } from './search-pool';
import { contractOrdering, type ContractRepo } from './repos/contracts';

/**
 * Searches answered by the contract repository itself, on the request's own database
 * connection: PostgreSQL's, where the database server does the work (SQLite's run on worker
 * threads with connections of their own: search-pool.ts).
 */
export function createRepoSearch(contracts: () => ContractRepo): SearchPool {
  return {
    async list(request, filter, sort) {
      const repo = contracts();
      return {
        page: await repo.listPage(request, filter, contractOrdering(sort, filter)),
        total: await repo.total(filter),
        isPartial: await repo.isSearchPartial(filter),
      };
    },
    async counts(filter) {
      const repo = contracts();
      return { counts: await repo.countByStatus(filter), isPartial: await repo.isSearchPartial(filter) };
    },
    answeredByThreads: 0,
    close: async () => undefined,
  };
}
