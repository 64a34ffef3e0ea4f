import { createHash, randomBytes } from 'node:crypto';

/** A one-time sign-in link for the desktop shell lives this long. */
export const LOGIN_LINK_TTL_MS = 60 * 1000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * One-time links that sign the local administrator in (the Electron window). Kept in memory
 * and hashed: they die with the process, and a heap dump shows no usable link.
 */
export class AdminLoginLinks {
  private readonly links = new Map<string, number>();

  create(now: number): string {
    for (const [hash, expiresAt] of this.links) if (expiresAt <= now) this.links.delete(hash);
    const token = randomBytes(32).toString('base64url');
    this.links.set(hashOf(token), now + LOGIN_LINK_TTL_MS);
    return token;
  }

  /** True once for a live token; the token is spent either way. */
  redeem(token: string, now: number): boolean {
    const hash = hashOf(token);
    const expiresAt = this.links.get(hash);
    this.links.delete(hash);
    return expiresAt !== undefined && expiresAt > now;
  }
}
