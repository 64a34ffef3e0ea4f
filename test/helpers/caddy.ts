import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { makeTempDir } from './server';

export type CaddyProxy = {
  /** https://127.0.0.1:<port> */
  url: string;
  /** Caddy's internal root certificate (PEM), the trust anchor of its `tls internal` certificates. */
  rootCertificate(): string;
  /** The Caddyfile it runs, as a recipe would print it. */
  caddyfile: string;
  close(): Promise<void>;
};

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const handshakes = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/**
 * Debian's caddy in front of `upstream` (host:port), HTTPS with its own internal CA on a free
 * port of 127.0.0.1: its own XDG folders in a temp folder, the admin endpoint off, no redirect
 * listener, nothing installed into the system's trust store. Stopped by its pid in close().
 */
export async function startCaddy(upstream: string): Promise<CaddyProxy> {
  const dir = makeTempDir('signdesk-caddy-');
  const httpsPort = await freePort();
  const httpPort = await freePort();
  const caddyfile = `{
\tadmin off
\tauto_https disable_redirects
\tskip_install_trust
\thttp_port ${httpPort}
\thttps_port ${httpsPort}
}

https://127.0.0.1:${httpsPort} {
\tbind 127.0.0.1
\ttls internal
\treverse_proxy ${upstream}
}
`;
  fs.writeFileSync(path.join(dir, 'Caddyfile'), caddyfile);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    XDG_DATA_HOME: path.join(dir, 'data'),
    XDG_CONFIG_HOME: path.join(dir, 'config'),
  };
  const child: ChildProcess = spawn(
    'caddy',
    ['run', '--config', path.join(dir, 'Caddyfile'), '--adapter', 'caddyfile'],
    {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
    await exited;
  };
  // Ready once it completes a TLS handshake (it makes its CA and certificate first).
  const deadline = Date.now() + 30_000;
  while (!(await handshakes(httpsPort))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await close();
      throw new Error(`caddy did not start: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const rootFile = path.join(env.XDG_DATA_HOME, 'caddy', 'pki', 'authorities', 'local', 'root.crt');
  return {
    url: `https://127.0.0.1:${httpsPort}`,
    rootCertificate: () => fs.readFileSync(rootFile, 'utf8'),
    caddyfile,
    close,
  };
}
