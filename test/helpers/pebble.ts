import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { makeTempDir } from './server';

/**
 * Debian's `pebble`, Let's Encrypt's ACME test server, run for real: its own config in a temp
 * folder on free loopback ports, its directory served over TLS with a throwaway certificate made
 * here (`caFile`: what the client trusts for it, nothing turned off), and validation done for
 * real (PEBBLE_VA_ALWAYS_VALID unset) against `challengePort` on 127.0.0.1, without its random
 * sleeps. Authorizations are never reused, so every order is validated anew.
 */
export type Pebble = {
  directoryUrl: string;
  /** The PEM file of the certificate pebble's directory is served with. */
  caFile: string;
  /** The root that issues (pebble makes a new one at each start), from its management endpoint. */
  rootPem(): Promise<string>;
  /** Its output so far (validation attempts show there). */
  output(): string;
  stop(): Promise<void>;
};

/** A port free on 127.0.0.1 now (for servers that take a fixed port from a config file). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function get(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks).toString('utf8'))
            : reject(new Error(`${url}: ${res.statusCode}`)),
        );
      })
      .on('error', reject);
  });
}

export async function startPebble(options: { challengePort: number }): Promise<Pebble> {
  const dir = makeTempDir('signdesk-pebble-');
  const caFile = path.join(dir, 'pebble-tls.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'pebble-tls.key',
      '-out',
      'pebble-tls.pem',
      '-days',
      '2',
      '-subj',
      '/CN=pebble test directory',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { cwd: dir, stdio: 'pipe' },
  );
  const [acmePort, managementPort] = [await freePort(), await freePort()];
  const config = {
    pebble: {
      listenAddress: `127.0.0.1:${acmePort}`,
      managementListenAddress: `127.0.0.1:${managementPort}`,
      certificate: path.join(dir, 'pebble-tls.pem'),
      privateKey: path.join(dir, 'pebble-tls.key'),
      httpPort: options.challengePort,
      tlsPort: await freePort(),
      ocspResponderURL: '',
      externalAccountBindingRequired: false,
    },
  };
  fs.writeFileSync(path.join(dir, 'pebble-config.json'), JSON.stringify(config));
  const env: NodeJS.ProcessEnv = { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_AUTHZREUSE: '0' };
  delete env.PEBBLE_VA_ALWAYS_VALID;
  const child: ChildProcess = spawn('pebble', ['-config', 'pebble-config.json', '-strict=false'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString('utf8'));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const look = () => {
      if (output.includes('ACME directory available')) return resolve();
      if (child.exitCode !== null) return reject(new Error(`pebble did not start:\n${output}`));
      setTimeout(look, 50);
    };
    look();
  });
  const ca = fs.readFileSync(caFile, 'utf8');
  return {
    directoryUrl: `https://127.0.0.1:${acmePort}/dir`,
    caFile,
    rootPem: () => get(`https://127.0.0.1:${managementPort}/roots/0`, ca),
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
