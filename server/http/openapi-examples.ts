import { API_VERSION } from '../../shared/constants';
import type { AnyRoute } from './route';

/**
 * The curl command the API docs show for a route, published in the OpenAPI document as
 * `x-codeSamples`. It reads the base URL and the API key from the shell (SIGNDESK_URL,
 * SIGNDESK_KEY), so that it runs as printed; path ids are 1, the first of each kind.
 */
export const BASE_URL_VARIABLE = 'SIGNDESK_URL';
export const API_KEY_VARIABLE = 'SIGNDESK_KEY';

/** Single-quoted for a POSIX shell. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Double-quoted with `$VARIABLE`s left to the shell; nothing else in it may expand. */
const shellDoubleQuote = (text: string) => `"${text.replace(/(["\\`])/g, '\\$1')}"`;

function exampleUrl(route: AnyRoute): string {
  const path = route.path.replace(/:[A-Za-z_]+/g, '1');
  const query = route.example?.query
    ? `?${new URLSearchParams(route.example.query).toString().replace(/\+/g, '%20')}`
    : '';
  return `$${BASE_URL_VARIABLE}${path}${query}`;
}

function isBinaryDownload(route: AnyRoute): string | undefined {
  const ok = route.responses[200];
  if (!ok?.contentType || ok.contentType === 'application/json') return undefined;
  return ok.contentType;
}

export function curlExample(route: AnyRoute): string {
  const method = route.method.toUpperCase();
  const lines = [
    method === 'GET'
      ? `curl ${shellDoubleQuote(exampleUrl(route))}`
      : `curl -X ${method} ${shellDoubleQuote(exampleUrl(route))}`,
  ];
  if (route.access !== 'public') lines.push(`-H "Authorization: token $${API_KEY_VARIABLE}"`);
  lines.push(`-H "Accept-Api-Version: ${API_VERSION}"`);
  const download = isBinaryDownload(route);
  if (download === 'application/pdf') lines.push('-H "Accept: application/pdf"');
  for (const [name, value] of Object.entries(route.example?.headers ?? {}))
    lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  const { body, file } = route.example ?? {};
  if (file) {
    lines.push(`-H "Content-Type: ${file.contentType}"`, `--data-binary @${file.name}`);
  } else if (body) {
    lines.push('-H "Content-Type: application/json"', `-d ${shellQuote(JSON.stringify(body, null, 2))}`);
  }
  if (download)
    lines.push(`-o ${route.example?.output ?? (download === 'application/pdf' ? 'document.pdf' : 'download.bin')}`);
  return lines.join(' \\\n  ');
}

/** Redoc's `x-codeSamples`, which other renderers read too. */
export function codeSamples(route: AnyRoute): Array<{ lang: string; label: string; source: string }> {
  return [{ lang: 'Shell', label: 'curl', source: curlExample(route) }];
}
