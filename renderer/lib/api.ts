import { API_VERSION } from '../../shared/constants';
import { CSRF_HEADER } from '../../shared/api/session';

/** A problem response (or a network failure) as the UI shows it. */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly validationErrors: string[];

  constructor(status: number, title: string, detail: string, validationErrors: string[] = []) {
    super(detail);
    this.status = status;
    this.title = title;
    this.validationErrors = validationErrors;
  }
}

export type Page<T> = {
  items: T[];
  page: number;
  total: number;
  pages: number;
  next?: string;
  previous?: string;
  /** A search that may leave matches out (`Search-Partial`): it looked at its newest 1,000. */
  isPartial: boolean;
};

type Listener = () => void;

let csrfToken: string | undefined;
const sessionEndedListeners = new Set<Listener>();

export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** Called when the server says the session has ended (401): the app goes back to sign-in. */
export function onSessionEnded(listener: Listener): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

type RequestOptions = {
  body?: unknown;
  raw?: Blob | ArrayBuffer | string;
  contentType?: string;
  accept?: string;
  signal?: AbortSignal;
  isPublic?: boolean;
  headers?: Record<string, string>;
};

async function toApiError(response: Response): Promise<ApiError> {
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      const problem = (await response.json()) as { title?: string; detail?: string; validation_errors?: string[] };
      return new ApiError(
        response.status,
        problem.title ?? response.statusText,
        problem.detail ?? '',
        problem.validation_errors ?? [],
      );
    } catch {
      // fall through to the plain answer
    }
  }
  return new ApiError(response.status, response.statusText || 'Error', `The server answered ${response.status}.`);
}

/** Every call of the UI: the same API integrators use, authenticated by the session cookie. */
export async function request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {
    'Accept-Api-Version': String(API_VERSION),
    Accept: options.accept ?? 'application/json',
    ...options.headers,
  };
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers[CSRF_HEADER] = csrfToken;
  let body: BodyInit | undefined;
  if (options.raw !== undefined) {
    body = options.raw;
    headers['Content-Type'] = options.contentType ?? 'application/octet-stream';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] = 'application/json';
  }
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body, credentials: 'same-origin', signal: options.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'No connection', 'SignDesk could not be reached. Is the server running?');
  }
  if (response.ok) return response;
  const error = await toApiError(response);
  if (response.status === 401 && !options.isPublic) for (const listener of sessionEndedListeners) listener();
  throw error;
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return (await request('GET', path, { signal })).json() as Promise<T>;
}

export async function sendJson<T>(
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  options: { isPublic?: boolean } = {},
): Promise<T> {
  const response = await request(method, path, { body, isPublic: options.isPublic });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

function linkOf(header: string | null, rel: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim());
    if (match?.[2] === rel && match[1]) {
      const url = new URL(match[1]);
      return url.pathname + url.search;
    }
  }
  return undefined;
}

/** A page of a list, with the Link and Pagination-* headers read. Link URLs become same-origin paths. */
export async function getPage<T>(path: string, signal?: AbortSignal): Promise<Page<T>> {
  const response = await request('GET', path, { signal });
  const items = (await response.json()) as T[];
  const number = (name: string, fallback: number) => {
    const value = Number(response.headers.get(name));
    return Number.isFinite(value) && response.headers.has(name) ? value : fallback;
  };
  return {
    items,
    page: number('Pagination-Page', 1),
    total: number('Pagination-Items-Total', items.length),
    pages: number('Pagination-Num-Pages', 1),
    next: linkOf(response.headers.get('Link'), 'next'),
    previous: linkOf(response.headers.get('Link'), 'previous'),
    isPartial: response.headers.get('Search-Partial') === 'true',
  };
}

/** Uploads a file as a binary body with its name in `Content-Disposition` (RFC 8187, so any name survives); answers the JSON created. */
export async function uploadFile<T>(
  path: string,
  file: File,
  contentType = file.type || 'application/octet-stream',
): Promise<T> {
  const headers = { 'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}` };
  return (await request('POST', path, { raw: file, contentType, headers })).json() as Promise<T>;
}

export async function getBlob(path: string, accept: string): Promise<Blob> {
  return (await request('GET', path, { accept })).blob();
}

/** The id at the end of a resource path: `/api/users/7` -> 7. */
export const idOf = (path: string): string => path.split('/').filter(Boolean).at(-1) ?? '';

/** The file name a `Content-Disposition` header gives (RFC 6266: `filename*` wins over `filename`). */
export function fileNameOf(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall back to the plain parameter
    }
  }
  const plain = /filename\s*=\s*"((?:[^"\\]|\\.)*)"|filename\s*=\s*([^;\s]+)/i.exec(header);
  return plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2];
}

/**
 * Starts a download of an authenticated file: fetched with the session cookie (a plain link
 * could not send the API version header), saved under the server's file name when it gives one.
 */
export async function downloadFile(
  path: string,
  accept: string,
  fallbackName: string,
  post?: { body: unknown },
): Promise<void> {
  const response = await request(post ? 'POST' : 'GET', path, { accept, body: post?.body });
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileNameOf(response.headers.get('Content-Disposition')) ?? fallbackName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
