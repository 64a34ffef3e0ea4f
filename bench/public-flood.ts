import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { makeAdminAndKey, makeTempDir } from '../test/helpers/server';
import { startServerProcess } from '../test/helpers/server-process';
import { makeSelfSigned } from '../test/helpers/test-certs';
import { report } from './lib';

/**
 * What a flood of half-open TLS connections to the public port costs the office (review
 * 2026-12-07: 21,000 of them stopped the whole office). The server runs as `npm run server`
 * with 400 file handles; 600 connections from five addresses each send 3 bytes of a
 * ClientHello and nothing more. The figure: an office API call on a fresh connection (median of
 * 20) while the flood holds, beside the same call with the public port quiet, in one run.
 */
const ROUNDS = 20;
const SOURCES = ['127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const dataDir = makeTempDir('signdesk-bench-flood-');
const certs = makeTempDir('signdesk-bench-flood-certs-');
const pair = makeSelfSigned(certs, 'localhost');
fs.writeFileSync(path.join(certs, 'cert.pem'), pair.cert);
fs.writeFileSync(path.join(certs, 'key.pem'), pair.key);
const key = await makeAdminAndKey(dataDir, 'bench');
const server = await startServerProcess({
  dataDir,
  maxOpenFiles: 400,
  env: {
    PUBLIC_PORT: '0',
    PUBLIC_HOST: '127.0.0.1',
    PUBLIC_TLS_CERT: path.join(certs, 'cert.pem'),
    PUBLIC_TLS_KEY: path.join(certs, 'key.pem'),
  },
});

const officeCall = () =>
  new Promise<number>((resolve, reject) => {
    const started = performance.now();
    http
      .get(
        `${server.url}/api/users`,
        { agent: false, headers: { authorization: `token ${key}`, 'accept-api-version': '1', connection: 'close' } },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`HTTP ${res.statusCode}`)),
          );
        },
      )
      .on('error', reject);
  });
const officeMedian = async () => {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) times.push(await officeCall());
  return median(times);
};

const open = new Set<net.Socket>();
const halfOpen = (port: number, localAddress: string) =>
  new Promise<void>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    open.add(socket);
    socket.once('connect', () => (socket.write(Buffer.from([0x16, 0x03, 0x01])), resolve()));
    socket.on('error', () => resolve());
    socket.once('close', () => (open.delete(socket), resolve()));
  });

try {
  await officeMedian();
  const quiet = await officeMedian();
  const port = Number(new URL(server.publicUrl!).port);
  const sources = Array.from({ length: 120 }, () => SOURCES).flat();
  for (let start = 0; start < sources.length; start += 50)
    await Promise.all(sources.slice(start, start + 50).map((source) => halfOpen(port, source)));
  const flooded = await officeMedian();
  report(
    'office API call (median, fresh connection) during 600 half-open TLS connections to the public port',
    flooded,
    'ms',
    quiet,
  );
  report('file handles the server held during the flood (of 400)', server.openFiles(), 'handles');
} finally {
  for (const socket of open) socket.destroy();
  await server.stop();
}
