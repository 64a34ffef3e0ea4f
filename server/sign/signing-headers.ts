import type { RequestHandler } from 'express';
import { htmlSecurityHeaders } from '../http/security-headers';

/** Nothing the signing page does needs these; a framing page cannot lend them either. */
export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), midi=(), display-capture=(), interest-cohort=()';

/** Every answer under /sign: no sniffing of types, no powerful features. */
export const signingAnswerHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
  next();
};

/**
 * The page's HTML headers: the strict CSP, whose frame-ancestors are the origins the admin
 * allowed (none by default). Kept per list of origins, as the setting rarely changes.
 */
export function createPageHeaders(frameOrigins: () => Promise<string[]>): RequestHandler {
  const byOrigins = new Map<string, RequestHandler>();
  return async (req, res, next) => {
    const origins = await frameOrigins();
    const key = origins.join(' ');
    let headers = byOrigins.get(key);
    if (!headers) {
      if (byOrigins.size > 20) byOrigins.clear();
      headers = htmlSecurityHeaders(
        { 'frame-ancestors': origins.length > 0 ? origins : ["'none'"] },
        { isFramable: origins.length > 0 },
      );
      byOrigins.set(key, headers);
    }
    headers(req, res, next);
  };
}
