import { partyPath } from '../../shared/api/paths';
import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import { APPLIANCE_ORIGIN, logActivity, type RequestOrigin } from '../activity/log-activity';
import { channelDetails, enqueuePartyMessage, type PartyMessageKind } from './party-messages';

/**
 * Invites (or reminds) parties: their message by delivery method, the time they were sent the
 * document (or last reminded), and an activity entry each saying how it went out. Call inside
 * the transaction of the change that causes it.
 */
export async function inviteParties(
  ctx: AppContext,
  contract: ContractRow,
  parties: readonly PartyRow[],
  kind: Extract<PartyMessageKind, 'invitation' | 'reminder'>,
  options: { isSilent?: boolean; origin?: RequestOrigin; userId?: number | null } = {},
): Promise<void> {
  const now = ctx.now();
  for (const party of parties) {
    const channels = options.isSilent ? [] : await enqueuePartyMessage(ctx, kind, contract, party);
    if (kind === 'invitation' && party.invitedAt === null)
      await ctx.repos.parties.update(party.id, { invitedAt: now, updatedAt: now });
    // A reminder by hand also spaces the automatic ones: the next comes an interval later.
    if (kind === 'reminder') await ctx.repos.parties.update(party.id, { lastRemindedAt: now, updatedAt: now });
    await logActivity(ctx, {
      contractId: contract.id,
      event: kind === 'invitation' ? 'party.invited' : 'party.reminded',
      subject: partyPath(party),
      userId: options.userId ?? null,
      details: options.isSilent ? { silent: true } : channelDetails(party, channels),
      time: now,
      ...(options.origin ?? APPLIANCE_ORIGIN),
    });
  }
}
