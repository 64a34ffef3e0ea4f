import { mapInOrder } from '../../server/core/in-order';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/index';
import { openOfflineContext } from '../../server/app/context-offline';
import { inTransaction } from '../../server/db/open-database';
import { enqueueMail } from '../../server/messages/mail/enqueue-mail';
import { enqueueSms } from '../../server/messages/sms/enqueue-sms';
import { testDatabaseEnv } from '../helpers/databases';
import { makeTempDir, startTestServer } from '../helpers/server';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `npm run server` as its own process, so that it can be killed without warning. */
async function startServerProcess(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...testDatabaseEnv(env.DATA_DIR!), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('SignDesk is running at')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it ran: ${stderr}`)));
  });
  return child;
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('outbox durability', () => {
  const children: ChildProcess[] = [];
  let smtp: SmtpReceiver | undefined;
  afterEach(async () => {
    await Promise.all(children.map(kill));
    await smtp?.close();
    smtp = undefined;
  });

  it('writes no message when the transaction that enqueued it throws', async () => {
    const t = await startTestServer();
    try {
      const { ctx } = t.server;
      await expect(
        inTransaction(ctx.db, async () => {
          await enqueueMail(ctx, {
            to: 'party@example.test',
            subject: 'Never',
            text: 'Never sent',
            purpose: 'invitation',
          });
          await enqueueSms(ctx, { to: '+46701234567', body: 'Never sent', purpose: 'invitation' });
          throw new Error('the state change failed after the messages were written');
        }),
      ).rejects.toThrow('the state change failed');
      expect((await t.api('GET', '/api/outbox')).body).toEqual([]);
      expect(await ctx.repos.jobs.countPending('outbox')).toBe(0);
      // A bad address aborts the caller's transaction the same way.
      await expect(
        inTransaction(ctx.db, async () =>
          enqueueMail(ctx, { to: 'no address here', subject: 'x', text: 'x', purpose: 'x' }),
        ),
      ).rejects.toThrow(/holds no e-mail address/);
      await expect(
        inTransaction(ctx.db, async () => enqueueSms(ctx, { to: 'call me', body: 'x', purpose: 'x' })),
      ).rejects.toThrow(/not a phone number/);
      expect(await ctx.repos.outbox.count()).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('delivers mail queued or in flight when the server was killed with SIGKILL, after a restart', async () => {
    const dataDir = makeTempDir();
    // A mail server that takes connections and never greets: attempts hang until their timeout.
    const openSockets = new Set<net.Socket>();
    const blackHole = net.createServer((socket) => void openSockets.add(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const port = (blackHole.address() as net.AddressInfo).port;
    const env = {
      DATA_DIR: dataDir,
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'office@example.test',
      OUTBOX_TIMEOUT_MS: '800',
      OUTBOX_RETRY_SCHEDULE_S: Array.from({ length: 60 }, () => '0.25').join(','),
    };
    const first = await startServerProcess(env);
    children.push(first);

    // Written from another process, as the CLI would: the server's worker finds them by polling.
    const offline = await openOfflineContext(
      loadConfig({ DATA_DIR: dataDir, ...testDatabaseEnv(dataDir) }),
      'unlocked',
    );
    try {
      const ids = await inTransaction(offline.ctx.db, async () =>
        mapInOrder([1, 2, 3, 4, 5], async (n) =>
          enqueueMail(offline.ctx, {
            to: `party${n}@example.test`,
            subject: `Survivor ${n}`,
            text: 'å ä ö',
            purpose: 'invitation',
          }),
        ),
      );
      const states = async () => mapInOrder(ids, async (id) => (await offline.ctx.repos.outbox.findById(id))?.state);
      // Four attempts hang (the worker's concurrency), the fifth message waits its turn: kill now.
      await expect
        .poll(states, { timeout: 15_000, interval: 20 })
        .toEqual(['sending', 'sending', 'sending', 'sending', 'queued']);
      await kill(first);
      // What the dead process left: attempts in flight and a message not yet tried.
      expect(await states()).toContain('sending');
      expect(await states()).toContain('queued');
      blackHole.close();
      for (const socket of openSockets) socket.destroy();

      smtp = await startSmtpReceiver({ port });
      children.push(await startServerProcess(env));
      const mails = await smtp.waitForMails(5, 20_000);
      expect(mails.map((mail) => mail.mail.subject).sort()).toEqual([
        'Survivor 1',
        'Survivor 2',
        'Survivor 3',
        'Survivor 4',
        'Survivor 5',
      ]);
      expect(mails.every((mail) => mail.mail.text?.trim() === 'å ä ö')).toBe(true);
      await expect.poll(states, { timeout: 10_000 }).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
      expect(smtp.mails).toHaveLength(5);
    } finally {
      await offline.close();
    }
  });
});
