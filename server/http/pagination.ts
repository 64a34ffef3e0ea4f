import type { Request, Response } from 'express';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from '../../shared/constants';
import type { CursorValue, KeysetPage, KeysetRequest } from '../db/keyset';
import { validationFailed } from '../core/errors';

/** What an opaque page token holds: where the page starts, which way, its number, and the sort it belongs to. */
const ZPageTokenSchema = z.strictObject({
  p: z.number().int().min(1),
  b: z.boolean(),
  k: z
    .array(z.union([z.string(), z.number(), z.boolean()]))
    .min(1)
    .max(8),
  s: z.string(),
});

type PageToken = z.infer<typeof ZPageTokenSchema>;

export type PageRequest = KeysetRequest & { page: number; sortSignature: string };

function encodeToken(token: PageToken): string {
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

function decodeToken(text: string): PageToken | undefined {
  try {
    const parsed = ZPageTokenSchema.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Turns `page` and `per_page` into a keyset request. `sortSignature` names the ordering, so
 * that a token made for one sort is refused for another.
 */
export function readPageRequest(
  query: { page?: string | undefined; per_page?: number | undefined },
  sortSignature: string,
  keyCount: number,
): PageRequest {
  const limit = query.per_page ?? DEFAULT_PAGE_SIZE;
  if (query.page === undefined || query.page === '') {
    return { limit, isBackward: false, page: 1, sortSignature };
  }
  const token = decodeToken(query.page);
  if (!token || token.s !== sortSignature || token.k.length !== keyCount) {
    throw validationFailed(['page: is not a page token of this list; follow the Link header']);
  }
  return { limit, isBackward: token.b, after: token.k, page: token.p, sortSignature };
}

/**
 * Sets `Link`, `Pagination-Page`, `Pagination-Items-Total` and `Pagination-Num-Pages`.
 * Links keep every other query parameter and replace `page`.
 */
export function setPaginationHeaders<Row>(
  req: Request,
  res: Response,
  baseUrl: string,
  request: PageRequest,
  result: KeysetPage<Row>,
  total: number,
): void {
  // Walking back to the start makes this page 1 whatever the token said.
  const page = request.isBackward && !result.hasMore ? 1 : request.page;
  const hasPrevious = request.isBackward ? result.hasMore : page > 1;
  const hasNext = request.isBackward ? request.after !== undefined : result.hasMore;

  const link = (values: CursorValue[], isBackward: boolean, target: number) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(req.query)) {
      if (name !== 'page' && typeof value === 'string') params.set(name, value);
    }
    params.set('page', encodeToken({ p: target, b: isBackward, k: values, s: request.sortSignature }));
    return `${baseUrl}${req.baseUrl}${req.path}?${params.toString()}`;
  };

  const links: string[] = [];
  if (hasPrevious && result.firstValues) links.push(`<${link(result.firstValues, true, page - 1)}>; rel="previous"`);
  if (hasNext && result.lastValues) links.push(`<${link(result.lastValues, false, page + 1)}>; rel="next"`);
  if (links.length > 0) res.setHeader('Link', links.join(', '));
  res.setHeader('Pagination-Page', String(page));
  res.setHeader('Pagination-Items-Total', String(total));
  res.setHeader('Pagination-Num-Pages', String(Math.max(1, Math.ceil(total / request.limit))));
}

/** The whole of a list handler after its query: headers, then the page's items. */
export async function sendPage<Row>(
  req: Request,
  res: Response,
  baseUrl: string,
  request: PageRequest,
  result: KeysetPage<Row>,
  total: number,
  present: (row: Row) => unknown,
): Promise<void> {
  // One row after another: a presenter's reads go in order (and inside no transaction).
  const items: unknown[] = [];
  for (const row of result.rows) items.push(await present(row));
  setPaginationHeaders(req, res, baseUrl, request, result, total);
  res.status(200).json(items);
}

/** Said on a search's list and counts when its window may leave matches out (docs/decisions.md, search). */
export const SEARCH_PARTIAL_HEADER = 'Search-Partial';

export function markPartialSearch(res: Response, isPartial: boolean): void {
  if (isPartial) res.setHeader(SEARCH_PARTIAL_HEADER, 'true');
}
