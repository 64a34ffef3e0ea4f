import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { describeSigningIdentity, importPkcs12, loadSigningIdentity } from '../../server/crypto/signing-identity';
import { buildSignedPdf } from '../../server/pdf/build-signed-pdf';
import { makeContractPdf } from '../helpers/make-contract-pdf';
import { pdfsig } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';

const IDENTITY_FILE = 'signing-identity.json';

/** A PKCS#12 made with OpenSSL's defaults (PBES2, AES-256, PBKDF2 with SHA-256). */
function opensslPkcs12(dir: string, options: { passphrase: string; withKey?: boolean; subject?: string }): Buffer {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  const out = path.join(dir, 'office.p12');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '365',
      '-subj',
      options.subject ?? '/O=Kontoret AB/CN=Kontoret AB seal',
    ],
    { stdio: 'ignore' },
  );
  const keyArgs = options.withKey === false ? ['-nokeys'] : ['-inkey', key];
  execFileSync(
    'openssl',
    ['pkcs12', '-export', ...keyArgs, '-in', cert, '-out', out, '-passout', `pass:${options.passphrase}`],
    { stdio: 'ignore' },
  );
  return fs.readFileSync(out);
}

/** A PKCS#12 made with node-forge (legacy 3DES, as Windows exports), here with an expired certificate. */
function forgePkcs12(passphrase: string, validTo: Date, commonName: string): Buffer {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(validTo.getTime() - 365 * 86_400_000);
  cert.validity.notAfter = validTo;
  cert.setSubject([{ name: 'commonName', value: commonName }]);
  cert.setIssuer([{ name: 'commonName', value: commonName }]);
  cert.sign(key, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(key, [cert], passphrase, { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}

describe('the appliance signing identity', () => {
  it('is made at first run: a 10-year self-signed seal certificate, stored with mode 600, then reused', () => {
    const keys = path.join(makeTempDir(), 'keys');
    const made = loadSigningIdentity(keys, { officeName: 'Åkesson Juridik' });
    const file = path.join(keys, IDENTITY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const description = describeSigningIdentity(made);
    expect(description.subject).toContain('CN=SignDesk Åkesson Juridik document seal');
    expect(description.source).toBe('self-made');
    expect(description.selfSigned).toBe(true);
    expect(description.keyAlgorithm).toBe('ECDSA P-256');
    const years = (Date.parse(description.validTo) - Date.parse(description.validFrom)) / (365.25 * 86_400_000);
    expect(years).toBeGreaterThan(9.9);
    expect(years).toBeLessThan(10.1);
    expect(description.fingerprintSha256).toBe(
      createHash('sha256').update(made.certificate.raw).digest('hex').toUpperCase().match(/../g)!.join(':'),
    );

    const text = execFileSync('openssl', ['x509', '-noout', '-text'], {
      input: made.certificate.toString(),
    }).toString();
    expect(text).toMatch(/Key Usage: critical\s+Digital Signature, Non Repudiation/);
    expect(text).toContain('CA:FALSE');

    expect(describeSigningIdentity(loadSigningIdentity(keys)).fingerprintSha256).toBe(description.fingerprintSha256);
  });

  it('imports an office PKCS#12 (OpenSSL defaults) and seals PDFs with it (RSA)', async () => {
    const dir = makeTempDir();
    const keys = path.join(dir, 'keys');
    const before = describeSigningIdentity(loadSigningIdentity(keys));
    const imported = importPkcs12(keys, opensslPkcs12(dir, { passphrase: 'kontoret 2025' }), 'kontoret 2025');
    const description = describeSigningIdentity(imported);
    expect(description).toMatchObject({
      subject: 'O=Kontoret AB, CN=Kontoret AB seal',
      source: 'imported',
      keyAlgorithm: 'RSA 2048',
    });
    expect(description.fingerprintSha256).not.toBe(before.fingerprintSha256);
    expect(describeSigningIdentity(loadSigningIdentity(keys)).fingerprintSha256).toBe(description.fingerprintSha256);
    expect(fs.statSync(path.join(keys, IDENTITY_FILE)).mode & 0o777).toBe(0o600);

    const original = await makeContractPdf({ pages: 1 });
    const signed = await buildSignedPdf(
      {
        original,
        fields: [],
        audit: {
          documentName: 'a.pdf',
          documentSha256: createHash('sha256').update(original).digest('hex'),
          contractId: 1,
          parties: [],
          completedTime: Date.now(),
          timeZone: 'Europe/Stockholm',
        },
      },
      loadSigningIdentity(keys),
    );
    const file = path.join(dir, 'rsa-signed.pdf');
    fs.writeFileSync(file, signed);
    const report = pdfsig(file);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Signer Certificate Common Name: Kontoret AB seal');
  });

  it('refuses a wrong passphrase, a file without a key, an expired certificate and non-PKCS#12 bytes, keeping the identity it had', () => {
    const dir = makeTempDir();
    const keys = path.join(dir, 'keys');
    loadSigningIdentity(keys);
    const stored = fs.readFileSync(path.join(keys, IDENTITY_FILE), 'utf8');

    const good = opensslPkcs12(dir, { passphrase: 'right' });
    expect(() => importPkcs12(keys, good, 'wrong')).toThrow(/passphrase does not open/);
    expect(() => importPkcs12(keys, opensslPkcs12(dir, { passphrase: 'right', withKey: false }), 'right')).toThrow(
      /no private key/,
    );
    expect(() =>
      importPkcs12(keys, forgePkcs12('old', new Date(Date.now() - 86_400_000), 'Expired seal'), 'old'),
    ).toThrow(/expired on/);
    expect(() => importPkcs12(keys, Buffer.from('%PDF-1.7 not a key store'), 'x')).toThrow(/not a PKCS#12/);
    let refusal: unknown;
    try {
      importPkcs12(keys, good, 'wrong');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({
      code: 'validation-failed',
      validationErrors: ['p12: The passphrase does not open this PKCS#12 file.'],
    });
    expect(fs.readFileSync(path.join(keys, IDENTITY_FILE), 'utf8')).toBe(stored);
    expect(fs.readdirSync(keys)).toEqual([IDENTITY_FILE]);
  });

  it('imports a legacy (3DES) PKCS#12 as Windows exports it', () => {
    const keys = path.join(makeTempDir(), 'keys');
    const valid = forgePkcs12('legacy', new Date(Date.now() + 365 * 86_400_000), 'Legacy seal');
    expect(describeSigningIdentity(importPkcs12(keys, valid, 'legacy')).subject).toBe('CN=Legacy seal');
  });
});
