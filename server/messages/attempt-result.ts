/**
 * What one address got from one delivery attempt:
 * - `accepted`: the SMTP server or SMS gateway took it;
 * - `rejected-permanent`: refused for good (SMTP 5xx for the recipient or the message; gateway 3xx/4xx);
 * - `rejected-temporary`: refused for now by the SMTP server (4xx): a soft bounce once retries run out;
 * - `deferred`: nothing was decided about the address (server down, timeout, authentication or
 *   sender refused, gateway 5xx/429): retried, and a failure (not a bounce) once retries run out.
 */
export type RecipientOutcome = 'accepted' | 'rejected-permanent' | 'rejected-temporary' | 'deferred';

export type AttemptResult = {
  recipients: Array<{ address: string; outcome: RecipientOutcome; response: string | null }>;
  /** The server's reply to the message as a whole (SMTP final reply, gateway response excerpt). */
  response: string | null;
  messageId: string | null;
  /** Why the attempt did not deliver to every address; null when it did. */
  error: string | null;
};

/** The same outcome for every address, e.g. when the connection failed. */
export function resultForAll(
  addresses: readonly string[],
  outcome: RecipientOutcome,
  error: string | null,
  response: string | null = null,
): AttemptResult {
  return {
    recipients: addresses.map((address) => ({ address, outcome, response })),
    response,
    messageId: null,
    error,
  };
}

/** Keeps stored replies and errors short and on one line. */
export function excerpt(text: string, max = 500): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
