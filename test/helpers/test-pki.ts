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
 * and answers OCSP requests with `openssl ocsp` over the intermediate's index (and, with
 * `intermediateOcsp`, the root's over its own), and serves the issuers' certificates that CA
 * Issuers addresses name.
 */
export type TestPkiOptions = {
  /** The certificates the authority's tokens carry: its own and the intermediate (default), or its own only. */
  tokenCerts?: 'tsa+intermediate' | 'tsa';
  /** Where the intermediate's revocation is published: the root's CRL (default), also or only the root's OCSP responder. */
  intermediateRevocation?: 'crl' | 'crl+ocsp' | 'ocsp';
  /** The TSA's and the intermediate's certificates name their issuer's certificate (CA Issuers): a PKCS #7 bundle and a DER file. */
  caIssuers?: boolean;
  /** false: the TSA's certificate names no CRL and no OCSP responder (no revocation source at all). */
  tsaRevocation?: boolean;
  /** Every certificate expires this many seconds after it is made (default: in 3 days), to check evidence after expiry. */
  lifetimeSeconds?: number;
};

export type TestPki = {
  authority: TsaAuthorityFiles;
  rootFile: string;
  intermediateFile: string;
  /** When the certificates expire (epoch ms). */
  notAfter: number;
  /** The CRLs served, DER. */
  rootCrl: Buffer;
  intermediateCrl: Buffer;
  /** Requests served so far, by path. */
  requests(): { crl: number; ocsp: number; issuer: number };
  /** An office seal certificate issued by the intermediate (expiring with the others) and its key, as a PKCS #12 file. */
  sealPkcs12(passphrase: string): Buffer;
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

/** An openssl ca date: YYYYMMDDHHMMSSZ. */
const caDate = (ms: number) => `${new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

export async function startTestPki(options: TestPkiOptions = {}): Promise<TestPki> {
  const dir = makeTempDir('signdesk-pki-');
  const file = (name: string) => path.join(dir, name);
  let isUp = true;
  const counts = { crl: 0, ocsp: 0, issuer: 0 };
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
      if (req.method === 'GET' && (req.url === '/root.cer' || req.url === '/int.p7c')) {
        counts.issuer += 1;
        return void res
          .writeHead(200, {
            'content-type': req.url === '/root.cer' ? 'application/pkix-cert' : 'application/pkcs7-mime',
          })
          .end(fs.readFileSync(file(req.url === '/root.cer' ? 'root.der' : 'int.p7c')));
      }
      if (req.method === 'POST' && (req.url === '/ocsp' || req.url === '/root-ocsp')) {
        counts.ocsp += 1;
        const name = `ocsp${(sequence += 1)}`;
        const ca = req.url === '/ocsp' ? 'int' : 'root';
        fs.writeFileSync(file(`${name}.req`), Buffer.concat(chunks));
        // prettier-ignore
        run('openssl', ['ocsp', '-index', file(`${ca}/index.txt`), '-CA', file(`${ca}.pem`), '-rsigner', file(`${ca}.pem`),
          '-rkey', file(`${ca}.key`), '-reqin', file(`${name}.req`), '-respout', file(`${name}.resp`), '-ndays', '1']).then(
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
      ...(options.intermediateRevocation === 'ocsp' ? [] : [`crlDistributionPoints=URI:${base}/root.crl`]),
      ...infoAccess([
        options.intermediateRevocation?.includes('ocsp') ? `OCSP;URI:${base}/root-ocsp` : '',
        options.caIssuers ? `caIssuers;URI:${base}/root.cer` : '',
      ]),
      '[tsa_ext]',
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature,nonRepudiation',
      'extendedKeyUsage=critical,timeStamping',
      'authorityKeyIdentifier=keyid',
      ...(options.tsaRevocation === false ? [] : [`crlDistributionPoints=URI:${base}/intermediate.crl`]),
      ...infoAccess([
        options.tsaRevocation === false ? '' : `OCSP;URI:${base}/ocsp`,
        options.caIssuers ? `caIssuers;URI:${base}/int.p7c` : '',
      ]),
      '[seal_ext]',
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature,nonRepudiation',
      'authorityKeyIdentifier=keyid',
      '',
    ].join('\n'),
  );
  const key = (name: string) =>
    openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', name);
  key('root.key');
  key('int.key');
  key('tsa.key');
  // Every certificate from an hour ago (clocks differ) to the end of its lifetime.
  const notAfter = Date.now() + (options.lifetimeSeconds ?? 3 * 86_400) * 1000;
  const dates = ['-startdate', caDate(Date.now() - 3_600_000), '-enddate', caDate(notAfter)];
  openssl('req', '-new', '-key', 'root.key', '-out', 'root.csr', '-subj', '/O=Test PKI/CN=Test PKI Root');
  // prettier-ignore
  openssl('ca', '-batch', '-selfsign', '-config', file('root.cnf'), '-keyfile', 'root.key', '-in', 'root.csr',
    '-out', 'root.pem', '-notext', '-extfile', file('ext.cnf'), '-extensions', 'root_ext', ...dates);
  openssl('req', '-new', '-key', 'int.key', '-out', 'int.csr', '-subj', '/O=Test PKI/CN=Test PKI Intermediate');
  // prettier-ignore
  openssl('ca', '-batch', '-config', file('root.cnf'), '-cert', 'root.pem', '-keyfile', 'root.key', '-in', 'int.csr',
    '-out', 'int.pem', '-notext', '-extfile', file('ext.cnf'), '-extensions', 'int_ext', ...dates);
  openssl('req', '-new', '-key', 'tsa.key', '-out', 'tsa.csr', '-subj', '/O=Test PKI/CN=Test PKI Timestamp Authority');
  // prettier-ignore
  openssl('ca', '-batch', '-config', file('int.cnf'), '-cert', 'int.pem', '-keyfile', 'int.key', '-in', 'tsa.csr',
    '-out', 'tsa.pem', '-notext', '-extfile', file('ext.cnf'), '-extensions', 'tsa_ext', ...dates);
  openssl('x509', '-in', 'root.pem', '-outform', 'DER', '-out', 'root.der');
  openssl('crl2pkcs7', '-nocrl', '-certfile', 'int.pem', '-outform', 'DER', '-out', 'int.p7c');
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
  const tokenCerts = options.tokenCerts === 'tsa' ? ['tsa.pem'] : ['tsa.pem', 'int.pem'];
  fs.writeFileSync(file('chain.pem'), Buffer.concat(tokenCerts.map((name) => fs.readFileSync(file(name)))));

  return {
    authority: {
      caFile: file('root.pem'),
      certFile: file('tsa.pem'),
      keyFile: file('tsa.key'),
      certsFile: file('chain.pem'),
    },
    rootFile: file('root.pem'),
    intermediateFile: file('int.pem'),
    notAfter,
    rootCrl,
    intermediateCrl,
    requests: () => ({ ...counts }),
    sealPkcs12: (passphrase) => {
      key('seal.key');
      openssl(
        'req',
        '-new',
        '-key',
        'seal.key',
        '-out',
        'seal.csr',
        '-subj',
        '/O=Test PKI Office/CN=Test PKI Office Seal',
      );
      // prettier-ignore
      openssl('ca', '-batch', '-config', file('int.cnf'), '-cert', 'int.pem', '-keyfile', 'int.key', '-in', 'seal.csr',
        '-out', 'seal.pem', '-notext', '-extfile', file('ext.cnf'), '-extensions', 'seal_ext', ...dates);
      fs.writeFileSync(
        file('seal-chain.pem'),
        Buffer.concat([file('int.pem'), file('root.pem')].map((name) => fs.readFileSync(name))),
      );
      // prettier-ignore
      openssl('pkcs12', '-export', '-inkey', 'seal.key', '-in', 'seal.pem', '-certfile', 'seal-chain.pem',
        '-passout', `pass:${passphrase}`, '-out', 'seal.p12');
      return fs.readFileSync(file('seal.p12'));
    },
    down: () => {
      isUp = false;
    },
    up: () => {
      isUp = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An authorityInfoAccess line of an openssl extension section, or none when nothing is given. */
function infoAccess(items: string[]): string[] {
  const given = items.filter(Boolean);
  return given.length > 0 ? [`authorityInfoAccess=${given.join(',')}`] : [];
}
