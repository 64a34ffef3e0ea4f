import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  randomBytes,
  randomFillSync,
  timingSafeEqual,
} from 'node:crypto';
import type { KeyStore } from './key-store';

/**
 * The appliance's own secret (32 random bytes, the key `app-secret` of the office's key store:
 * DATA_DIR/keys or the database, made at first run): it keys the
 * HMACs that derive signing-link tokens, per-link CSRF tokens, verified-party cookies and
 * one-time-code hashes, and (through a key derived from it) seals what must be readable again
 * but not from the database alone: old signing-link tokens, mail and SMS bodies, passwords in
 * the SMTP and SMS gateway URLs.
 */
export type AppSecret = {
  mac(purpose: string, message: string): string;
  isMacValid(purpose: string, message: string, mac: string): boolean;
  /** AES-256-GCM under a key derived from the secret, `purpose` as associated data: `sealed:v1:<base64url>`. */
  seal(purpose: string, plaintext: string): string;
  /** The plaintext of `seal`, or undefined when it is not sealed text, or sealed under another key or purpose. */
  open(purpose: string, sealed: string): string | undefined;
};

export const SEALED_PREFIX = 'sealed:v1:';

/** Whether a stored value is sealed (values written before sealing began are not). */
export const isSealed = (value: string): boolean => value.startsWith(SEALED_PREFIX);

const IV_BYTES = 12;

/**
 * Random IVs drawn from one buffer filled a few hundred at a time: the outbox seals three texts
 * per message, and a call into OpenSSL for every 12 bytes was most of the cost of sealing them.
 */
function createIvSource(): () => Buffer {
  const pool = Buffer.alloc(IV_BYTES * 256);
  let used = pool.length;
  return () => {
    if (used === pool.length) {
      randomFillSync(pool);
      used = 0;
    }
    return pool.subarray(used, (used += IV_BYTES));
  };
}

const KEY_NAME = 'app-secret';

export async function loadAppSecret(keys: KeyStore): Promise<AppSecret> {
  // Of two processes (or instances) starting at once, the first one's secret is everyone's.
  const key = await keys.createOnce(KEY_NAME, randomBytes(32));
  if (key.length < 32) throw new Error(`${keys.describe(KEY_NAME)} is damaged: it holds ${key.length} bytes, not 32`);
  const mac = (purpose: string, message: string) =>
    createHmac('sha256', key).update(purpose).update('\0').update(message).digest('base64url');
  // A key of its own for sealing, so that no MAC is ever made with the cipher's key.
  const sealKey = createHmac('sha256', key).update('signdesk seal key v1').digest();
  const nextIv = createIvSource();
  // The associated data of each purpose (a handful of constants), encoded once.
  const purposes = new Map<string, Buffer>();
  const aadOf = (purpose: string) => {
    let aad = purposes.get(purpose);
    if (!aad) purposes.set(purpose, (aad = Buffer.from(purpose)));
    return aad;
  };
  return {
    mac,
    isMacValid(purpose, message, candidate) {
      const expected = Buffer.from(mac(purpose, message));
      const given = Buffer.from(candidate);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
    seal(purpose, plaintext) {
      // The IV is a view into the pool: the cipher and the concatenation below copy it before it is refilled.
      const iv = nextIv();
      const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
      cipher.setAAD(aadOf(purpose));
      const body = cipher.update(plaintext, 'utf8');
      // GCM is a stream mode: final() only computes the tag and returns no bytes.
      cipher.final();
      return `${SEALED_PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(purpose, sealed) {
      if (!isSealed(sealed)) return undefined;
      const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
      if (bytes.length < 28) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', sealKey, bytes.subarray(0, IV_BYTES));
        decipher.setAAD(aadOf(purpose));
        decipher.setAuthTag(bytes.subarray(12, 28));
        return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
