import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import nodemailer from 'nodemailer';
import { describeNetworkError } from '../../net/describe-network-error';
import type { OutboundPolicy } from '../../net/outbound-policy';
import type { AttemptResult, RecipientOutcome } from '../attempt-result';
import { excerpt, resultForAll } from '../attempt-result';
import type { Mailbox } from './mail-address';

export type SmtpMail = {
  from: Mailbox;
  /** The To header as the message was written (names included), the same on every attempt. */
  toHeader: string;
  /** The envelope: the addresses this attempt goes to (the ones still pending). */
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  replyTo: string | null;
  /** Kept across attempts, so that a message sent twice after a crash can be recognised as one. */
  messageId: string;
  /** Signed with nodemailer's own DKIM when the office gave a key. */
  dkim?: { domainName: string; keySelector: string; privateKey: string } | undefined;
};

export type SmtpSender = {
  send(smtpUrl: string, mail: SmtpMail, signal: AbortSignal): Promise<AttemptResult>;
  close(): void;
};

type SmtpError = Error & {
  code?: string;
  command?: string;
  response?: string;
  responseCode?: number;
  recipient?: string;
  rejectedErrors?: SmtpError[];
};

type Transporter = ReturnType<typeof nodemailer.createTransport>;

/** A reply code's meaning for an address: 5xx refused for good, 4xx refused for now. */
function outcomeOfCode(code: number | undefined): RecipientOutcome {
  if (code !== undefined && code >= 500 && code < 600) return 'rejected-permanent';
  if (code !== undefined && code >= 400 && code < 500) return 'rejected-temporary';
  return 'deferred';
}

/** The server's reply when there was one; else what failed, without the addresses connection errors name. */
function describe(err: SmtpError): string {
  if (err.response) return excerpt(`${err.command ?? 'SMTP'}: ${err.response}`);
  const cause = (err as { cause?: unknown }).cause;
  const isConnection =
    err.code === 'ECONNECTION' ||
    err.code === 'ETIMEDOUT' ||
    err.code === 'EDNS' ||
    err.code === 'EOUTBOUNDPOLICY' ||
    err.code === 'ESOCKET';
  if (!isConnection) return excerpt(`${err.code ?? 'error'}: ${err.message}`);
  return excerpt(describeNetworkError(cause instanceof Error ? cause : err));
}

function resultOfFailure(to: readonly string[], err: SmtpError): AttemptResult {
  if (err.rejectedErrors && err.rejectedErrors.length > 0) {
    // Every recipient was refused at RCPT TO: each has its own reply.
    const rejected = err.rejectedErrors;
    return {
      recipients: to.map((address) => {
        const own = rejected.find((entry) => entry.recipient?.toLowerCase() === address.toLowerCase()) ?? err;
        return {
          address,
          outcome: outcomeOfCode(own.responseCode),
          response: own.response ? excerpt(own.response) : null,
        };
      }),
      response: err.response ? excerpt(err.response) : null,
      messageId: null,
      error: rejected
        .map((entry) => `${entry.recipient ?? '?'}: ${excerpt(entry.response ?? entry.message, 200)}`)
        .join('; '),
    };
  }
  // A refused message (after DATA) bounces; a refused sender, failed login, TLS problem, timeout
  // or dead connection says nothing about the recipients: try again later.
  const isAboutMessage = err.responseCode !== undefined && (err.command === 'DATA' || err.command === 'RCPT TO');
  const outcome = isAboutMessage ? outcomeOfCode(err.responseCode) : 'deferred';
  return resultForAll(to, outcome, describe(err), err.response ? excerpt(err.response) : null);
}

/**
 * The outbox's SMTP pool: up to four connections, each reused for up to 100 messages before it
 * is closed and opened afresh (servers limit the messages of one connection). Four stay well
 * under the connections a mail server allows one client (Postfix: 50) while the outbox keeps
 * them busy (server/messages/outbox-worker.ts sends OUTBOX_CONCURRENCY at once).
 */
export const SMTP_POOL = { maxConnections: 4, maxMessages: 100 } as const;

/**
 * Sends through nodemailer over SMTP. Pooled transports are kept per URL, so a changed setting
 * gets a new pool and the old one is closed.
 */
export function createSmtpSender(options: {
  timeoutMs: number;
  isPooled: boolean;
  policy: OutboundPolicy;
}): SmtpSender {
  let current: { url: string; transporter: Transporter } | undefined;

  const transporterFor = (url: string): Transporter => {
    if (current?.url === url) return current.transporter;
    current?.transporter.close();
    const transporter = nodemailer.createTransport({
      url,
      pool: options.isPooled,
      ...SMTP_POOL,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs * 4,
      // A pooled connection left idle is closed well before servers give up on it.
      idleTimeout: 30_000,
      disableFileAccess: true,
      disableUrlAccess: true,
      // We open the TCP connection ourselves, through the outbound address policy; nodemailer
      // speaks SMTP over it (and TLS, for smtps: and STARTTLS, verified against the URL's host).
      getSocket: (
        socketOptions: { host?: string; port?: number },
        callback: (error: Error | null, socket?: { connection: Socket }) => void,
      ) => {
        options.policy.connectSocket(String(socketOptions.host), Number(socketOptions.port), options.timeoutMs).then(
          (connection) => callback(null, { connection }),
          (error: Error) => callback(error),
        );
      },
      // `pool` is a boolean here, not the literal the overloads tell pooled and single transports by.
    } as Parameters<typeof nodemailer.createTransport>[0]);
    current = { url, transporter };
    return transporter;
  };

  return {
    async send(smtpUrl, mail, signal) {
      try {
        const info = await transporterFor(smtpUrl).sendMail({
          from: mail.from,
          to: mail.toHeader,
          envelope: { from: mail.from.address, to: mail.to },
          subject: mail.subject,
          text: mail.text,
          ...(mail.html === null ? {} : { html: mail.html }),
          ...(mail.replyTo === null ? {} : { replyTo: mail.replyTo }),
          messageId: mail.messageId,
          ...(mail.dkim ? { dkim: mail.dkim } : {}),
          // RFC 3834: tells autoresponders not to answer.
          headers: { 'Auto-Submitted': 'auto-generated' },
          disableFileAccess: true,
          disableUrlAccess: true,
          signal,
        });
        const rejected = ((info as { rejectedErrors?: SmtpError[] }).rejectedErrors ?? []).filter(
          (entry) => entry.recipient,
        );
        const response = typeof info.response === 'string' ? excerpt(info.response) : null;
        const recipients = mail.to.map((address) => {
          const refusal = rejected.find((entry) => entry.recipient?.toLowerCase() === address.toLowerCase());
          return refusal
            ? {
                address,
                outcome: outcomeOfCode(refusal.responseCode),
                response: excerpt(refusal.response ?? refusal.message),
              }
            : { address, outcome: 'accepted' as const, response };
        });
        const error =
          rejected.length > 0
            ? rejected.map((entry) => `${entry.recipient}: ${excerpt(entry.response ?? entry.message, 200)}`).join('; ')
            : null;
        return { recipients, response, messageId: info.messageId ?? mail.messageId, error };
      } catch (err) {
        return resultOfFailure(mail.to, err as SmtpError);
      }
    },
    close() {
      current?.transporter.close();
      current = undefined;
    },
  };
}

/** A Message-ID on the sender's domain, e.g. `<signdesk.12.k3J9…@example.com>`. */
export function makeMessageId(outboxId: number, fromAddress: string): string {
  const domain = fromAddress.split('@')[1] ?? 'signdesk.invalid';
  return `<signdesk.${outboxId}.${randomBytes(9).toString('base64url')}@${domain}>`;
}
