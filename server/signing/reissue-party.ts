import { partyPath } from '../../shared/api/paths';
import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyChanges, PartyRow } from '../db/repos/parties';
import { logActivity, PARTY_NAME_DETAIL, type ActivityDetails, type RequestOrigin } from '../activity/log-activity';
import { newLinkToken } from '../secrets/link-tokens';
import { inviteParties } from './invite-parties';

const CLEAR_EMAIL_STATUS: PartyChanges = {
  emailSent: false,
  emailOpened: false,
  emailClicked: false,
  emailBounced: false,
  emailHardbounced: false,
  emailSoftbounced: false,
  emailBlocked: false,
  emailUnsub: false,
  emailSpam: false,
};

export type Reissue = {
  changes: PartyChanges;
  /** party.corrected (the office) or party.delegated (the party, from its link). */
  event: string;
  details: ActivityDetails;
  origin: RequestOrigin;
  /** Who acted: a user (a correction) or the party itself (a delegation). */
  userId?: number | null;
  partyId?: number | null;
};

/**
 * A party of a sent contract becomes someone else, or the same person reached elsewhere: the
 * changes, a new link (the old one stops working at once), the activity entry (which raises its
 * webhook event) and, for a party that was invited already, an invitation at the new address
 * unless the contract was sent silently. Call inside the transaction of the change.
 */
export async function reissueParty(
  ctx: AppContext,
  contract: ContractRow,
  party: PartyRow,
  reissue: Reissue,
): Promise<PartyRow> {
  // The new link has been neither sent nor opened: the times the audit page prints for the
  // party are those of the person it names now (the invitation below sets the sent time again).
  const changes: PartyChanges = { ...reissue.changes, openedAt: null, invitedAt: null };
  // What the old address's mail did (sent, opened, bounced) says nothing of the new one.
  if (changes.email !== undefined) Object.assign(changes, CLEAR_EMAIL_STATUS);
  const now = ctx.now();
  await ctx.repos.parties.update(party.id, { ...changes, updatedAt: now });
  await ctx.repos.parties.replaceLink(party.id, newLinkToken(ctx), now);
  await logActivity(ctx, {
    contractId: contract.id,
    event: reissue.event,
    subject: partyPath(party),
    userId: reissue.userId ?? null,
    partyId: reissue.partyId ?? null,
    // Who the party was when this was done: the delegator who handed over, the party corrected.
    details: { ...reissue.details, [PARTY_NAME_DETAIL]: party.name },
    time: now,
    ...reissue.origin,
  });
  const reissued = (await ctx.repos.parties.findById(party.id)) as PartyRow;
  if (party.invitedAt !== null) {
    await inviteParties(ctx, contract, [reissued], 'invitation', {
      isSilent: contract.isSilent,
      origin: reissue.origin,
      userId: reissue.userId ?? null,
    });
  }
  return reissued;
}
