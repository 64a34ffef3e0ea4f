import type { AppContext } from '../../context/app-context';
import { monthOfTimestamp } from '../../../shared/plan-rules';
import { inTransaction } from '../../db/open-database';
import { queueOutboxMessage } from '../queue-message';

export type OutgoingSms = { to: string; body: string; purpose: string; contractId?: number; partyId?: number };

/** E.164 allows at most 15 digits. */
const PHONE_PATTERN = /^\+?[0-9]{5,15}$/;
const MAX_BODY_CHARS = 10_000;

/** `+46 70-123 45 67` -> `+46701234567`: the gateway gets digits with an optional leading +. */
export function normalizePhoneNumber(text: string): string | undefined {
  const compact = text.replace(/[\s\-().]/g, '').replace(/^00/, '+');
  return PHONE_PATTERN.test(compact) ? compact : undefined;
}

/**
 * Call inside the caller's transaction; the outbox worker posts it to the SMS gateway after
 * commit. Throws (rolling the caller's transaction back) for a number that is no phone number.
 * Each SMS counts in its calendar month's usage of the office's plan (`sms_per_month`), in the
 * same transaction; whether the plan allows it is the office request's question
 * (subscription/allowance.ts), never the party's.
 */
export async function enqueueSms(ctx: AppContext, sms: OutgoingSms): Promise<number> {
  const to = normalizePhoneNumber(sms.to);
  if (to === undefined) throw new Error(`enqueueSms: "${sms.to}" is not a phone number`);
  if (sms.body.length > MAX_BODY_CHARS) throw new Error('enqueueSms: the body is too large');
  return inTransaction(ctx.db, async () => {
    const id = await queueSms(ctx, to, sms);
    await ctx.repos.usage.add('sms', monthOfTimestamp(ctx.timestamp(ctx.now())));
    return id;
  });
}

function queueSms(ctx: AppContext, to: string, sms: OutgoingSms): Promise<number> {
  return queueOutboxMessage(ctx, {
    channel: 'sms',
    recipient: to,
    recipients: [{ address: to, state: 'pending', response: null }],
    subject: null,
    text: sms.body,
    html: null,
    fromName: null,
    replyTo: null,
    purpose: sms.purpose,
    contractId: sms.contractId ?? null,
    partyId: sms.partyId ?? null,
  });
}
