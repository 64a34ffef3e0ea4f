import fs from 'node:fs';
import path from 'node:path';
import sodium from 'sodium-native';

/**
 * Small secrets a setting must keep usable but never in clear (the scheduled backups'
 * passphrase): XChaCha20-Poly1305 under a key of its own in DATA_DIR/keys (made at first use),
 * the setting's name as associated data. A copy of the database alone reveals nothing.
 */
const KEY_FILE = 'settings-seal.key';
const KEY_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_KEYBYTES;
const NONCE_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
const TAG_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_ABYTES;

function readOrCreateKey(keysDir: string): Buffer {
  const file = path.join(keysDir, KEY_FILE);
  try {
    fs.mkdirSync(keysDir, { recursive: true, mode: 0o700 });
    const fresh = Buffer.alloc(KEY_BYTES);
    sodium.randombytes_buf(fresh);
    // 'wx': of two processes starting at once, the first key written wins.
    fs.writeFileSync(file, fresh, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = fs.readFileSync(file);
  if (key.length !== KEY_BYTES) throw new Error(`${file} is not a ${KEY_BYTES}-byte key`);
  return key;
}

/** The secret sealed for the setting `name`, as base64 (nonce, then ciphertext and tag). */
export function sealSetting(keysDir: string, name: string, secret: string): string {
  const nonce = Buffer.alloc(NONCE_BYTES);
  sodium.randombytes_buf(nonce);
  const plain = Buffer.from(secret, 'utf8');
  const sealed = Buffer.alloc(plain.length + TAG_BYTES);
  sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(
    sealed,
    plain,
    Buffer.from(name),
    null,
    nonce,
    readOrCreateKey(keysDir),
  );
  return Buffer.concat([nonce, sealed]).toString('base64');
}

/** The secret again; undefined when the key in DATA_DIR/keys is not the one it was sealed with. */
export function openSetting(keysDir: string, name: string, sealed: string): string | undefined {
  const bytes = Buffer.from(sealed, 'base64');
  if (bytes.length < NONCE_BYTES + TAG_BYTES) return undefined;
  const plain = Buffer.alloc(bytes.length - NONCE_BYTES - TAG_BYTES);
  try {
    sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(
      plain,
      null,
      bytes.subarray(NONCE_BYTES),
      Buffer.from(name),
      bytes.subarray(0, NONCE_BYTES),
      readOrCreateKey(keysDir),
    );
  } catch {
    return undefined;
  }
  return plain.toString('utf8');
}
