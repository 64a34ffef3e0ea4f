import { X509Certificate } from 'node:crypto';
import { testDatabaseEnv } from './databases';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../../server/cli/run-cli';
import { run } from './pdf-tools';

/** The CLI as `npm run cli -- …` runs it, with BACKUP_PASSPHRASE in its environment and no terminal. */
export async function backupCli(
  dataDir: string,
  args: string[],
  passphrase: string | undefined,
): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const env = {
    DATA_DIR: dataDir,
    ...testDatabaseEnv(dataDir),
    ...(passphrase === undefined ? {} : { BACKUP_PASSPHRASE: passphrase }),
  };
  const code = await runCli(args, env, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

/**
 * SHA-256 of every file under `dir` by relative path: what a restore that "changes nothing" must
 * leave as it was (not the logs, nor the lock every command takes: signdesk.lock*).
 */
export function snapshotDir(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (!child.startsWith('logs') && !child.startsWith('signdesk.lock'))
        found[child] =
          fs.readFileSync(path.join(dir, child)).toString('base64').slice(0, 64) +
          fs.statSync(path.join(dir, child)).size;
    }
  };
  walk('');
  return found;
}

/** The SHA-256 fingerprint (AA:BB:…) of the certificate that sealed a PDF, read with `pdfsig -dump` and openssl. */
export function sealCertificateFingerprint(pdf: string, workDir: string): string {
  const copy = path.join(workDir, 'sealed.pdf');
  fs.copyFileSync(pdf, copy);
  const dumped = run('sh', ['-c', `cd "${workDir}" && pdfsig -dump sealed.pdf >/dev/null && ls`])
    .stdout.split('\n')
    .find((name) => /\.sig0$/.test(name));
  if (!dumped) throw new Error('pdfsig dumped no signature');
  const pem = run('openssl', ['pkcs7', '-inform', 'DER', '-print_certs', '-in', path.join(workDir, dumped)]).stdout;
  const first = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)?.[0];
  if (!first) throw new Error('no certificate in the signature');
  return new X509Certificate(first).fingerprint256;
}
