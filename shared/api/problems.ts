/**
 * Every problem a response can carry: the stable code used in the server, its HTTP status,
 * its title and the anchor of its `type` URL (`{base_url}/apidoc/v1/posting_data#<anchor>`).
 * The API docs render one section per anchor from `PROBLEM_ANCHORS`.
 */
export const PROBLEMS = {
  'api-version-missing': { status: 400, title: 'Missing API version', anchor: 'api-version' },
  'api-version-unsupported': { status: 406, title: 'Unsupported API version', anchor: 'api-version' },
  'malformed-json': { status: 400, title: 'Malformed JSON', anchor: 'malformed-json' },
  'malformed-request': { status: 400, title: 'Malformed request', anchor: 'malformed-request' },
  'validation-failed': { status: 400, title: 'Validation failed', anchor: 'validation-failed' },
  unauthorized: { status: 401, title: 'Unauthorized', anchor: 'unauthorized' },
  forbidden: { status: 403, title: 'Forbidden', anchor: 'forbidden' },
  'plan-limit': { status: 403, title: 'Plan limit reached', anchor: 'plan-limit' },
  'not-found': { status: 404, title: 'Not found', anchor: 'not-found' },
  'method-not-allowed': { status: 405, title: 'Method not allowed', anchor: 'method-not-allowed' },
  conflict: { status: 409, title: 'Conflict', anchor: 'conflict' },
  'limit-reached': { status: 409, title: 'Limit reached', anchor: 'limit-reached' },
  'idempotency-key-reused': { status: 409, title: 'Idempotency key reused', anchor: 'idempotency-key' },
  'idempotency-key-in-use': { status: 409, title: 'Idempotency key in use', anchor: 'idempotency-key' },
  'invalid-pdf': { status: 400, title: 'Invalid PDF', anchor: 'invalid-pdf' },
  'contract-state': { status: 409, title: 'Contract state does not allow this', anchor: 'contract-state' },
  'payload-too-large': { status: 413, title: 'Payload too large', anchor: 'payload-too-large' },
  'uri-too-long': { status: 414, title: 'URI too long', anchor: 'uri-too-long' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type', anchor: 'unsupported-media-type' },
  'rate-limited': { status: 429, title: 'Too many requests', anchor: 'rate-limited' },
  'internal-error': { status: 500, title: 'Internal server error', anchor: 'internal-error' },
  'service-unavailable': { status: 503, title: 'Service unavailable', anchor: 'service-unavailable' },
  'insufficient-storage': { status: 507, title: 'Insufficient storage', anchor: 'insufficient-storage' },
} as const satisfies Record<string, { status: number; title: string; anchor: string }>;

export type ProblemCode = keyof typeof PROBLEMS;

/** What each anchor means, for the API docs' posting_data page. */
export const PROBLEM_ANCHORS: Record<string, { heading: string; explanation: string }> = {
  'api-version': {
    heading: 'API version',
    explanation:
      'Every request carries the header `Accept-Api-Version` with an integer. A missing or non-integer value is answered with 400; an integer other than 1 with 406.',
  },
  'malformed-json': {
    heading: 'Malformed JSON',
    explanation:
      'The request said `Content-Type: application/json` but its body could not be parsed as JSON. Nothing was changed.',
  },
  'malformed-request': {
    heading: 'Malformed request',
    explanation:
      'The request cannot be read at all: its path is not valid percent-encoding, or its body does not decompress as its `Content-Encoding` says. Nothing was changed.',
  },
  'validation-failed': {
    heading: 'Validation failed',
    explanation:
      'One or more fields are missing, of the wrong type, too long, not one of the allowed values, or unknown. `validation_errors` holds one line per field, `<field>: <what is wrong>`. Read-only fields sent in a body are ignored.',
  },
  unauthorized: {
    heading: 'Unauthorized',
    explanation:
      'The `Authorization` header is missing, is not of the form `token <public_id>:<secret>`, or names a token that does not exist, has a wrong secret, or was revoked.',
  },
  forbidden: {
    heading: 'Forbidden',
    explanation:
      'The token or the acting user may not do this: `Api-User-Uri` names no active user, a customer user asked for an administrator function, or a partner token asked to create a webhook consumer.',
  },
  'plan-limit': {
    heading: 'Plan limit reached',
    explanation:
      "The office's plan, set by its IT partner (`GET /api/partner/subscription`), does not allow this now, and nothing was changed. `detail` names the limit by its field, what is used of it, and when it resets: `contracts_per_month` (a `send`, or a bulk send's row) and `sms_per_month` (the SMS a `send` or `notify` would queue) count the calendar month in the office's time zone and reset when the next month begins, at the time `detail` gives; `seats` (creating or activating a user) frees when a user is deactivated or deleted or the plan gets more seats; `end_date` (a `send` after the plan's last day) lifts when the partner extends the plan. A party's signing is never refused: contracts already sent can still be signed, sealed and downloaded, and messages already queued still go.",
  },
  'not-found': { heading: 'Not found', explanation: 'No resource exists at this path.' },
  'method-not-allowed': {
    heading: 'Method not allowed',
    explanation: 'The path exists but does not take this method. The `Allow` header lists the methods it takes.',
  },
  conflict: {
    heading: 'Conflict',
    explanation:
      'The change would break a rule of the service, for example removing the last active administrator, or retrying an event of a disabled webhook consumer (enable it first).',
  },
  'limit-reached': {
    heading: 'Limit reached',
    explanation:
      'The contract already holds as many of these as it may: at most 50 parties, 500 annotations and 20 attachments per contract. Nothing was changed.',
  },
  'idempotency-key': {
    heading: 'Idempotency key',
    explanation:
      'A POST sent with an `Idempotency-Key` that this caller used in the last 24 hours for another request (another path, query or body), or whose first request is still being answered (try again in a moment: `Retry-After`). Nothing was changed.',
  },
  'invalid-pdf': {
    heading: 'Invalid PDF',
    explanation:
      'The body is not a PDF that can be signed: it is not a PDF at all, it is damaged or cut short, it is encrypted (remove the password first), or it has more than 1,000 pages. `detail` says which. Nothing was stored.',
  },
  'contract-state': {
    heading: 'Contract state',
    explanation:
      'The contract is no longer a draft (it was sent, signed or rejected) and cannot be changed; or a reminder was asked for a signed, rejected or expired contract; or the signed PDF was asked for before every party signed.',
  },
  'payload-too-large': {
    heading: 'Payload too large',
    explanation: 'The body is larger than allowed: 2 MiB (2,097,152 bytes) for PDFs and attachments, 1 MiB for JSON.',
  },
  'uri-too-long': {
    heading: 'URI too long',
    explanation:
      'The request line (method, path and query) and headers together are larger than 16 KiB. Send long values in a JSON body instead of the query. A request whose headers alone are too large gets a 400 `malformed-request`.',
  },
  'unsupported-media-type': {
    heading: 'Unsupported media type',
    explanation:
      'The body is of a content type this endpoint does not take. JSON endpoints take `application/json` and `application/x-www-form-urlencoded`.',
  },
  'rate-limited': {
    heading: 'Rate limited',
    explanation:
      'The token has used its requests for the last minute (30 by default). `X-RateLimit-Reset` and `Retry-After` say when one new request can be made.',
  },
  'internal-error': {
    heading: 'Internal error',
    explanation:
      'Something failed inside the service. Nothing of the request was kept; the error is in the server log.',
  },
  'service-unavailable': {
    heading: 'Service unavailable',
    explanation: 'The service is starting or shutting down. Try again in a moment.',
  },
  'insufficient-storage': {
    heading: 'Insufficient storage',
    explanation:
      "The appliance's disk is full, so the change could not be saved. Nothing of the request was kept; reads go on working. Free some space on the disk that holds SignDesk's data folder and try again.",
  },
};
