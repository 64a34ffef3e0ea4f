import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir } from './server';

const run = promisify(execFile);

/**
 * A real RFC 3161 timestamp authority for the tests: Debian's `openssl ts -reply` behind a small
 * HTTP handler, with a throwaway root CA and a TSA certificate (extendedKeyUsage timeStamping,
 * critical) made here. `down()` makes it refuse connections' answers (HTTP 503, as a TSA in
 * maintenance does), `up()` brings it back.
 */
export type TsaServer = {
  url: string;
  /** The root CA's certificate (PEM file): what an expert trusts for this authority. */
  caFile: string;
  /** The TSA's signing certificate (PEM file). */
  certFile: string;
  dir: string;
  /** Replies given so far. */
  replies(): number;
  /** Queries received so far (answered or not). */
  queries(): number;
  up(): void;
  down(): void;
  close(): Promise<void>;
};

/** An authority's files made elsewhere (test-pki.ts: a chain with CRLs and an OCSP responder). */
export type TsaAuthorityFiles = { caFile: string; certFile: string; keyFile: string; certsFile: string };

function makeAuthority(dir: string, given?: TsaAuthorityFiles): { caFile: string; certFile: string; config: string } {
  const file = (name: string) => path.join(dir, name);
  if (given) {
    fs.writeFileSync(file('serial'), '01\n');
    fs.writeFileSync(file('tsa.cnf'), `${tsaConfig(file('serial'), given.certFile, given.certsFile, given.keyFile)}\n`);
    return { caFile: given.caFile, certFile: given.certFile, config: file('tsa.cnf') };
  }
  fs.writeFileSync(
    file('ext.cnf'),
    '[tsa_ext]\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\nextendedKeyUsage=critical,timeStamping\n',
  );
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '3',
    '-subj',
    '/O=Test Trust Services/CN=Test TSA Root',
  );
  openssl(
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'tsa.key',
    '-out',
    'tsa.csr',
    '-subj',
    '/O=Test Trust Services/CN=Test Timestamp Authority',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    'tsa.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '3',
    '-extfile',
    'ext.cnf',
    '-extensions',
    'tsa_ext',
    '-out',
    'tsa.pem',
  );
  fs.writeFileSync(file('serial'), '01\n');
  const config = tsaConfig(file('serial'), file('tsa.pem'), file('tsa.pem'), file('tsa.key'));
  fs.writeFileSync(file('tsa.cnf'), `${config}\n`);
  return { caFile: file('ca.pem'), certFile: file('tsa.pem'), config: file('tsa.cnf') };
}

function tsaConfig(serial: string, certFile: string, certsFile: string, keyFile: string): string {
  return [
    '[tsa]',
    'default_tsa = tsa1',
    '[tsa1]',
    `serial = ${serial}`,
    'crypto_device = builtin',
    `signer_cert = ${certFile}`,
    `certs = ${certsFile}`,
    `signer_key = ${keyFile}`,
    'signer_digest = sha256',
    'default_policy = 1.3.6.1.4.1.99999.1',
    'digests = sha256, sha384, sha512',
    'accuracy = secs:1',
    'ordering = no',
    'tsa_name = yes',
    'ess_cert_id_chain = no',
    'ess_cert_id_alg = sha256',
  ].join('\n');
}

/**
 * `basicAuth`: the authority answers only queries carrying these credentials (HTTP 401 without),
 * as commercial authorities do; `url` then carries them as user:password. `authority`: sign with
 * this certificate chain instead of a self-made one.
 */
export async function startTsaServer(
  options: { basicAuth?: { user: string; password: string }; authority?: TsaAuthorityFiles } = {},
): Promise<TsaServer> {
  const dir = makeTempDir('signdesk-tsa-');
  const authority = makeAuthority(dir, options.authority);
  let isUp = true;
  let replies = 0;
  let queries = 0;
  let sequence = 0;
  // openssl's serial file is not safe for two replies at once: answer one query at a time.
  let turn = Promise.resolve();

  const reply = async (query: Buffer): Promise<Buffer> => {
    const name = `q${(sequence += 1)}`;
    const queryFile = path.join(dir, `${name}.tsq`);
    const replyFile = path.join(dir, `${name}.tsr`);
    fs.writeFileSync(queryFile, query);
    await run('openssl', ['ts', '-reply', '-config', authority.config, '-queryfile', queryFile, '-out', replyFile]);
    return fs.readFileSync(replyFile);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      queries += 1;
      const { basicAuth } = options;
      const expected = basicAuth
        ? `Basic ${Buffer.from(`${basicAuth.user}:${basicAuth.password}`).toString('base64')}`
        : undefined;
      if (expected && req.headers.authorization !== expected) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="tsa"' }).end();
        return;
      }
      if (!isUp || req.method !== 'POST') {
        res.writeHead(isUp ? 405 : 503).end();
        return;
      }
      const answer = turn.then(() => reply(Buffer.concat(chunks)));
      turn = answer.then(
        () => undefined,
        () => undefined,
      );
      answer.then(
        (bytes) => {
          replies += 1;
          res
            .writeHead(200, { 'content-type': 'application/timestamp-reply', 'content-length': bytes.length })
            .end(bytes);
        },
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: options.basicAuth
      ? `http://${encodeURIComponent(options.basicAuth.user)}:${encodeURIComponent(options.basicAuth.password)}@127.0.0.1:${port}/tsr`
      : `http://127.0.0.1:${port}/tsr`,
    caFile: authority.caFile,
    certFile: authority.certFile,
    dir,
    replies: () => replies,
    queries: () => queries,
    up: () => {
      isUp = true;
    },
    down: () => {
      isUp = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
