import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * The shape of the outbox branch's helper of the same name (which parses with mailparser), so
 * that tests written against this one keep working when that one replaces it at merge.
 */
export type ReceivedMail = { envelopeFrom: string; envelopeTo: string[]; raw: string; mail: { subject?: string; text?: string } };

export type SmtpReceiver = {
  url: string;
  mails: ReceivedMail[];
  waitForMails(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
};

/** Unfolds the header block and decodes a single-part text body. */
function parseMessage(raw: string): { subject?: string; text?: string } {
  const end = raw.indexOf('\r\n\r\n');
  const headers = (end === -1 ? raw : raw.slice(0, end)).replace(/\r\n[ \t]+/g, ' ');
  let text = end === -1 ? '' : raw.slice(end + 4);
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    text = text.replace(/=\r\n/g, '').replace(/(=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'));
  } else if (/content-transfer-encoding:\s*base64/i.test(headers)) {
    text = Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { subject: /^subject:\s*(.*)$/im.exec(headers)?.[1]?.trim(), text: text.replace(/\r\n/g, '\n') };
}

/** A real SMTP server on a free port, keeping every message it accepts. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom;
        mails.push({
          envelopeFrom: from === false ? '' : from.address,
          envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          mail: parseMessage(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitForMails(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mails, got ${mails.length} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return mails.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
