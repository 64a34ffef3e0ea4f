import { storeOf } from '../../server/db/stores';
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FailureChoice, ServerFailure } from '../../main/failure';
import { HostStartError, type HostCrash } from '../../main/host-client';
import { choosePort, isPortFree } from '../../main/port';
import { createSupervisor } from '../../main/server-supervisor';
import type { ShellState } from '../../main/tray-status';
import { chooseWindowUrl } from '../../main/window-options';
import { openDatabase } from '../../server/db/open-database';
import { createJobRepo } from '../../server/db/repos/jobs';
import { createOutboxRepo } from '../../server/db/repos/outbox';
import { forkChannel, forkHost, HOST_SOURCE_ENTRY, isListening, type ForkedHost } from '../helpers/host-process';
import { expectAdminWindowSignsIn, prepareDataDir } from '../helpers/desktop-smoke';
import { makeTempDir } from '../helpers/server';

const DAY_MS = 86_400_000;

/** Jobs due tomorrow: no worker takes them before the shutdown, so all of them must survive it. */
async function enqueueFutureJobs(dataDir: string, counts: { webhook: number; outbox: number }): Promise<void> {
  const opened = openDatabase(path.join(dataDir, 'signdesk.sqlite'));
  try {
    const jobs = createJobRepo(storeOf(opened.db));
    const outbox = createOutboxRepo(storeOf(opened.db));
    const now = Date.now();
    for (let i = 0; i < counts.webhook; i++) await jobs.enqueue('webhook', 1_000 + i, now + DAY_MS, now);
    for (let i = 0; i < counts.outbox; i++) {
      const id = await outbox.insert({
        channel: 'email',
        recipient: 'later@office.test',
        recipients: [{ address: 'later@office.test', state: 'pending', response: null }],
        subject: 'Due tomorrow',
        text: 'Kept across the shutdown.',
        html: null,
        fromName: null,
        replyTo: null,
        purpose: 'test',
        contractId: null,
        partyId: null,
        state: 'queued',
        createdAt: now,
        updatedAt: now,
      });
      await jobs.enqueue('outbox', id, now + DAY_MS, now);
    }
  } finally {
    opened.sqlite.close();
  }
}

function inspectDatabase(dataDir: string) {
  const file = path.join(dataDir, 'signdesk.sqlite');
  const wal = `${file}-wal`;
  const walBytes = fs.existsSync(wal) ? fs.statSync(wal).size : 0;
  const opened = openDatabase(file);
  try {
    return {
      walBytes,
      integrity: opened.sqlite.pragma('integrity_check', { simple: true }),
      jobs: opened.sqlite
        // The queues this test fills; the server's own schedules (anchors, archive renewal) keep theirs.
        .prepare(
          "SELECT queue, count(*) AS n FROM jobs WHERE queue IN ('outbox', 'webhook') GROUP BY queue ORDER BY queue",
        )
        .all(),
      usernames: (
        opened.sqlite.prepare('SELECT username FROM users ORDER BY id').all() as Array<{ username: string }>
      ).map((row) => row.username),
    };
  } finally {
    opened.close();
  }
}

describe('the server host, started the way the desktop shell starts it', { timeout: 120_000 }, () => {
  const hosts: ForkedHost[] = [];
  const start = (env: Record<string, string>, readyTimeoutMs?: number) => {
    const host = forkHost({ env: { PORT: '0', ...env }, readyTimeoutMs });
    hosts.push(host);
    return host;
  };
  afterEach(() => {
    for (const host of hosts.splice(0))
      if (host.child.exitCode === null && host.child.signalCode === null) host.child.kill('SIGKILL');
  });

  it('reports ready with its address, answers status from the queues and the admin sign-in request', async () => {
    const { dataDir, key } = await prepareDataDir();
    await enqueueFutureJobs(dataDir, { webhook: 2, outbox: 1 });
    const host = start({ DATA_DIR: dataDir });

    const ready = await host.client.ready;
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready).toMatchObject({ dataDir, logsDir: path.join(dataDir, 'logs') });
    const users = await fetch(`${ready.url}/api/users`, {
      headers: { authorization: `token ${key}`, 'accept-api-version': '1' },
    });
    expect(users.status).toBe(200);

    expect(await host.client.status()).toEqual({
      url: ready.url,
      baseUrl: ready.url,
      publicBaseUrl: ready.url,
      queuedDeliveries: 2,
      outboxPending: 1,
    });
    await enqueueFutureJobs(dataDir, { webhook: 0, outbox: 3 });
    expect(await host.client.status()).toMatchObject({ queuedDeliveries: 2, outboxPending: 4 });

    // The window opens a one-time link that signs the administrator in to the built admin UI.
    const loginUrl = await host.client.adminLoginUrl();
    expect(chooseWindowUrl(ready.url, loginUrl)).toBe(loginUrl);
    await expectAdminWindowSignsIn(ready.url, loginUrl);

    expect(await host.client.shutdown(30_000)).toEqual({ code: 0, isKilled: false });
  });

  it('offers no sign-in link before the first administrator exists: the window opens first-run setup', async () => {
    const dataDir = makeTempDir('signdesk-fresh-');
    const host = start({ DATA_DIR: dataDir });
    const ready = await host.client.ready;
    expect(await host.client.adminLoginUrl()).toBeNull();
    expect(chooseWindowUrl(ready.url, null)).toBe(`${ready.url}/admin`);
    expect(await host.client.shutdown(30_000)).toEqual({ code: 0, isKilled: false });
  });

  it('shuts down with a request in flight and queued jobs: nothing lost, WAL checkpointed, database intact', async () => {
    const { dataDir, key } = await prepareDataDir();
    await enqueueFutureJobs(dataDir, { webhook: 3, outbox: 2 });
    const host = start({ DATA_DIR: dataDir });
    const { url } = await host.client.ready;

    // A create whose body is only half sent; `Expect: 100-continue` tells us when the server
    // has the request (a barrier, not a sleep).
    const body = JSON.stringify({
      username: 'in-flight',
      email: 'in-flight@office.test',
      permission_template: 'CUSTOMER_USER',
    });
    const request = http.request(`${url}/api/users`, {
      method: 'POST',
      headers: {
        authorization: `token ${key}`,
        'accept-api-version': '1',
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        expect: '100-continue',
      },
    });
    const response = new Promise<{ status: number; text: string; connection: string | undefined }>(
      (resolve, reject) => {
        request.on('response', (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text, connection: res.headers.connection }));
        });
        request.on('error', reject);
      },
    );
    await new Promise<void>((resolve) => request.once('continue', resolve));
    request.write(body.slice(0, 20));

    const shutdown = host.client.shutdown(30_000);
    await host.client.whenStopping();
    await expect.poll(() => isListening(url), { timeout: 10_000 }).toBe(false);
    expect(host.child.exitCode).toBeNull(); // still draining: our request holds it open

    request.end(body.slice(20));
    const answered = await response;
    expect(answered.status, answered.text).toBe(201);
    expect(JSON.parse(answered.text)).toMatchObject({ username: 'in-flight' });
    expect(answered.connection).toBe('close'); // the keep-alive connection does not hold the shutdown
    expect(await shutdown).toEqual({ code: 0, isKilled: false });

    const after = inspectDatabase(dataDir);
    expect(after.walBytes).toBe(0);
    expect(after.integrity).toBe('ok');
    expect(after.jobs).toEqual([
      { queue: 'outbox', n: 2 },
      { queue: 'webhook', n: 3 },
    ]);
    expect(after.usernames).toContain('in-flight');
  });

  it('closes cleanly on SIGTERM too (what Electron sends when it ends a utility process)', async () => {
    const { dataDir } = await prepareDataDir();
    const host = start({ DATA_DIR: dataDir });
    await host.client.ready;
    await enqueueFutureJobs(dataDir, { webhook: 1, outbox: 1 });
    const exited = new Promise<number | null>((resolve) => host.child.once('exit', (code) => resolve(code)));
    host.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const after = inspectDatabase(dataDir);
    expect(after).toMatchObject({ walBytes: 0, integrity: 'ok' });
    expect(after.jobs).toHaveLength(2);
  });

  it('says why it could not start (port taken) and where the logs are, and exits', async () => {
    const { dataDir } = await prepareDataDir();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as net.AddressInfo).port;
      const host = start({ DATA_DIR: dataDir, PORT: String(port) });
      const failure = await host.client.ready.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(HostStartError);
      expect((failure as HostStartError).message).toMatch(/already in use/);
      expect((failure as HostStartError).logsDir).toBe(path.join(dataDir, 'logs'));
      await expect.poll(() => host.child.exitCode).toBe(1);
    } finally {
      blocker.close();
    }
  });

  it('reports a server that dies after start as a crash, with the logs folder', async () => {
    const { dataDir } = await prepareDataDir();
    const host = start({ DATA_DIR: dataDir });
    await host.client.ready;
    const crash = new Promise<HostCrash>((resolve) => host.client.onCrash(resolve));
    host.child.kill('SIGKILL');
    expect(await crash).toEqual({ code: null, message: undefined, logsDir: path.join(dataDir, 'logs') });
    await expect(host.client.status()).rejects.toThrow(/exited/);
  });

  it('gives up on a process that never reports ready, and ends it', async () => {
    const dir = makeTempDir('signdesk-silent-');
    const entry = path.join(dir, 'silent.mjs');
    fs.writeFileSync(entry, 'setInterval(() => {}, 1000);\n');
    const host = forkHost({ entry, env: {}, readyTimeoutMs: 300 });
    hosts.push(host);
    await expect(host.client.ready).rejects.toThrow(/did not report ready/);
    await expect.poll(() => host.child.signalCode).toBe('SIGKILL');
  });

  it("the shell's supervisor shows a crash, restarts the server when asked, and stops it cleanly", async () => {
    const { dataDir } = await prepareDataDir();
    const children: ChildProcess[] = [];
    const states: ShellState[] = [];
    const windows: string[] = [];
    const failures: ServerFailure[] = [];
    const answers: FailureChoice[] = ['open-logs', 'restart'];
    const openedLogs: string[] = [];
    const supervisor = createSupervisor({
      dataDir,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', PORT: '0' },
      choosePort: () => choosePort({ PORT: '0' }, isPortFree),
      openChannel: (env) => {
        const child = fork(HOST_SOURCE_ENTRY, [], {
          execArgv: ['--import', 'tsx'],
          env,
          stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        });
        children.push(child);
        return forkChannel(child);
      },
      onState: (state) => states.push(state),
      onReady: (_ready, windowUrl) => windows.push(windowUrl),
      askAfterFailure: async (failure) => (failures.push(failure), answers.shift() ?? 'quit'),
      openLogsFolder: (dir) => openedLogs.push(dir),
      onGiveUp: () => states.push({ phase: 'failed', message: 'gave up' }),
      chooseWindowUrl,
      log: () => {},
      pollMs: 50,
    });
    try {
      await supervisor.start();
      expect(windows).toHaveLength(1);
      expect(windows[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/admin/);
      expect(states.at(-1)).toMatchObject({ phase: 'running', status: { queuedDeliveries: 0, outboxPending: 0 } });
      await enqueueFutureJobs(dataDir, { webhook: 1, outbox: 0 });
      await expect.poll(() => states.at(-1)).toMatchObject({ phase: 'running', status: { queuedDeliveries: 1 } });

      children[0]!.kill('SIGKILL');
      await expect.poll(() => windows.length, { timeout: 20_000 }).toBe(2);
      expect(failures).toEqual([
        { kind: 'crash', code: null, message: undefined, logsDir: path.join(dataDir, 'logs') },
        { kind: 'crash', code: null, message: undefined, logsDir: path.join(dataDir, 'logs') },
      ]);
      expect(openedLogs).toEqual([path.join(dataDir, 'logs')]);
      expect(states.map((state) => state.phase)).toContain('failed');
      expect(states.at(-1)).toMatchObject({ phase: 'running', status: { queuedDeliveries: 1 } });
      expect(await supervisor.status()).toMatchObject({ queuedDeliveries: 1 });
      // A window made anew gets a fresh sign-in link: the one it opened with is spent.
      const origin = new URL(windows[1]!).origin;
      await expectAdminWindowSignsIn(origin, windows[1]!);
      const fresh = await supervisor.windowUrl();
      expect(fresh).not.toBe(windows[1]);
      await expectAdminWindowSignsIn(origin, fresh ?? null);

      expect(await supervisor.stop(30_000)).toEqual({ code: 0, isKilled: false });
      expect(await supervisor.windowUrl()).toBeUndefined();
      expect(inspectDatabase(dataDir)).toMatchObject({
        walBytes: 0,
        integrity: 'ok',
        jobs: [{ queue: 'webhook', n: 1 }],
      });
    } finally {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it("the shell's supervisor reports a server that cannot start and gives up when the user quits", async () => {
    const { dataDir } = await prepareDataDir();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = String((blocker.address() as net.AddressInfo).port);
    const failures: ServerFailure[] = [];
    let gaveUp = false;
    const supervisor = createSupervisor({
      dataDir,
      env: { PATH: process.env.PATH ?? '' },
      choosePort: () => choosePort({ PORT: port }, isPortFree),
      openChannel: (env) =>
        forkChannel(
          fork(HOST_SOURCE_ENTRY, [], {
            execArgv: ['--import', 'tsx'],
            env,
            stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
          }),
        ),
      onState: () => {},
      onReady: () => {},
      askAfterFailure: async (failure) => (failures.push(failure), 'quit'),
      openLogsFolder: () => {},
      onGiveUp: () => (gaveUp = true),
      chooseWindowUrl,
      log: () => {},
    });
    try {
      await supervisor.start();
      expect(gaveUp).toBe(true);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatchObject({ kind: 'start', logsDir: path.join(dataDir, 'logs') });
      expect(failures[0]!.message).toMatch(/already in use/);
    } finally {
      blocker.close();
    }
  });
});
