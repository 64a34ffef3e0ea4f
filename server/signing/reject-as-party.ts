import { partyPath } from '../../shared/api/paths';
import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import { inTransaction } from '../db/open-database';
import { notFound } from '../core/errors';
import { enqueueMail } from '../messages/mail/enqueue-mail';
import { renderMailLayout } from '../messages/mail/render-mail-layout';
import { logActivity, type RequestOrigin } from '../activity/log-activity';
import { recordEvent } from '../webhooks/record-event';
import { checkCanAnswer } from './party-access';
import { planReminders } from './plan-reminders';

/**
 * A party rejects with a cause: the contract is rejected for everyone. In one transaction with
 * the party's answer: the `rejected` state, `contract.rejected` and a notice to the contract's
 * author. The checks run inside the transaction, so a signing that committed first wins.
 */
export async function rejectAsParty(
  ctx: AppContext,
  partyId: number,
  cause: string,
  origin: RequestOrigin,
  authentication: string,
): Promise<ContractRow> {
  return inTransaction(ctx.db, async () => {
    const party = await ctx.repos.parties.findById(partyId);
    const contract = party ? await ctx.repos.contracts.findById(party.contractId) : undefined;
    if (!party || !contract) throw notFound('party');
    checkCanAnswer(ctx, contract, party, await ctx.repos.parties.listInContract(contract.id));
    const now = ctx.now();
    await ctx.repos.parties.update(party.id, {
      rejectCause: cause,
      rejectedAt: now,
      answerIpAddress: origin.ipAddress,
      answerUserAgent: origin.userAgent,
      answerAuthentication: authentication,
      openedAt: party.openedAt ?? now,
      updatedAt: now,
    });
    const rejected = await ctx.repos.contracts.changeStatus(contract, 'rejected', { rejectedAt: now, updatedAt: now });
    await logActivity(ctx, {
      contractId: contract.id,
      event: 'party.rejected',
      subject: partyPath(party),
      partyId: party.id,
      details: { cause, authentication },
      ...origin,
    });
    await logActivity(ctx, { contractId: contract.id, event: 'contract.rejected', userAgent: '', ipAddress: '' });
    await recordEvent(ctx, 'contract.rejected', { id: `/api/contracts/${contract.id}` });
    // Sent silently: the integrator learns of it from the contract.rejected webhook instead.
    if (!rejected.isSilent) await notifyAuthor(ctx, rejected, party, cause);
    return (await planReminders(ctx, contract.id)) ?? rejected;
  });
}

async function notifyAuthor(ctx: AppContext, contract: ContractRow, party: PartyRow, cause: string): Promise<void> {
  const author = await ctx.repos.users.findById(contract.createdBy);
  if (!author?.email) return;
  const isSwedish = contract.language === 'sv';
  const name = contract.name || (isSwedish ? 'Dokumentet' : 'The document');
  const layout = renderMailLayout({
    title: isSwedish ? `${name} har avvisats` : `${name} was rejected`,
    paragraphs: isSwedish
      ? [`${party.name} har avvisat ${name}.`, `Anledning: ${cause}`]
      : [`${party.name} rejected ${name}.`, `Reason: ${cause}`],
    button: {
      label: isSwedish ? 'Öppna i SignDesk' : 'Open in SignDesk',
      url: `${ctx.baseUrl()}/admin/contracts/${contract.id}`,
    },
    footer: 'SignDesk',
    language: isSwedish ? 'sv' : 'en',
  });
  await enqueueMail(ctx, {
    to: author.email,
    subject: isSwedish ? `Avvisat: ${name}` : `Rejected: ${name}`,
    text: layout.text,
    html: layout.html,
    purpose: 'rejected',
    contractId: contract.id,
  });
}
