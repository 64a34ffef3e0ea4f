import type { TActivityEntry, TContract } from '../../../shared/api/contracts';
import type { TAttachment } from '../../../shared/api/attachments';
import type { TParty } from '../../../shared/api/parties';
import type { TContractRole } from '../../../shared/api/contract-roles';
import { getJson, getPage, idOf } from '../../lib/api';
import { contractStatus, type ContractStatus } from '../../lib/contract-status';
import { describeParties, type Channels, type PartyView } from '../../lib/party-state';
import { useLoad, type Loaded } from '../../lib/use-load';

/** While the page is open, what a party does shows within this long. */
const POLL_MS = 3000;

/** Everything of a list: contract sub-lists are short, so all pages are read. */
export async function readAll<T>(path: string, signal: AbortSignal): Promise<T[]> {
  const items: T[] = [];
  let next: string | undefined = `${path}?per_page=100`;
  for (let guard = 0; next && guard < 20; guard += 1) {
    const page: Awaited<ReturnType<typeof getPage<T>>> = await getPage<T>(next, signal);
    items.push(...page.items);
    next = page.next;
  }
  return items;
}

export type ContractData = {
  path: string;
  contract: Loaded<TContract>;
  parties: Loaded<TParty[]>;
  log: Loaded<TActivityEntry[]>;
  attachments: Loaded<TAttachment[]>;
  /** The roles of a contract made from a PDF template (none otherwise). */
  roles: Loaded<TContractRole[]>;
  /** Reloads what an action may have changed. */
  reload: () => Promise<void>;
};

/** One contract with its parties and activity log, kept live by polling while the page is visible. */
export function useContract(id: string): ContractData {
  const path = `/api/contracts/${id}`;
  const contract = useLoad((signal) => getJson<TContract>(path, signal), [path], { pollMs: POLL_MS });
  const parties = useLoad((signal) => readAll<TParty>(`${path}/parties`, signal), [path], { pollMs: POLL_MS });
  const log = useLoad((signal) => readAll<TActivityEntry>(`${path}/activity_log`, signal), [path], { pollMs: POLL_MS });
  const attachments = useLoad((signal) => readAll<TAttachment>(`${path}/attachments`, signal).catch(() => []), [path]);
  const roles = useLoad((signal) => getJson<TContractRole[]>(`${path}/roles`, signal).catch(() => []), [path], {
    pollMs: POLL_MS,
  });
  const reload = async () => {
    await Promise.all([contract.reload(), parties.reload(), log.reload(), attachments.reload(), roles.reload()]);
  };
  return { path, contract, parties, log, attachments, roles, reload };
}

export type ContractView = {
  contract: TContract;
  status: ContractStatus;
  views: PartyView[];
  /** When the links closed, if they have. */
  expiredAt: string | undefined;
  /** Who withdrew the contract (the activity log's actor), if it was. */
  withdrawnBy: string | undefined;
};

/** The contract as the page shows it: its status (expired too) and where each party stands. */
export function viewContract(
  contract: TContract,
  parties: TParty[],
  log: TActivityEntry[],
  channels?: Channels,
): ContractView {
  const isExpired = log.some((entry) => entry.event === 'contract.expired');
  const status = contractStatus(contract, isExpired);
  // In the order they sign, then as they were added (the API lists newest first).
  const ordered = [...parties].sort(
    (a, b) => a.sign_order - b.sign_order || Number(idOf(a.self)) - Number(idOf(b.self)),
  );
  const views = describeParties(ordered, status, contract.party_order_defined, channels);
  const withdrawal = log.find((entry) => entry.event === 'contract.withdrawn');
  return {
    contract,
    status,
    views,
    expiredAt: isExpired ? (contract.expire_time ?? undefined) : undefined,
    withdrawnBy: withdrawal?.actor_name || undefined,
  };
}
