import type { ReadContext } from '../context/read-context';
import type { AppContext } from '../context/app-context';

const KEY = 'signing_frame_origins';

/**
 * The origins (scheme, host and port of an integrator's web app) that may show the signing
 * page in a frame. None by default: the page then refuses every frame (frame-ancestors 'none').
 */
export async function readFrameOrigins(ctx: ReadContext): Promise<string[]> {
  const stored = await ctx.repos.settings.get(KEY);
  if (!stored) return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter((origin): origin is string => typeof origin === 'string') : [];
  } catch {
    return [];
  }
}

/** Call inside the settings transaction; an empty list removes the setting. */
export async function writeFrameOrigins(ctx: AppContext, origins: readonly string[], now: number): Promise<void> {
  await ctx.repos.settings.write(KEY, origins.length > 0 ? JSON.stringify([...new Set(origins)]) : null, now);
}

/** A return URL the signing page may send the party to: http(s), on one of the allowed origins. */
export async function isAllowedReturnUrl(ctx: AppContext, value: string): Promise<boolean> {
  if (value.length > 2_000) return false;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (url.username || url.password) return false;
    return (await readFrameOrigins(ctx)).includes(url.origin);
  } catch {
    return false;
  }
}
