import { partyPath } from '../../shared/api/paths';
import type { AppContext } from '../context/app-context';
import type { PartyRow } from '../db/repos/parties';
import { inTransaction } from '../db/open-database';
import { logActivity, type RequestOrigin } from '../activity/log-activity';

/**
 * Following the link opens the document: the first time, the party's opened time and an
 * activity entry; each time, `email_status.opened` and `clicked` when the link came by e-mail.
 */
export async function recordOpened(ctx: AppContext, party: PartyRow, origin: RequestOrigin): Promise<void> {
  await inTransaction(ctx.db, async () => {
    const contract = await ctx.repos.contracts.findById(party.contractId);
    if (!contract || contract.status === 'draft') return;
    const now = ctx.now();
    if (party.openedAt === null) {
      await ctx.repos.parties.update(party.id, { openedAt: now, updatedAt: now });
      await logActivity(ctx, {
        contractId: contract.id,
        event: 'party.opened',
        subject: partyPath(party),
        partyId: party.id,
        ...origin,
      });
    }
    // Invited by e-mail counts as much as the outbox's "sent": the party may follow the link
    // before the outbox has recorded the SMTP server's answer.
    const cameByEmail = party.emailSent || (party.invitedAt !== null && party.deliveryMethod.includes('EMAIL'));
    if (cameByEmail && !(party.emailOpened && party.emailClicked)) {
      await ctx.repos.parties.markEmailStatus(party.id, { emailOpened: true, emailClicked: true });
    }
  });
}
