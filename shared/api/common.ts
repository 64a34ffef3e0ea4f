import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_CONTENT_LENGTH, MAX_PAGE_SIZE, MAX_STRING_LENGTH } from '../constants';

/** `YYYY-MM-DD HH:MM:SS` in the appliance's time zone. */
export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

export const ZTimestampSchema = z
  .string()
  .regex(TIMESTAMP_PATTERN, 'must be a timestamp of the form YYYY-MM-DD HH:MM:SS')
  .meta({ description: 'YYYY-MM-DD HH:MM:SS in the appliance time zone', example: '2026-11-22 15:30:00' });

/**
 * A time a list filter takes: `YYYY-MM-DD HH:MM:SS` in the office's time zone (as every
 * timestamp the API returns), or an ISO 8601 time with `Z` or an offset (RFC 3339), whose `+`
 * may also arrive as a space when a query string was not escaped. shared/time.ts reads it.
 */
export const TIME_FILTER_PATTERN =
  /^\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}:\d{2}|[Tt]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+ -]\d{2}:\d{2}))$/;

export const ZTimeFilterSchema = z
  .string()
  .regex(
    TIME_FILTER_PATTERN,
    'must be YYYY-MM-DD HH:MM:SS (office time) or an ISO 8601 time with Z or an offset, e.g. 2026-12-07T10:00:00+01:00',
  );

export const shortText = () => z.string().max(MAX_STRING_LENGTH);
export const longText = () => z.string().max(MAX_CONTENT_LENGTH);

/**
 * A string that must be a resource path; anything else sent (a bare id, say) is told which
 * form is wanted rather than only "must be a string".
 */
export const pathString = (form: string) =>
  z.string({
    error: (issue) =>
      issue.input === undefined
        ? undefined
        : `must be a path of the form ${form} (the resource's self)${typeof issue.input === 'number' ? ', not a bare id' : ''}`,
  });

export const resourcePath = (collection: string) =>
  pathString(`/api/${collection}/<id>`)
    .regex(new RegExp(`^/api/${collection}/[1-9][0-9]{0,15}$`), `must be a path of the form /api/${collection}/<id>`)
    .meta({ description: `A path /api/${collection}/<id>`, example: `/api/${collection}/1` });

export const ZUserPathSchema = resourcePath('users');

export const ZProblemSchema = z
  .object({
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string(),
    type: z.string(),
    validation_errors: z.array(z.string()),
  })
  .meta({ id: 'JsonProblemResponse', description: 'Problem response returned for every 4xx and 5xx' });

export type TProblem = z.infer<typeof ZProblemSchema>;

/** Query of every list endpoint: an opaque keyset `page` token and the page size. */
export const ZPageQuerySchema = z.strictObject({
  page: z.string().max(2_000).optional().meta({ description: 'Opaque page token from a Link header' }),
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .optional()
    .meta({ description: `Items per page, 1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}` }),
});

export const ZIdParamSchema = (name: string) => z.object({ [name]: z.string().regex(/^[1-9][0-9]{0,15}$/) }).meta({});
