import type { KeysetPage, KeysetRequest } from './keyset';
import {
  contractOrdering,
  createContractRepo,
  type ContractFilter,
  type ContractRow,
  type ContractSortTerm,
  type StatusCounts,
} from './repos/contracts';
import type { Store } from './store';

/** A search list: one page and the total, both within the search's window, and whether that window may leave matches out. */
export type SearchList = { page: KeysetPage<ContractRow>; total: number; isPartial: boolean };
/** A search's counts per status, within its window, and whether that window may leave matches out. */
export type SearchCounts = { counts: StatusCounts; isPartial: boolean };

/** What a search thread is asked (plain data: it crosses threads by structured clone). */
export type SearchTask =
  | { task: 'list'; request: KeysetRequest; filter: ContractFilter; sort: ContractSortTerm[] | undefined }
  | { task: 'counts'; filter: Omit<ContractFilter, 'status'> };
export type SearchRequest = SearchTask & { id: number };
export type SearchReply = { id: number; output?: SearchList | SearchCounts; error?: string };

/**
 * The searches' reads, the same on a search thread and on the request thread: the contract
 * repository's list, total and counts, whose search finds its window once for all three (it
 * keeps the last window while nothing is written).
 */
export function createSearchTasks(x: Store) {
  // On the request thread each read takes its turn on the shared connection (the store's, database.ts).
  const contracts = createContractRepo(x);
  return {
    async run(task: SearchTask): Promise<SearchList | SearchCounts> {
      const isPartial = await contracts.isSearchPartial(task.filter);
      if (task.task === 'counts') return { counts: await contracts.countByStatus(task.filter), isPartial };
      const ordering = contractOrdering(task.sort, task.filter);
      return {
        page: await contracts.listPage(task.request, task.filter, ordering),
        total: await contracts.total(task.filter),
        isPartial,
      };
    },
  };
}
