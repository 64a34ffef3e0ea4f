import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createKeyFileOnce } from './key-file';

/**
 * The appliance's own secret (32 random bytes in DATA_DIR/keys, made at first run): it keys the
 * HMACs that derive per-link CSRF tokens, verified-party cookies and one-time-code hashes, so
 * none of them needs storing in clear.
 */
export type AppSecret = {
  mac(purpose: string, message: string): string;
  isMacValid(purpose: string, message: string, mac: string): boolean;
};

export function loadAppSecret(keysDir: string): AppSecret {
  const file = path.join(keysDir, 'app-secret');
  let key: Buffer;
  try {
    key = fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    key = createKeyFileOnce(file, randomBytes(32));
  }
  if (key.length < 32) throw new Error(`${file} is damaged: it holds ${key.length} bytes, not 32`);
  const mac = (purpose: string, message: string) =>
    createHmac('sha256', key).update(purpose).update('\0').update(message).digest('base64url');
  return {
    mac,
    isMacValid(purpose, message, candidate) {
      const expected = Buffer.from(mac(purpose, message));
      const given = Buffer.from(candidate);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
