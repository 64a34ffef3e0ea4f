// A throwaway PostgreSQL cluster for the tests: made with initdb in a temporary folder, started
// with pg_ctl on a free loopback port as an unprivileged user (PostgreSQL refuses to run as root:
// as root the cluster belongs to the `postgres` user Debian's package makes, else `nobody`),
// stopped and removed afterwards. Nothing is configured on the machine itself.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** initdb, pg_ctl and postgres: on PATH, else Debian's /usr/lib/postgresql/<version>/bin. */
export function findPostgresBin() {
  const onPath = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' }).stdout.trim();
  if (onPath && fs.existsSync(path.join(path.dirname(onPath), 'initdb'))) return path.dirname(fs.realpathSync(onPath));
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((name) => fs.existsSync(path.join(root, name, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) return undefined;
  return path.join(root, versions[0], 'bin');
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

function userToRunAs() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const has = (name) => spawnSync('id', ['-u', name], { stdio: 'ignore' }).status === 0;
  return has('postgres') ? 'postgres' : 'nobody';
}

function run(command, args, user, options = {}) {
  const [file, argv] = user ? ['runuser', ['-u', user, '--', command, ...args]] : [command, args];
  const result = spawnSync(file, argv, { encoding: 'utf8', ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
}

/** Starts the cluster; returns its superuser URL and a function that stops and removes it. */
export async function startTestPostgres() {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed: on Debian, apt-get install postgresql');
  const user = userToRunAs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signdesk-pg-'));
  fs.chmodSync(dir, 0o755);
  if (user) run('chown', [user, dir], undefined);
  const data = path.join(dir, 'data');
  run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'], user);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    // A throwaway cluster: losing it to a power cut costs nothing, and the tests run faster.
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=400',
    '-c shared_buffers=128MB',
  ].join(' ');
  run(path.join(bin, 'pg_ctl'), ['-D', data, '-o', settings, '-l', path.join(dir, 'log'), '-w', 'start'], user);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let isStopped = false;
  const stop = () => {
    if (isStopped) return;
    isStopped = true;
    try {
      run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], user, { stdio: 'ignore' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  return { url, port, dir, stop };
}

// `node scripts/test-postgres.mjs`: starts one and prints export lines, for running tests by hand.
if (import.meta.url === `file://${process.argv[1]}`) {
  const cluster = await startTestPostgres();
  console.log(`export SIGNDESK_TEST_PG_URL=${cluster.url}`);
  console.log(`# stop it with: pg_ctl -D ${cluster.dir}/data stop && rm -rf ${cluster.dir}`);
}
