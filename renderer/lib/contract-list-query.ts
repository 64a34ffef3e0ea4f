/**
 * The contract list's state as it lives in the page's URL (`/admin/contracts?q=…&status=…`):
 * filters, sort and the API's page token, so that Back, a reload or a shared link shows the same
 * filtered page.
 */
export type ContractListQuery = { q: string; status: string; user: string; meta: string; sort: string; page: string };

export const DEFAULT_SORT = '-id';
export const PAGE_SIZE = '20';
const KEYS = ['q', 'status', 'user', 'meta', 'sort', 'page'] as const;
/** A metadata key as the API takes it (shared/api/contracts.ts). */
const METADATA_KEY = /^[A-Za-z0-9_.-]{1,40}$/;
const MEMORY_KEY = 'signdesk.contracts.search';

export function readListQuery(search: URLSearchParams): ContractListQuery {
  return {
    q: search.get('q') ?? '',
    status: search.get('status') ?? '',
    user: search.get('user') ?? '',
    meta: search.get('meta') ?? '',
    sort: search.get('sort') || DEFAULT_SORT,
    page: search.get('page') ?? '',
  };
}

/** `?q=…&status=…` with only what differs from the defaults (empty for the plain list). */
export function listSearch(query: ContractListQuery): string {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = query[key];
    if (value && !(key === 'sort' && value === DEFAULT_SORT)) params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The metadata filter as the office writes it, `key=value` (`order_id=A-1042`): the key and the
 * value, or undefined when it is not of that form (the page says so and lists without it).
 */
export function metadataPair(meta: string): [string, string] | undefined {
  const at = meta.indexOf('=');
  if (at < 0) return undefined;
  const key = meta.slice(0, at).trim();
  return METADATA_KEY.test(key) ? [key, meta.slice(at + 1).trim()] : undefined;
}

const setMetadata = (params: URLSearchParams, meta: string) => {
  const pair = metadataPair(meta);
  if (pair) params.set(`metadata[${pair[0]}]`, pair[1]);
};

/** The API call for the page the URL names. */
export function apiListPath(query: ContractListQuery): string {
  const params = new URLSearchParams({ per_page: PAGE_SIZE, sort: query.sort });
  if (query.status) params.set('status', query.status);
  if (query.q) params.set('q', query.q);
  if (query.user) params.set('user', query.user);
  setMetadata(params, query.meta);
  if (query.page) params.set('page', query.page);
  return `/api/contracts?${params.toString()}`;
}

/** The counts per status under the same search and author. */
export function apiCountsPath(query: ContractListQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.user) params.set('user', query.user);
  setMetadata(params, query.meta);
  const text = params.toString();
  return `/api/contract_counts${text ? `?${text}` : ''}`;
}

/** The page token of an API page link (`next`, `previous`). */
export const pageTokenOf = (apiPath: string): string =>
  new URL(apiPath, window.location.origin).searchParams.get('page') ?? '';

/** Kept for this tab, so that a contract's "back to the list" returns to the list as it was left. */
export function rememberListSearch(search: string): void {
  try {
    window.sessionStorage.setItem(MEMORY_KEY, search);
  } catch {
    // Storage may be unavailable (private windows): the link then goes to the plain list.
  }
}

export function contractsListPath(): string {
  try {
    return `/contracts${window.sessionStorage.getItem(MEMORY_KEY) ?? ''}`;
  } catch {
    return '/contracts';
  }
}
