import sodium from 'sodium-native';
import type { KeyStore } from './key-store';

/**
 * Small secrets a setting must keep usable but never in clear (the scheduled backups'
 * passphrase): XChaCha20-Poly1305 under a key of its own in the key store (made at first use),
 * the setting's name as associated data. A copy of the database alone reveals nothing.
 */
const KEY_FILE = 'settings-seal.key';
const KEY_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_KEYBYTES;
const NONCE_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
const TAG_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_ABYTES;

async function readOrCreateKey(keys: KeyStore): Promise<Buffer> {
  const fresh = Buffer.alloc(KEY_BYTES);
  sodium.randombytes_buf(fresh);
  // Of two processes starting at once, the first key written wins.
  const key = await keys.createOnce(KEY_FILE, fresh);
  sodium.sodium_memzero(fresh);
  if (key.length !== KEY_BYTES) throw new Error(`${keys.describe(KEY_FILE)} is not a ${KEY_BYTES}-byte key`);
  return key;
}

/** The secret sealed for the setting `name`, as base64 (nonce, then ciphertext and tag). */
export async function sealSetting(keys: KeyStore, name: string, secret: string): Promise<string> {
  const key = await readOrCreateKey(keys);
  const nonce = Buffer.alloc(NONCE_BYTES);
  sodium.randombytes_buf(nonce);
  const plain = Buffer.from(secret, 'utf8');
  const sealed = Buffer.alloc(plain.length + TAG_BYTES);
  sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(sealed, plain, Buffer.from(name), null, nonce, key);
  return Buffer.concat([nonce, sealed]).toString('base64');
}

/** The secret again; undefined when the key in the key store is not the one it was sealed with. */
export async function openSetting(keys: KeyStore, name: string, sealed: string): Promise<string | undefined> {
  const bytes = Buffer.from(sealed, 'base64');
  if (bytes.length < NONCE_BYTES + TAG_BYTES) return undefined;
  const key = await readOrCreateKey(keys);
  const plain = Buffer.alloc(bytes.length - NONCE_BYTES - TAG_BYTES);
  try {
    sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(
      plain,
      null,
      bytes.subarray(NONCE_BYTES),
      Buffer.from(name),
      bytes.subarray(0, NONCE_BYTES),
      key,
    );
  } catch {
    return undefined;
  }
  return plain.toString('utf8');
}
