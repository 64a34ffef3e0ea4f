import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAdminAndKey, makeTempDir } from '../helpers/server';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { makeSelfSigned, type PemPair } from '../helpers/test-certs';

/** File handles the server may hold, as a service manager may set them: the flood of 600 would use them all up. */
const MAX_OPEN_FILES = 400;
const SOURCES = ['127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'];
const PER_SOURCE = 120;
const BATCH = 50;

/**
 * A connection that sends the first 3 bytes of a TLS ClientHello and then nothing, as the
 * review's flood did; resolves once it is connected (or refused).
 */
function halfOpen(port: number, localAddress: string, open: Set<net.Socket>): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    open.add(socket);
    socket.once('connect', () => {
      socket.write(Buffer.from([0x16, 0x03, 0x01]));
      resolve();
    });
    socket.on('error', () => resolve());
    socket.once('close', () => {
      open.delete(socket);
      resolve();
    });
  });
}

/** A GET on a connection of its own (no keep-alive pool), as a browser opening the admin UI anew would make. */
function freshGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers: { ...headers, connection: 'close' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      })
      .on('error', reject);
  });
}

function healthOverTls(url: string, ca: string): Promise<number> {
  return new Promise((resolve, reject) => {
    https
      .get(`${url}/healthz`, { ca, agent: false, servername: 'localhost' }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

describe('a flood of half-open TLS connections to the public port', { timeout: 240_000 }, () => {
  const dataDir = makeTempDir();
  const open = new Set<net.Socket>();
  let server: ServerProcess;
  let key: string;
  let pair: PemPair;

  beforeAll(async () => {
    const certs = makeTempDir('signdesk-flood-certs-');
    pair = makeSelfSigned(certs, 'localhost');
    fs.writeFileSync(path.join(certs, 'cert.pem'), pair.cert);
    fs.writeFileSync(path.join(certs, 'key.pem'), pair.key);
    key = await makeAdminAndKey(dataDir, 'flood');
    server = await startServerProcess({
      dataDir,
      maxOpenFiles: MAX_OPEN_FILES,
      env: {
        PUBLIC_PORT: '0',
        PUBLIC_HOST: '127.0.0.1',
        PUBLIC_TLS_CERT: path.join(certs, 'cert.pem'),
        PUBLIC_TLS_KEY: path.join(certs, 'key.pem'),
      },
    });
  });
  afterAll(async () => {
    for (const socket of open) socket.destroy();
    await server?.stop();
  });

  const officeAnswers = async () => {
    const users = await freshGet(`${server.url}/api/users`, {
      authorization: `token ${key}`,
      'accept-api-version': '1',
    });
    const admin = await freshGet(`${server.url}/admin/`);
    return { api: users.status, adminUi: admin.status, adminHtml: admin.body.includes('<div id="root">') };
  };
  const log = () => fs.readFileSync(path.join(dataDir, 'logs', 'signdesk.log'), 'utf8');

  const warnings = (cap: string) =>
    log()
      .split('\n')
      .filter((line) => line.includes('"cap":"' + cap + '"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('keeps the office API and admin UI answering, logs the cap in all biting, and closes what stalls', async () => {
    const port = Number(new URL(server.publicUrl!).port);
    expect(await officeAnswers()).toEqual({ api: 200, adminUi: 200, adminHtml: true });
    // 600 connections from five addresses in turn, fifty at a time; the office is asked between batches.
    const sources = Array.from({ length: PER_SOURCE }, () => SOURCES).flat();
    for (let start = 0; start < sources.length; start += BATCH) {
      await Promise.all(sources.slice(start, start + BATCH).map((source) => halfOpen(port, source, open)));
      expect(await officeAnswers()).toEqual({ api: 200, adminUi: 200, adminHtml: true });
    }
    // The cap in all bit (a quarter of the process's file handles), and one warning says so.
    await expect.poll(() => warnings('total').length).toBeGreaterThan(0);
    expect(warnings('total')[0]).toMatchObject({ level: 40, listener: 'party listener', limit: MAX_OPEN_FILES / 4 });
    expect(warnings('total')[0]!.msg).toMatch(/refused \d+ connection\(s\) over its cap of 100 connections in all/);
    expect(server.openFiles()).toBeLessThan(MAX_OPEN_FILES - 100);
    expect(await officeAnswers()).toEqual({ api: 200, adminUi: 200, adminHtml: true });

    // A handshake that stalls is ended by the server (10 s), and parties get in again.
    await expect.poll(() => open.size, { timeout: 60_000, interval: 500 }).toBe(0);
    expect(await healthOverTls(server.publicUrl!, pair.cert)).toBe(200);
  });

  it('takes at most 32 connections from one address, and says which address it refused', async () => {
    const port = Number(new URL(server.publicUrl!).port);
    await Promise.all(Array.from({ length: 50 }, () => halfOpen(port, '127.0.0.2', open)));
    await expect.poll(() => warnings('per-address').length).toBeGreaterThan(0);
    expect(warnings('per-address')[0]).toMatchObject({
      level: 40,
      listener: 'party listener',
      limit: 32,
      byAddress: { '127.0.0.2': expect.any(Number) },
    });
    expect(await officeAnswers()).toEqual({ api: 200, adminUi: 200, adminHtml: true });
  });
});
