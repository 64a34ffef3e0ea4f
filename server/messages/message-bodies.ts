import type { AppContext } from '../context/app-context';
import { isSealed } from '../crypto/app-secret';

/**
 * Mail and SMS subjects and bodies carry signing links and one-time codes (a code's mail has it
 * in the subject): the outbox keeps them sealed under the app secret, so the database alone
 * reveals neither. Text stored before sealing began is plain (sealed at start-up,
 * sealSecretsAtRest) and read as it is.
 */
const PURPOSE = 'outbox-body';

export const sealBody = (ctx: AppContext, text: string): string => ctx.secret.seal(PURPOSE, text);

const sealOptional = (ctx: AppContext, text: string | null): string | null =>
  text === null ? null : sealBody(ctx, text);

/** The text as written, or undefined when it was sealed under another installation's key. */
export function openBody(ctx: Pick<AppContext, 'secret'>, stored: string): string | undefined {
  return isSealed(stored) ? ctx.secret.open(PURPOSE, stored) : stored;
}

type MessageTexts = { subject: string | null; text: string; html: string | null };

/** A message's subject and bodies as the outbox stores them. */
export function sealMessageTexts(
  ctx: AppContext,
  message: { subject?: string | null; text: string; html?: string | null },
): MessageTexts {
  return {
    subject: sealOptional(ctx, message.subject ?? null),
    text: sealBody(ctx, message.text),
    html: sealOptional(ctx, message.html ?? null),
  };
}

/** A stored message's subject and bodies, or undefined when this installation's key cannot open them. */
export function openMessageTexts(ctx: AppContext, row: MessageTexts): MessageTexts | undefined {
  const subject = row.subject === null ? null : openBody(ctx, row.subject);
  const text = openBody(ctx, row.text);
  const html = row.html === null ? null : openBody(ctx, row.html);
  return subject === undefined || text === undefined || html === undefined ? undefined : { subject, text, html };
}
