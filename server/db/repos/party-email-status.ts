import { EMAIL_STATUS_FLAGS } from '../../../shared/api/parties';
import type { Repos } from './index';
import type { EmailStatusFlags } from './parties';

/** One of the nine `email_status` booleans of a party (the shared schema lists them). */
export type EmailStatusFlag = (typeof EMAIL_STATUS_FLAGS)[number];
export type PartyEmailFlags = Partial<Record<EmailStatusFlag, boolean>>;

const COLUMN: Record<EmailStatusFlag, keyof EmailStatusFlags> = {
  sent: 'emailSent',
  opened: 'emailOpened',
  clicked: 'emailClicked',
  bounced: 'emailBounced',
  hardbounced: 'emailHardbounced',
  softbounced: 'emailSoftbounced',
  blocked: 'emailBlocked',
  unsub: 'emailUnsub',
  spam: 'emailSpam',
};

/**
 * Turns on the given `email_status` flags of a party; flags are facts that happened (a mail was
 * sent, a bounce came back), so none is ever turned off here. Call it inside the transaction
 * that records the message's outcome. Returns false when no such party exists.
 */
export async function markPartyEmailStatus(
  ctx: { repos: Pick<Repos, 'parties'> },
  partyId: number,
  flags: PartyEmailFlags,
): Promise<boolean> {
  const on: EmailStatusFlags = {};
  for (const flag of EMAIL_STATUS_FLAGS) if (flags[flag] === true) on[COLUMN[flag]] = true;
  return ctx.repos.parties.markEmailStatus(partyId, on);
}
