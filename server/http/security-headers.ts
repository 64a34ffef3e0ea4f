import helmet from 'helmet';
import type { RequestHandler } from 'express';

/**
 * Headers for HTML pages: a strict CSP (no third-party anything, no inline script), no
 * framing, no referrer. Pages that need more say so through `extra`.
 */
export function htmlSecurityHeaders(extra: Record<string, string[]> = {}): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'none'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'"],
        'connect-src': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        'base-uri': ["'none'"],
        ...extra,
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  });
}
