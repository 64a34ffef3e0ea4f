import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir } from './server';
import type { TsaAuthorityFiles } from './tsa-server';

const run = promisify(execFile);

/**
 * A small real PKI for the timestamp authority, made with `openssl` here: a root CA, an
 * intermediate CA whose certificate names the root's CRL, and a TSA certificate issued by the
 * intermediate that names the intermediate's CRL (CRL distribution point) and its OCSP
 * responder (authority information access). One loopback HTTP server serves both CRLs (DER)
 * and answers OCSP requests with `openssl ocsp` over the intermediate's index.
 */
export type TestPki = {
  authority: TsaAuthorityFiles;
  rootFile: string;
  intermediateFile: string;
  /** The CRLs served, DER. */
  rootCrl: Buffer;
  intermediateCrl: Buffer;
  /** Requests served so far, by path. */
  requests(): { crl: number; ocsp: number };
  /** down(): every request answers 503, as a CA's server in maintenance does. */
  down(): void;
  up(): void;
  close(): Promise<void>;
};

const CA_CONFIG = (dir: string) =>
  [
    '[ca]',
    'default_ca = ca_default',
    '[ca_default]',
    `dir = ${dir}`,
    'database = $dir/index.txt',
    'new_certs_dir = $dir',
    'serial = $dir/serial',
    'crlnumber = $dir/crlnumber',
    'default_md = sha256',
    'default_days = 3',
    'default_crl_days = 3',
    'policy = policy_any',
    'unique_subject = no',
    'copy_extensions = none',
    '[policy_any]',
    'organizationName = optional',
    'commonName = supplied',
  ].join('\n');

export async function startTestPki(): Promise<TestPki> {
  const dir = makeTempDir('signdesk-pki-');
  const file = (name: string) => path.join(dir, name);
  let isUp = true;
  const counts = { crl: 0, ocsp: 0 };
  let rootCrl = Buffer.alloc(0);
  let intermediateCrl = Buffer.alloc(0);
  let sequence = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (!isUp) return void res.writeHead(503).end();
      if (req.method === 'GET' && (req.url === '/root.crl' || req.url === '/intermediate.crl')) {
        counts.crl += 1;
        const body = req.url === '/root.crl' ? rootCrl : intermediateCrl;
        return void res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(body);
      }
      if (req.method === 'POST' && req.url === '/ocsp') {
        counts.ocsp += 1;
        const name = `ocsp${(sequence += 1)}`;
        fs.writeFileSync(file(`${name}.req`), Buffer.concat(chunks));
        // prettier-ignore
        run('openssl', ['ocsp', '-index', file('int/index.txt'), '-CA', file('int.pem'), '-rsigner', file('int.pem'),
          '-rkey', file('int.key'), '-reqin', file(`${name}.req`), '-respout', file(`${name}.resp`), '-ndays', '1']).then(
          () => res.writeHead(200, { 'content-type': 'application/ocsp-response' }).end(fs.readFileSync(file(`${name}.resp`))),
          () => res.writeHead(500).end(),
        );
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  for (const ca of ['root', 'int']) {
    fs.mkdirSync(file(ca));
    fs.writeFileSync(file(`${ca}/index.txt`), '');
    fs.writeFileSync(file(`${ca}/serial`), ca === 'root' ? '1000\n' : '2000\n');
    fs.writeFileSync(file(`${ca}/crlnumber`), '01\n');
    fs.writeFileSync(file(`${ca}.cnf`), `${CA_CONFIG(file(ca))}\n`);
  }
  fs.writeFileSync(
    file('ext.cnf'),
    [
      '[root_ext]',
      'basicConstraints=critical,CA:TRUE',
      'keyUsage=critical,keyCertSign,cRLSign',
      'subjectKeyIdentifier=hash',
      '[int_ext]',
      'basicConstraints=critical,CA:TRUE,pathlen:0',
      'keyUsage=critical,keyCertSign,cRLSign,digitalSignature',
      'extendedKeyUsage=OCSPSigning',
      'subjectKeyIdentifier=hash',
      'authorityKeyIdentifier=keyid',
      `crlDistributionPoints=URI:${base}/root.crl`,
      '[tsa_ext]',
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature,nonRepudiation',
      'extendedKeyUsage=critical,timeStamping',
      'authorityKeyIdentifier=keyid',
      `crlDistributionPoints=URI:${base}/intermediate.crl`,
      `authorityInfoAccess=OCSP;URI:${base}/ocsp`,
      '',
    ].join('\n'),
  );
  const key = (name: string) =>
    openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', name);
  key('root.key');
  key('int.key');
  key('tsa.key');
  // prettier-ignore
  openssl('req', '-x509', '-key', 'root.key', '-out', 'root.pem', '-days', '3', '-subj', '/O=Test PKI/CN=Test PKI Root',
    '-config', file('ext.cnf'), '-extensions', 'root_ext');
  openssl('req', '-new', '-key', 'int.key', '-out', 'int.csr', '-subj', '/O=Test PKI/CN=Test PKI Intermediate');
  // prettier-ignore
  openssl('ca', '-batch', '-config', file('root.cnf'), '-cert', 'root.pem', '-keyfile', 'root.key', '-in', 'int.csr',
    '-out', 'int.pem', '-notext', '-extfile', file('ext.cnf'), '-extensions', 'int_ext');
  openssl('req', '-new', '-key', 'tsa.key', '-out', 'tsa.csr', '-subj', '/O=Test PKI/CN=Test PKI Timestamp Authority');
  // prettier-ignore
  openssl('ca', '-batch', '-config', file('int.cnf'), '-cert', 'int.pem', '-keyfile', 'int.key', '-in', 'tsa.csr',
    '-out', 'tsa.pem', '-notext', '-extfile', file('ext.cnf'), '-extensions', 'tsa_ext');
  for (const [ca, out] of [
    ['root', 'root.crl'],
    ['int', 'intermediate.crl'],
  ] as const) {
    // prettier-ignore
    openssl('ca', '-batch', '-config', file(`${ca}.cnf`), '-cert', `${ca}.pem`, '-keyfile', `${ca}.key`, '-gencrl',
      '-out', `${out}.pem`);
    openssl('crl', '-in', `${out}.pem`, '-outform', 'DER', '-out', out);
  }
  rootCrl = fs.readFileSync(file('root.crl'));
  intermediateCrl = fs.readFileSync(file('intermediate.crl'));
  fs.writeFileSync(
    file('chain.pem'),
    Buffer.concat([fs.readFileSync(file('tsa.pem')), fs.readFileSync(file('int.pem'))]),
  );

  return {
    authority: {
      caFile: file('root.pem'),
      certFile: file('tsa.pem'),
      keyFile: file('tsa.key'),
      certsFile: file('chain.pem'),
    },
    rootFile: file('root.pem'),
    intermediateFile: file('int.pem'),
    rootCrl,
    intermediateCrl,
    requests: () => ({ ...counts }),
    down: () => {
      isUp = false;
    },
    up: () => {
      isUp = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
