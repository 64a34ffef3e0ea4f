import helmet from 'helmet';
import type { RequestHandler } from 'express';

/**
 * Headers for HTML pages: a strict CSP (no third-party anything, no inline script), no
 * framing, no referrer. Pages that need more say so through `extra`; a page that other origins
 * may frame (its frame-ancestors list them) drops X-Frame-Options, which cannot name them.
 */
export function htmlSecurityHeaders(
  extra: Record<string, string[]> = {},
  options: { isFramable?: boolean } = {},
): RequestHandler {
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
    xFrameOptions: options.isFramable ? false : { action: 'sameorigin' },
    crossOriginEmbedderPolicy: false,
  });
}
