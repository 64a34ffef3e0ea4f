import net from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

/** `session` names the SMTP connection that carried it (one per connection the server accepted). */
export type ReceivedMail = {
  envelopeFrom: string;
  envelopeTo: string[];
  raw: string;
  mail: ParsedMail;
  session: string;
};

/** An SMTP reply to refuse an address with, e.g. `{ code: 550, message: '5.1.1 No such user' }`. */
export type Refusal = { code: number; message: string };

export type SmtpReceiverOptions = {
  /** Listen here (to bring a "down" server back on the port it had); default any free port. */
  port?: number;
  /** Decides each RCPT TO; `attempt` counts the tries for that address, from 1. */
  onRcpt?: (address: string, attempt: number) => Refusal | undefined;
  /** Require this login (SMTP AUTH over the plain connection, as a local relay might). */
  auth?: { user: string; pass: string };
  /**
   * A slow server: called when a message's data has arrived, and the server answers (and counts
   * the mail as received) only once the promise resolves.
   */
  holdData?: (raw: string) => Promise<void>;
};

export type SmtpReceiver = {
  port: number;
  /** `smtp://127.0.0.1:<port>` (with the credentials when auth is set). */
  url: string;
  mails: ReceivedMail[];
  /** Every RCPT TO seen, refused or not. */
  rcptLog: string[];
  /** How many connections the server accepted. */
  connections(): number;
  waitForMails(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
};

/** A free TCP port on 127.0.0.1, released again: nothing listens there until someone does. */
export async function reservePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A real SMTP server (the `smtp-server` package) that parses what it gets with `mailparser`. */
export async function startSmtpReceiver(options: SmtpReceiverOptions = {}): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const rcptLog: string[] = [];
  const tries = new Map<string, number>();
  const waiters = new Set<() => void>();
  let connections = 0;

  const server = new SMTPServer({
    logger: false,
    closeTimeout: 100,
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onAuth(auth, _session, callback) {
      const isValid = auth.username === options.auth?.user && auth.password === options.auth?.pass;
      if (!isValid) {
        callback(Object.assign(new Error('5.7.8 Authentication failed'), { responseCode: 535 }));
        return;
      }
      callback(null, { user: auth.username });
    },
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const attempt = (tries.get(address.address) ?? 0) + 1;
      tries.set(address.address, attempt);
      rcptLog.push(address.address);
      const refusal = options.onRcpt?.(address.address, attempt);
      if (refusal) {
        callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        Promise.all([simpleParser(raw), options.holdData?.(raw)]).then(
          ([mail]) => {
            const from = session.envelope.mailFrom;
            mails.push({
              envelopeFrom: from === false ? '' : from.address,
              envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              raw,
              mail,
              session: session.id,
            });
            for (const wake of waiters) wake();
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as net.AddressInfo).port;
  const credentials = options.auth
    ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@`
    : '';

  return {
    port,
    url: `smtp://${credentials}127.0.0.1:${port}`,
    mails,
    rcptLog,
    connections: () => connections,
    waitForMails(count, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (mails.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(mails.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} mails, got ${mails.length} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
