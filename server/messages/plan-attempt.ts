import type { OutboxRecipientRow } from '../db/schema';
import type { AttemptRecord } from '../db/repos/outbox';
import type { PartyEmailFlags } from '../db/repos/party-email-status';
import type { AttemptResult } from './attempt-result';

export type AttemptedMessage = {
  channel: string;
  recipients: OutboxRecipientRow[];
  /** Attempts of this round, the one just made included. */
  roundAttempts: number;
  sentAt: number | null;
  messageId: string | null;
};

export type AttemptPlan = {
  record: AttemptRecord;
  /** When to try again; undefined when the message is settled. */
  retryAt: number | undefined;
  /** email_status facts this attempt established (e-mail only). */
  partyFlags: PartyEmailFlags;
};

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function finalStateOf(recipients: readonly OutboxRecipientRow[]): string {
  if (recipients.some((recipient) => recipient.state === 'pending')) return 'queued';
  if (recipients.every((recipient) => recipient.state === 'sent')) return 'sent';
  if (recipients.some((recipient) => recipient.state === 'hardbounced' || recipient.state === 'softbounced'))
    return 'bounced';
  return 'failed';
}

/**
 * Decides, from one attempt's result, each address's new state, the message's state and when
 * (if ever) to try again. Pure, so that the retry and bounce rules are testable without a server.
 * `scheduleS[n]` is the delay after the (n+1)th failed attempt of a round; past its end the
 * addresses still pending are given up: a soft bounce when the SMTP server kept answering 4xx,
 * a failure when it could not be reached (or for SMS).
 */
export function planAfterAttempt(
  message: AttemptedMessage,
  result: AttemptResult,
  scheduleS: readonly number[],
  now: number,
): AttemptPlan {
  const isEmail = message.channel === 'email';
  const delayS = scheduleS[message.roundAttempts - 1];
  const isGivingUp = delayS === undefined;
  const flags: PartyEmailFlags = {};

  const recipients = message.recipients.map((recipient): OutboxRecipientRow => {
    if (recipient.state !== 'pending') return recipient;
    // An address the result does not mention was not decided on: like a deferral.
    const got = result.recipients.find((entry) => sameAddress(entry.address, recipient.address)) ?? {
      outcome: 'deferred' as const,
      response: null,
    };
    const response = got.response ?? recipient.response;
    switch (got.outcome) {
      case 'accepted':
        flags.sent = true;
        return { ...recipient, state: 'sent', response };
      case 'rejected-permanent':
        if (!isEmail) return { ...recipient, state: 'failed', response };
        flags.bounced = true;
        flags.hardbounced = true;
        return { ...recipient, state: 'hardbounced', response };
      case 'rejected-temporary':
        if (!isGivingUp) return { ...recipient, response };
        if (!isEmail) return { ...recipient, state: 'failed', response };
        flags.bounced = true;
        flags.softbounced = true;
        return { ...recipient, state: 'softbounced', response };
      case 'deferred':
        return isGivingUp ? { ...recipient, state: 'failed', response } : { ...recipient, response };
    }
  });

  const state = finalStateOf(recipients);
  const retryAt = state === 'queued' && delayS !== undefined ? now + Math.round(delayS * 1000) : undefined;
  return {
    record: {
      state,
      recipients,
      lastError: result.error,
      response: result.response,
      messageId: result.messageId ?? message.messageId,
      sentAt: message.sentAt ?? (flags.sent ? now : null),
      nextAttemptAt: retryAt ?? null,
    },
    retryAt,
    partyFlags: isEmail ? flags : {},
  };
}
