import sodium from 'sodium-native';
import type { KeyStore } from './key-store';

/**
 * Webhook consumers' Ed25519 key pairs (sodium-native). A secret key leaves this module only
 * sealed (XChaCha20-Poly1305 under the key `webhook-seal.key` of the key store, the public key as
 * associated data), so the database alone never reveals one. Unsealed keys live in
 * sodium_malloc'ed memory and are reused for every attempt: unsealing per request would cost
 * more than the signature.
 */
export type WebhookKeyPair = { publicKey: Buffer; sealedSecretKey: Buffer };

export type Ed25519Signer = { sign(message: Buffer): Buffer };

export type WebhookKeyring = {
  generate(): Promise<WebhookKeyPair>;
  /** The signer for a consumer's key pair; rejects with WebhookKeyError when the seal cannot be opened. */
  signerFor(consumerId: number, publicKey: Buffer, sealedSecretKey: Buffer): Promise<Ed25519Signer>;
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

async function readOrCreateSealKey(keys: KeyStore): Promise<Buffer> {
  const key = sodium.sodium_malloc(KEY_BYTES);
  let stored = await keys.read(SEAL_KEY_FILE);
  if (!stored) {
    const fresh = Buffer.alloc(KEY_BYTES);
    sodium.randombytes_buf(fresh);
    // Two processes starting at once keep the first one's key.
    stored = await keys.createOnce(SEAL_KEY_FILE, fresh);
    sodium.sodium_memzero(fresh);
  }
  if (stored.length !== KEY_BYTES)
    throw new WebhookKeyError(`${keys.describe(SEAL_KEY_FILE)} is not a ${KEY_BYTES}-byte key`);
  stored.copy(key);
  sodium.sodium_memzero(stored);
  return key;
}

/** The keyring over the office's key store; its seal key is read (or made) at first use. */
export function createWebhookKeyring(keys: KeyStore): WebhookKeyring {
  let sealKey: Promise<Buffer> | undefined;
  const sealKeyOf = (): Promise<Buffer> =>
    (sealKey ??= readOrCreateSealKey(keys).catch((error: unknown) => {
      // Not kept: the next use tries again.
      sealKey = undefined;
      throw error;
    }));
  const signers = new Map<number, { publicKey: Buffer; signer: Ed25519Signer }>();

  const seal = async (seed: Buffer, publicKey: Buffer): Promise<Buffer> => {
    const key = await sealKeyOf();
    const nonce = Buffer.alloc(NONCE_BYTES);
    sodium.randombytes_buf(nonce);
    const sealed = Buffer.alloc(seed.length + TAG_BYTES);
    sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(sealed, seed, publicKey, null, nonce, key);
    return Buffer.concat([nonce, sealed]);
  };

  const unseal = async (sealedSecretKey: Buffer, publicKey: Buffer): Promise<Buffer> => {
    if (sealedSecretKey.length !== NONCE_BYTES + sodium.crypto_sign_SEEDBYTES + TAG_BYTES) {
      throw new WebhookKeyError('the sealed key has the wrong length');
    }
    const key = await sealKeyOf();
    const seed = sodium.sodium_malloc(sodium.crypto_sign_SEEDBYTES);
    try {
      sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(
        seed,
        null,
        sealedSecretKey.subarray(NONCE_BYTES),
        publicKey,
        sealedSecretKey.subarray(0, NONCE_BYTES),
        key,
      );
    } catch {
      throw new WebhookKeyError(
        `the signing key cannot be unsealed: ${keys.describe(SEAL_KEY_FILE)} is missing or not the one it was sealed with`,
      );
    }
    return seed;
  };

  return {
    async generate() {
      const seed = sodium.sodium_malloc(sodium.crypto_sign_SEEDBYTES);
      sodium.randombytes_buf(seed);
      const { publicKey } = signerFromSeed(seed);
      const sealedSecretKey = await seal(seed, publicKey);
      sodium.sodium_memzero(seed);
      return { publicKey, sealedSecretKey };
    },
    async signerFor(consumerId, publicKey, sealedSecretKey) {
      const cached = signers.get(consumerId);
      if (cached && cached.publicKey.equals(publicKey)) return cached.signer;
      const seed = await unseal(sealedSecretKey, publicKey);
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
