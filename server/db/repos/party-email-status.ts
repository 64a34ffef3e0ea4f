import type { AppContext } from '../../core/context';
import type { EmailStatusFlags } from './parties';

/** The nine `email_status` booleans of a party (ApiContractParty in the OpenAPI document). */
export const EMAIL_STATUS_FLAGS = [
  'sent',
  'opened',
  'clicked',
  'bounced',
  'hardbounced',
  'softbounced',
  'blocked',
  'unsub',
  'spam',
] as const;

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
export function markPartyEmailStatus(ctx: Pick<AppContext, 'repos'>, partyId: number, flags: PartyEmailFlags): boolean {
  const on: EmailStatusFlags = {};
  for (const flag of EMAIL_STATUS_FLAGS) if (flags[flag] === true) on[COLUMN[flag]] = true;
  return ctx.repos.parties.markEmailStatus(partyId, on);
}
