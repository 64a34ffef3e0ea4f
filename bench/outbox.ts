/**
 * The outbox's cost over the bare parts it stands on, measured in one run:
 * - enqueue: enqueueMail in its own transaction (address parsing, message row, job row) against a
 *   bare autocommit INSERT into SQLite with the same pragmas;
 * - delivery: N mails from enqueue to `sent` through the worker and its pooled SMTP connections,
 *   against nodemailer's own pool (the same pool settings, SMTP_POOL) sending the same mails
 *   straight to the same local SMTP server with the same concurrency, in mails/s.
 * Run alone: npx tsx bench/outbox.ts [count]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { createServer, loadConfig } from '../server/index';
import { inTransaction } from '../server/db/open-database';
import { enqueueMail } from '../server/messages/mail/enqueue-mail';
import { renderMailLayout } from '../server/messages/mail/render-mail-layout';
import { SMTP_POOL } from '../server/messages/mail/smtp-sender';
import { OUTBOX_CONCURRENCY } from '../server/messages/outbox-worker';

const COUNT = Number(process.argv[2] ?? 1_000);

const layout = renderMailLayout({
  title: 'Avtal att skriva under',
  paragraphs: ['Hej Åsa,', 'Kontoret har skickat ett avtal till dig att läsa och skriva under.'],
  button: { label: 'Öppna avtalet', url: 'https://sign.example.test/sign/abcdefghijklmnopqrstuv' },
  footer: 'Skickat av Kontoret',
  language: 'sv',
});

function line(name: string, value: number, unit: string, baseline: number): void {
  console.log(
    `${name}: ${value.toFixed(0)} ${unit} (baseline ${baseline.toFixed(0)}, ratio ${(value / baseline).toFixed(2)})`,
  );
}

async function startSink(): Promise<{ url: string; received: () => number; close(): Promise<void> }> {
  let received = 0;
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    closeTimeout: 100,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        received += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function benchInsertBaseline(dir: string): number {
  const sqlite = new Database(path.join(dir, 'baseline.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.exec(
    'CREATE TABLE rows (id INTEGER PRIMARY KEY, recipient TEXT, subject TEXT, text TEXT, html TEXT, created_at INTEGER)',
  );
  const insert = sqlite.prepare('INSERT INTO rows (recipient, subject, text, html, created_at) VALUES (?, ?, ?, ?, ?)');
  const started = performance.now();
  for (let n = 0; n < COUNT; n += 1)
    insert.run(`party${n}@example.test`, 'Avtal', layout.text, layout.html, Date.now());
  const perSecond = COUNT / ((performance.now() - started) / 1000);
  sqlite.close();
  return perSecond;
}

async function benchDirectSend(url: string): Promise<number> {
  const transporter = nodemailer.createTransport({ url, pool: true, ...SMTP_POOL } as Parameters<
    typeof nodemailer.createTransport
  >[0]);
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < COUNT) {
      const n = next++;
      await transporter.sendMail({
        from: 'office@example.test',
        to: `party${n}@example.test`,
        subject: 'Avtal',
        text: layout.text,
        html: layout.html,
      });
    }
  };
  await Promise.all(Array.from({ length: OUTBOX_CONCURRENCY }, worker));
  const perSecond = COUNT / ((performance.now() - started) / 1000);
  transporter.close();
  return perSecond;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signdesk-bench-outbox-'));
  const sink = await startSink();
  const config = {
    ...loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent' }),
    smtpUrl: sink.url,
    mailFrom: 'office@example.test',
  };
  try {
    const insertBaseline = benchInsertBaseline(dir);
    const directSend = await benchDirectSend(sink.url);
    const before = sink.received();

    const server = await createServer(config);
    const { ctx } = server;
    const started = performance.now();
    for (let n = 0; n < COUNT; n += 1) {
      await inTransaction(ctx.db, async () =>
        enqueueMail(ctx, {
          to: `party${n}@example.test`,
          subject: 'Avtal',
          text: layout.text,
          html: layout.html,
          purpose: 'bench',
        }),
      );
    }
    const enqueued = performance.now();
    while ((await ctx.repos.outbox.countPending()) > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const delivered = performance.now();
    await server.close();
    if (sink.received() - before !== COUNT)
      throw new Error(`the sink got ${sink.received() - before} of ${COUNT} mails`);

    line('outbox enqueue', COUNT / ((enqueued - started) / 1000), 'mails/s', insertBaseline);
    // Enqueueing blocks the event loop, so the worker starts when it ends.
    line(
      'outbox delivery through a pooled SMTP connection',
      COUNT / ((delivered - enqueued) / 1000),
      'mails/s',
      directSend,
    );
  } finally {
    await sink.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
