import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createWebhookKeyring,
  publicKeyPem,
  SEAL_KEY_FILE,
  signerFromSeed,
  WebhookKeyError,
} from '../../server/crypto/webhook-keys';
import { createFileKeyStore } from '../../server/crypto/file-key-store';
import { buildSignatureBase, contentDigest, signWebhookRequest } from '../../server/webhooks/http-signature';
import { makeTempDir } from '../helpers/server';
import { verifyWebhookRequest } from '../helpers/webhook-receiver';

// RFC 9421 Appendix B.1.4, test-key-ed25519 (PKCS#8 and SPKI).
const RFC_PRIVATE_KEY_DER = 'MC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF';
const RFC_PUBLIC_KEY_PEM =
  '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=\n-----END PUBLIC KEY-----\n';

// RFC 9421 Appendix B.2.6, the signature base and signature (line wrapping of RFC 8792 undone).
const RFC_B26_BASE = [
  '"date": Tue, 20 Apr 2021 02:07:55 GMT',
  '"@method": POST',
  '"@path": /foo',
  '"@authority": example.com',
  '"content-type": application/json',
  '"content-length": 18',
  '"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
].join('\n');
const RFC_B26_SIGNATURE = 'wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==';

/** The 32-byte seed at the end of a PKCS#8 Ed25519 key (RFC 8410). */
const rfcSigner = () => signerFromSeed(Buffer.from(RFC_PRIVATE_KEY_DER, 'base64').subarray(-32));

describe('RFC 9421 signing', () => {
  it('reproduces the Ed25519 example of RFC 9421 B.2.6: signature base and signature', () => {
    const signer = rfcSigner();
    expect(publicKeyPem(signer.publicKey)).toBe(RFC_PUBLIC_KEY_PEM);
    const { base, signatureParams } = buildSignatureBase(
      [
        { name: 'date', value: 'Tue, 20 Apr 2021 02:07:55 GMT' },
        { name: '@method', value: 'POST' },
        { name: '@path', value: '/foo' },
        { name: '@authority', value: 'example.com' },
        { name: 'content-type', value: 'application/json' },
        { name: 'content-length', value: '18' },
      ],
      [
        ['created', 1618884473],
        ['keyid', 'test-key-ed25519'],
      ],
    );
    expect(base).toBe(RFC_B26_BASE);
    expect(`sig-b26=${signatureParams}`).toBe(
      'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
    );
    expect(signer.sign(Buffer.from(base)).toString('base64')).toBe(RFC_B26_SIGNATURE);
  });

  it('writes Content-Digest as RFC 9530 does', () => {
    expect(contentDigest(Buffer.from('{"hello": "world"}'))).toBe(
      'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:',
    );
  });

  it('signs webhook requests that an RFC 9421 library verifies, covering the components we sign', async () => {
    const signer = rfcSigner();
    const body = Buffer.from(
      '{"type":"contract.signed","timestamp":"2026-01-02 03:04:05","data":{"id":"/api/contracts/7"}}',
    );
    const now = Date.now();
    const headers = signWebhookRequest({
      url: new URL('http://127.0.0.1:9999/hooks/in?x=1'),
      body,
      keyId: 'ed25519-3',
      signer,
      nowMs: now,
    });
    const created = Math.floor(now / 1000);
    expect(headers['signature-input']).toBe(
      `sig1=("@method" "@path" "host" "date" "content-digest");keyid="ed25519-3";alg="ed25519";created=${created};expires=${created + 300}`,
    );
    expect(headers.host).toBe('127.0.0.1:9999');
    expect(headers.date).toBe(new Date(created * 1000).toUTCString());
    expect(headers.signature).toMatch(/^sig1=:[A-Za-z0-9+/]{86}==:$/);
    const keys = new Map([['ed25519-3', RFC_PUBLIC_KEY_PEM]]);
    expect(await verifyWebhookRequest(keys, 'POST', '/hooks/in?x=1', headers, body)).toBeUndefined();
    // The same checks fail on a changed body, a changed path, another key, and an expired signature.
    expect(await verifyWebhookRequest(keys, 'POST', '/hooks/in?x=1', headers, Buffer.from(`${body} `))).toMatch(
      /Content-Digest/,
    );
    const forged = { ...headers, 'content-digest': contentDigest(Buffer.from('{}')) };
    expect(await verifyWebhookRequest(keys, 'POST', '/hooks/in?x=1', forged, Buffer.from('{}'))).toMatch(
      /does not verify/,
    );
    expect(await verifyWebhookRequest(keys, 'POST', '/other', headers, body)).toMatch(/does not verify/);
    const otherKey = new Map([['ed25519-3', publicKeyPem(signerFromSeed(Buffer.alloc(32, 7)).publicKey)]]);
    expect(await verifyWebhookRequest(otherKey, 'POST', '/hooks/in?x=1', headers, body)).toMatch(/does not verify/);
    const old = signWebhookRequest({
      url: new URL('http://127.0.0.1:9999/'),
      body,
      keyId: 'ed25519-3',
      signer,
      nowMs: now - 301_000,
    });
    expect(await verifyWebhookRequest(keys, 'POST', '/', old, body)).toMatch(/expired/);
  });
});

describe('webhook key pairs', () => {
  it('seals the secret key under a mode-600 key file, so the stored bytes alone reveal nothing', async () => {
    const dir = path.join(makeTempDir(), 'keys');
    const keyring = createWebhookKeyring(createFileKeyStore(dir));
    const pair = await keyring.generate();
    const keyFile = path.join(dir, SEAL_KEY_FILE);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(pair.publicKey).toHaveLength(32);
    // nonce + sealed 32-byte seed + tag: no raw 64-byte secret key in storage.
    expect(pair.sealedSecretKey).toHaveLength(24 + 32 + 16);
    const signer = await keyring.signerFor(1, pair.publicKey, pair.sealedSecretKey);
    const message = Buffer.from('hello');
    // A second keyring over the same folder (a restart) opens the same key.
    const again = await createWebhookKeyring(createFileKeyStore(dir)).signerFor(
      1,
      pair.publicKey,
      pair.sealedSecretKey,
    );
    expect(again.sign(message)).toEqual(signer.sign(message));
  });

  it('refuses to open a key without the right seal key, or bound to another public key', async () => {
    const keysIn = () => createFileKeyStore(path.join(makeTempDir(), 'keys'));
    const pair = await createWebhookKeyring(keysIn()).generate();
    const stranger = createWebhookKeyring(keysIn());
    await expect(stranger.signerFor(1, pair.publicKey, pair.sealedSecretKey)).rejects.toThrow(WebhookKeyError);
    const keyring = createWebhookKeyring(keysIn());
    const mine = await keyring.generate();
    const other = await keyring.generate();
    await expect(keyring.signerFor(2, other.publicKey, mine.sealedSecretKey)).rejects.toThrow(WebhookKeyError);
  });
});
