/**
 * The policy the shell puts on the app's pages when the server sent none. The server's own
 * policy (the admin UI's, the API docs') is kept as it is: it knows its pages better.
 */
export const DEFAULT_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

export type ResponseHeaders = Record<string, string[] | string>;

function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  if (key === undefined) return undefined;
  const value = headers[key];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** HTML pages (and untyped responses) only: JSON needs no policy, and PDFs open in Chromium's viewer, which a page policy would break. */
export function withContentSecurityPolicy(headers: ResponseHeaders | undefined): ResponseHeaders {
  const result: ResponseHeaders = { ...headers };
  const type = headerValue(result, 'content-type');
  // A response without a type may be sniffed as HTML, so it gets the policy too.
  const isHtml = type === undefined || /^\s*text\/html\b/i.test(type);
  if (isHtml && headerValue(result, 'content-security-policy') === undefined) {
    result['Content-Security-Policy'] = [DEFAULT_CONTENT_SECURITY_POLICY];
  }
  return result;
}
