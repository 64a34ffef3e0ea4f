import type { TActivityEntry } from '../../shared/api/contracts';
import { partyPath } from '../../shared/api/paths';
import type { AppContext } from '../context/app-context';
import type { ActivityRow } from '../db/repos/activity-log';
import type { UserRow } from '../db/repos/users';
import { storedChainEntryOf } from './contract-chain';
import { PARTY_NAME_DETAIL, subjectPartyId } from './log-activity';

/** A user's name as people read it: their full name, else their username. */
export const userDisplayName = (user: Pick<UserRow, 'firstname' | 'lastname' | 'username'>) =>
  [user.firstname, user.lastname].filter(Boolean).join(' ').trim() || user.username;

/**
 * Presents a contract's log entries with their actors' names (each user and party looked up
 * once). The actor is the one the entry's hash covers (log-activity.ts actorPath); a party is
 * named as the entry recorded it (`details.party_name`), else (entries older than that) by its row.
 */
export async function activityPresenter(
  ctx: AppContext,
  contractId: number,
): Promise<(row: ActivityRow) => Promise<TActivityEntry>> {
  const parties = new Map((await ctx.repos.parties.listInContract(contractId)).map((party) => [party.id, party]));
  const userNames = new Map<number, string>();
  const userName = async (id: number) => {
    let name = userNames.get(id);
    if (name === undefined) {
      const user = await ctx.repos.users.findById(id);
      name = user ? userDisplayName(user) : '';
      userNames.set(id, name);
    }
    return name;
  };
  const namedAtTheTime = (row: ActivityRow): string | undefined => {
    if (row.partyId === null || subjectPartyId({ contractId, subject: row.subject }) !== row.partyId) return undefined;
    const details = JSON.parse(row.details) as Record<string, string>;
    return details[PARTY_NAME_DETAIL];
  };
  const actorOf = async (row: ActivityRow): Promise<Pick<TActivityEntry, 'actor_type' | 'actor' | 'actor_name'>> => {
    if (row.userId !== null)
      return { actor_type: 'user', actor: `/api/users/${row.userId}`, actor_name: await userName(row.userId) };
    if (row.partyId !== null) {
      return {
        actor_type: 'party',
        actor: partyPath({ contractId, id: row.partyId }),
        // The party as it was named when it acted; a party row may be someone else since.
        actor_name: namedAtTheTime(row) ?? parties.get(row.partyId)?.name ?? '',
      };
    }
    return { actor_type: 'appliance', actor: null, actor_name: 'SignDesk' };
  };
  return async (row) => {
    const entry = storedChainEntryOf(row);
    return {
      time: ctx.timestamp(row.createdAt),
      event: row.event,
      user_agent: row.userAgent,
      ip_address: row.ipAddress,
      sequence: entry.sequence,
      recorded_time: ctx.timestamp(row.createdAt),
      recorded_ms: Date.parse(entry.recordedTime),
      ...(await actorOf(row)),
      subject: row.subject,
      details: entry.details,
      previous_hash: entry.previousHash,
      hash: entry.hash,
    };
  };
}
