import type { KeysetPage, KeysetRequest } from './keyset';
import type { Db } from './open-database';
import {
  contractOrdering,
  createContractRepo,
  type ContractFilter,
  type ContractRow,
  type ContractSortTerm,
  type StatusCounts,
} from './repos/contracts';

/** A search list: one page and the total, both within the search's window. */
export type SearchList = { page: KeysetPage<ContractRow>; total: number };

/** What a search thread is asked (plain data: it crosses threads by structured clone). */
export type SearchTask =
  | { task: 'list'; request: KeysetRequest; filter: ContractFilter; sort: ContractSortTerm[] | undefined }
  | { task: 'counts'; filter: Omit<ContractFilter, 'status'> };
export type SearchRequest = SearchTask & { id: number };
export type SearchReply = { id: number; output?: SearchList | StatusCounts; error?: string };

/**
 * The searches' reads, the same on a search thread and on the request thread: the contract
 * repository's list, total and counts, whose search finds its window once for all three (it
 * keeps the last window while nothing is written).
 */
export function createSearchTasks(db: Db) {
  const contracts = createContractRepo(db);
  return {
    run(task: SearchTask): SearchList | StatusCounts {
      if (task.task === 'counts') return contracts.countByStatus(task.filter);
      const ordering = contractOrdering(task.sort, task.filter);
      return { page: contracts.listPage(task.request, task.filter, ordering), total: contracts.total(task.filter) };
    },
  };
}
