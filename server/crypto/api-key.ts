import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API keys are `<public_id>:<secret>`. The secret carries 256 random bits, so a fast SHA-256
 * is a sound way to store it (a slow password hash would only slow every request); the
 * comparison is constant-time.
 */
export type ApiKey = { publicId: string; secret: string; secretHash: string; key: string };

export function generateApiKey(): ApiKey {
  const publicId = `sdk_${randomBytes(9).toString('base64url')}`;
  const secret = randomBytes(32).toString('base64url');
  return { publicId, secret, secretHash: hashSecret(secret), key: `${publicId}:${secret}` };
}

export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'base64url');
}

/** A stand-in hash, compared against when no token matches, so that timing says nothing. */
const DECOY_HASH = hashSecret(randomBytes(32).toString('base64url'));

export function isSecretValid(secret: string, storedHash: string | undefined): boolean {
  const presented = Buffer.from(hashSecret(secret));
  const expected = Buffer.from(storedHash ?? DECOY_HASH);
  return presented.length === expected.length && timingSafeEqual(presented, expected) && storedHash !== undefined;
}

/** Parses `token <public_id>:<secret>`; undefined when the header is of another form. */
export function parseAuthorization(header: string | undefined): { publicId: string; secret: string } | undefined {
  if (!header) return undefined;
  const match = /^token\s+([A-Za-z0-9_-]{1,64}):([A-Za-z0-9_-]{1,128})$/i.exec(header.trim());
  if (!match?.[1] || !match[2]) return undefined;
  return { publicId: match[1], secret: match[2] };
}
