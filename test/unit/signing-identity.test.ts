import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, X509Certificate, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSealCertificate } from '../../server/crypto/make-seal-certificate';
import { createFileKeyStore } from '../../server/crypto/file-key-store';
import {
  describeSigningIdentity,
  importPkcs12 as importInto,
  loadSigningIdentity as loadFrom,
} from '../../server/crypto/signing-identity';
import { buildSignedPdf } from '../../server/pdf/build-signed-pdf';
import { makeContractPdf } from '../helpers/make-contract-pdf';
import { pdfsig } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';

const IDENTITY_FILE = 'signing-identity.json';

/** The identity in the key files of `dir` (DATA_DIR/keys as an office on SQLite has it). */
const loadSigningIdentity = (dir: string, options?: Parameters<typeof loadFrom>[1]) =>
  loadFrom(createFileKeyStore(dir), options);
const importPkcs12 = (dir: string, p12: Uint8Array, passphrase: string) =>
  importInto(createFileKeyStore(dir), p12, passphrase);

type Pkcs12Form = 'default' | 'legacy' | 'legacy-des';
/** How `openssl pkcs12 -export` writes each form: OpenSSL 3's own, and the older one Windows still exports. */
const FORM_ARGS: Record<Pkcs12Form, string[]> = {
  // PBES2 with AES-256-CBC and PBKDF2 (SHA-256), a SHA-256 MAC.
  default: [],
  // The key in 3DES, the certificates in RC2-40, a SHA-1 MAC: OpenSSL 1.x and Windows.
  legacy: ['-legacy'],
  // 3DES for the certificates too.
  'legacy-des': ['-legacy', '-descert'],
};

/** A PKCS#12 made with `openssl pkcs12 -export` from a new RSA key (or the key and certificate given). */
function opensslPkcs12(
  dir: string,
  options: {
    passphrase: string;
    withKey?: boolean;
    subject?: string;
    form?: Pkcs12Form;
    /** Without the integrity MAC: a wrong passphrase then shows only in what it decrypts to. */
    noMac?: boolean;
    /** The KDF rounds of the encryption and the MAC (OpenSSL's default: 2048). */
    iterations?: number;
    from?: { privateKey: KeyObject; certificateDer: Buffer };
  },
): Buffer {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  const out = path.join(dir, 'office.p12');
  if (options.from) {
    fs.writeFileSync(key, options.from.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    fs.writeFileSync(cert, new X509Certificate(options.from.certificateDer).toString());
  } else {
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
  }
  const keyArgs = options.withKey === false ? ['-nokeys'] : ['-inkey', key];
  execFileSync(
    'openssl',
    [
      'pkcs12',
      '-export',
      ...FORM_ARGS[options.form ?? 'default'],
      ...(options.noMac ? ['-nomac'] : []),
      ...(options.iterations ? ['-iter', String(options.iterations)] : []),
      ...keyArgs,
      '-in',
      cert,
      '-out',
      out,
      '-passout',
      `pass:${options.passphrase}`,
    ],
    { stdio: 'ignore' },
  );
  return fs.readFileSync(out);
}

/** What `openssl pkcs12 -info` says the file is encrypted with: the fixture is the form it claims. */
function encryptionOf(dir: string, p12: Buffer, passphrase: string): string {
  const file = path.join(dir, 'check.p12');
  fs.writeFileSync(file, p12);
  // It reports on stderr.
  const result = spawnSync(
    'openssl',
    ['pkcs12', '-legacy', '-info', '-noout', '-in', file, '-passin', `pass:${passphrase}`],
    { encoding: 'utf8' },
  );
  expect(result.status).toBe(0);
  return result.stdout + result.stderr;
}

describe('the appliance signing identity', () => {
  it('is made at first run: a 10-year self-signed seal certificate, stored with mode 600, then reused', async () => {
    const keys = path.join(makeTempDir(), 'keys');
    const made = await loadSigningIdentity(keys, { officeName: 'Åkesson Juridik' });
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

    expect(describeSigningIdentity(await loadSigningIdentity(keys)).fingerprintSha256).toBe(
      description.fingerprintSha256,
    );
  });

  it('imports an office PKCS#12 (OpenSSL defaults) and seals PDFs with it (RSA)', async () => {
    const dir = makeTempDir();
    const keys = path.join(dir, 'keys');
    const before = describeSigningIdentity(await loadSigningIdentity(keys));
    const imported = await importPkcs12(keys, opensslPkcs12(dir, { passphrase: 'kontoret 2025' }), 'kontoret 2025');
    const description = describeSigningIdentity(imported);
    expect(description).toMatchObject({
      subject: 'O=Kontoret AB, CN=Kontoret AB seal',
      source: 'imported',
      keyAlgorithm: 'RSA 2048',
    });
    expect(description.fingerprintSha256).not.toBe(before.fingerprintSha256);
    expect(describeSigningIdentity(await loadSigningIdentity(keys)).fingerprintSha256).toBe(
      description.fingerprintSha256,
    );
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
      await loadSigningIdentity(keys),
    );
    const file = path.join(dir, 'rsa-signed.pdf');
    fs.writeFileSync(file, signed);
    const report = pdfsig(file);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Signer Certificate Common Name: Kontoret AB seal');
  });

  it('refuses a wrong passphrase, a file without a key, an expired certificate and non-PKCS#12 bytes, keeping the identity it had', async () => {
    const dir = makeTempDir();
    const keys = path.join(dir, 'keys');
    await loadSigningIdentity(keys);
    const stored = fs.readFileSync(path.join(keys, IDENTITY_FILE), 'utf8');

    const good = opensslPkcs12(dir, { passphrase: 'right' });
    await expect(importPkcs12(keys, good, 'wrong')).rejects.toThrow(/passphrase does not open/);
    await expect(
      importPkcs12(keys, opensslPkcs12(dir, { passphrase: 'right', withKey: false }), 'right'),
    ).rejects.toThrow(/no private key/);
    // Ten years of validity that began eleven years ago.
    const expired = makeSealCertificate('Expired', new Date(Date.now() - 11 * 365 * 86_400_000));
    await expect(
      importPkcs12(keys, opensslPkcs12(dir, { passphrase: 'old', form: 'legacy-des', from: expired }), 'old'),
    ).rejects.toThrow(/expired on/);
    await expect(importPkcs12(keys, Buffer.from('%PDF-1.7 not a key store'), 'x')).rejects.toThrow(/not a PKCS#12/);
    let refusal: unknown;
    try {
      await importPkcs12(keys, good, 'wrong');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({
      code: 'validation-failed',
      validationErrors: ['p12: The passphrase does not open this PKCS#12 file.'],
    });
    expect(fs.readFileSync(path.join(keys, IDENTITY_FILE), 'utf8')).toBe(stored);
    // Beside the identity, only the archive of the certificates it ever sealed with: the one it had.
    expect(fs.readdirSync(keys).sort()).toEqual(['seal-certificates', IDENTITY_FILE]);
    expect(fs.readdirSync(path.join(keys, 'seal-certificates'))).toHaveLength(1);
  });

  it('imports legacy PKCS#12 files as Windows and OpenSSL 1.x export them: RC2-40 and 3DES, RSA and EC keys', async () => {
    const dir = makeTempDir();
    const keys = path.join(dir, 'keys');
    const rc2 = opensslPkcs12(dir, { passphrase: 'lösen ord', form: 'legacy', subject: '/CN=Legacy seal' });
    expect(encryptionOf(dir, rc2, 'lösen ord')).toMatch(/pbeWithSHA1And40BitRC2-CBC/);
    await expect(importPkcs12(keys, rc2, 'losen ord')).rejects.toThrow(/passphrase does not open/);
    expect(describeSigningIdentity(await importPkcs12(keys, rc2, 'lösen ord'))).toMatchObject({
      subject: 'CN=Legacy seal',
      keyAlgorithm: 'RSA 2048',
    });

    const des = opensslPkcs12(dir, { passphrase: 'legacy', form: 'legacy-des', subject: '/CN=3DES seal' });
    const info = encryptionOf(dir, des, 'legacy');
    expect(info).toMatch(/3-KeyTripleDES-CBC/);
    expect(info).not.toMatch(/RC2/);
    expect(describeSigningIdentity(await importPkcs12(keys, des, 'legacy')).subject).toBe('CN=3DES seal');

    const unchecked = opensslPkcs12(dir, { passphrase: 'no mac', form: 'legacy', noMac: true });
    expect(encryptionOf(dir, unchecked, 'no mac')).not.toMatch(/^MAC:/m);
    await expect(importPkcs12(keys, unchecked, 'no Mac')).rejects.toThrow(/passphrase does not open/);
    expect(describeSigningIdentity(await importPkcs12(keys, unchecked, 'no mac')).keyAlgorithm).toBe('RSA 2048');

    const ec = opensslPkcs12(dir, { passphrase: 'ec', form: 'legacy', from: makeSealCertificate('Kontoret EC') });
    expect(describeSigningIdentity(await importPkcs12(keys, ec, 'ec'))).toMatchObject({
      subject: expect.stringContaining('Kontoret EC'),
      keyAlgorithm: 'ECDSA P-256',
    });
  });

  it('refuses a file asking for more than a million KDF rounds at once, rather than holding the server', async () => {
    const dir = makeTempDir();
    const p12 = opensslPkcs12(dir, { passphrase: 'slow', form: 'legacy', iterations: 2_000_000 });
    await expect(importPkcs12(path.join(dir, 'keys'), p12, 'slow')).rejects.toThrow(
      /cannot open \(unsupported iteration count 2000000\)/,
    );
  });

  it('reads the OpenSSL 3 form (PBES2, AES-256) with a non-ASCII passphrase', async () => {
    const dir = makeTempDir();
    const p12 = opensslPkcs12(dir, { passphrase: 'kontoret å', subject: '/CN=Modern seal' });
    expect(encryptionOf(dir, p12, 'kontoret å')).toMatch(/PBES2, PBKDF2, AES-256-CBC/);
    const keys = path.join(dir, 'keys');
    await expect(importPkcs12(keys, p12, 'kontoret a')).rejects.toThrow(/passphrase does not open/);
    expect(describeSigningIdentity(await importPkcs12(keys, p12, 'kontoret å')).subject).toBe('CN=Modern seal');
  });
});
