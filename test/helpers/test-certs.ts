import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';

export type PemPair = { key: string; cert: string };

/** A self-signed certificate for 127.0.0.1 and localhost, named `commonName`, made by openssl. */
export function makeSelfSigned(dir: string, commonName: string): PemPair {
  const key = path.join(dir, `${commonName}.key`);
  const cert = path.join(dir, `${commonName}.crt`);
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
      '-days',
      '2',
      '-subj',
      `/CN=${commonName}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8') };
}

/** The common name of the certificate a TLS server on 127.0.0.1:port presents (not verified). */
export function servedCommonName(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      const name = socket.getPeerCertificate().subject.CN;
      socket.end();
      resolve(Array.isArray(name) ? name.join(',') : (name ?? ''));
    });
    socket.on('error', reject);
  });
}
