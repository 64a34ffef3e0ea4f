import fs from 'node:fs';
import path from 'node:path';
import sodium from 'sodium-native';
import { createKeyFileOnce } from './key-file';

/**
 * Webhook consumers' Ed25519 key pairs (sodium-native). A secret key leaves this module only
 * sealed (XChaCha20-Poly1305 under the appliance key in DATA_DIR/keys, the public key as
 * associated data), so the database alone never reveals one. Unsealed keys live in
 * sodium_malloc'ed memory and are reused for every attempt: unsealing per request would cost
 * more than the signature.
 */
export type WebhookKeyPair = { publicKey: Buffer; sealedSecretKey: Buffer };

export type Ed25519Signer = { sign(message: Buffer): Buffer };

export type WebhookKeyring = {
  generate(): WebhookKeyPair;
  /** The signer for a consumer's key pair; throws WebhookKeyError when the seal cannot be opened. */
  signerFor(consumerId: number, publicKey: Buffer, sealedSecretKey: Buffer): Ed25519Signer;
  forget(consumerId: number): void;
};

export class WebhookKeyError extends Error {}

export const SEAL_KEY_FILE = 'webhook-seal.key';
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const NONCE_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
const TAG_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_ABYTES;
const KEY_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_KEYBYTES;

/** The public key as PEM (SubjectPublicKeyInfo), the form most verifier libraries import. */
export function publicKeyPem(publicKey: Buffer): string {
  const der = Buffer.concat([SPKI_ED25519_PREFIX, publicKey]).toString('base64');
  return `-----BEGIN PUBLIC KEY-----\n${der}\n-----END PUBLIC KEY-----\n`;
}

/** A signer over a 32-byte Ed25519 seed (RFC 8032); the seed is not kept. */
export function signerFromSeed(seed: Buffer): Ed25519Signer & { publicKey: Buffer } {
  const publicKey = Buffer.alloc(sodium.crypto_sign_PUBLICKEYBYTES);
  const secretKey = sodium.sodium_malloc(sodium.crypto_sign_SECRETKEYBYTES);
  sodium.crypto_sign_seed_keypair(publicKey, secretKey, seed);
  return { publicKey, sign: (message) => signDetached(message, secretKey) };
}

function signDetached(message: Buffer, secretKey: Buffer): Buffer {
  const signature = Buffer.allocUnsafe(sodium.crypto_sign_BYTES);
  sodium.crypto_sign_detached(signature, message, secretKey);
  return signature;
}

function readOrCreateSealKey(keysDir: string): Buffer {
  const file = path.join(keysDir, SEAL_KEY_FILE);
  const key = sodium.sodium_malloc(KEY_BYTES);
  let stored: Buffer;
  if (fs.existsSync(file)) stored = fs.readFileSync(file);
  else {
    const fresh = Buffer.alloc(KEY_BYTES);
    sodium.randombytes_buf(fresh);
    // Two processes starting at once keep the first one's key.
    stored = createKeyFileOnce(file, fresh);
    sodium.sodium_memzero(fresh);
  }
  if (stored.length !== KEY_BYTES) throw new WebhookKeyError(`${file} is not a ${KEY_BYTES}-byte key`);
  stored.copy(key);
  sodium.sodium_memzero(stored);
  return key;
}

export function createWebhookKeyring(keysDir: string): WebhookKeyring {
  let sealKey: Buffer | undefined;
  const sealKeyOf = () => (sealKey ??= readOrCreateSealKey(keysDir));
  const signers = new Map<number, { publicKey: Buffer; signer: Ed25519Signer }>();

  const seal = (seed: Buffer, publicKey: Buffer): Buffer => {
    const nonce = Buffer.alloc(NONCE_BYTES);
    sodium.randombytes_buf(nonce);
    const sealed = Buffer.alloc(seed.length + TAG_BYTES);
    sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(sealed, seed, publicKey, null, nonce, sealKeyOf());
    return Buffer.concat([nonce, sealed]);
  };

  const unseal = (sealedSecretKey: Buffer, publicKey: Buffer): Buffer => {
    if (sealedSecretKey.length !== NONCE_BYTES + sodium.crypto_sign_SEEDBYTES + TAG_BYTES) {
      throw new WebhookKeyError('the sealed key has the wrong length');
    }
    const seed = sodium.sodium_malloc(sodium.crypto_sign_SEEDBYTES);
    try {
      sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(
        seed,
        null,
        sealedSecretKey.subarray(NONCE_BYTES),
        publicKey,
        sealedSecretKey.subarray(0, NONCE_BYTES),
        sealKeyOf(),
      );
    } catch {
      throw new WebhookKeyError(
        `the signing key cannot be unsealed: ${path.join(keysDir, SEAL_KEY_FILE)} is missing or not the one it was sealed with`,
      );
    }
    return seed;
  };

  return {
    generate() {
      const seed = sodium.sodium_malloc(sodium.crypto_sign_SEEDBYTES);
      sodium.randombytes_buf(seed);
      const { publicKey } = signerFromSeed(seed);
      const sealedSecretKey = seal(seed, publicKey);
      sodium.sodium_memzero(seed);
      return { publicKey, sealedSecretKey };
    },
    signerFor(consumerId, publicKey, sealedSecretKey) {
      const cached = signers.get(consumerId);
      if (cached && cached.publicKey.equals(publicKey)) return cached.signer;
      const seed = unseal(sealedSecretKey, publicKey);
      const signer = signerFromSeed(seed);
      sodium.sodium_memzero(seed);
      if (!signer.publicKey.equals(publicKey))
        throw new WebhookKeyError('the sealed key does not match the public key');
      signers.set(consumerId, { publicKey, signer });
      return signer;
    },
    forget(consumerId) {
      signers.delete(consumerId);
    },
  };
}
