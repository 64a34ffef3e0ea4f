import { z } from 'zod';

/**
 * The messages between the Electron shell (or a test) and the server host process
 * (`server/host.ts`). The same messages travel over Electron's `process.parentPort` and over
 * Node's `child_process.fork` IPC channel. Requests that expect an answer carry an `id` that
 * the answer echoes.
 */

export const ZServerStatusSchema = z.object({
  /** Where the server listens, e.g. http://127.0.0.1:8750 */
  url: z.string(),
  /** The base URL of the office's own links and the API (PUBLIC_BASE_URL, else `url`; `url` when PUBLIC_PORT is set). */
  baseUrl: z.string(),
  /** The base of the links parties get (PUBLIC_BASE_URL, else the party listener's URL, else `baseUrl`). */
  publicBaseUrl: z.string().optional(),
  /** Webhook deliveries waiting in the durable queue (due later or being sent). */
  queuedDeliveries: z.number().int().nonnegative(),
  /** Mail and SMS messages waiting in the outbox. */
  outboxPending: z.number().int().nonnegative(),
});
export type TServerStatus = z.infer<typeof ZServerStatusSchema>;

const requestId = z.number().int().nonnegative();

/** Parent to host. */
export const ZHostRequestSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('status'), id: requestId }),
  z.strictObject({ type: z.literal('admin-login-url'), id: requestId }),
  z.strictObject({ type: z.literal('shutdown') }),
]);
export type THostRequest = z.infer<typeof ZHostRequestSchema>;

/** How the message of a server refused because another holds its DATA_DIR begins (the shell's dialog tells it apart). */
export const DATA_DIR_BUSY_PREFIX = 'Another SignDesk';

/** Host to parent. */
export const ZHostEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), url: z.string(), dataDir: z.string(), logsDir: z.string() }),
  z.object({ type: z.literal('status'), id: requestId, ...ZServerStatusSchema.shape }),
  /** `url` is null when no administrator exists yet (or the server cannot make login links). */
  z.object({ type: z.literal('admin-login-url'), id: requestId, url: z.string().nullable() }),
  /** The request could not be answered (e.g. the database is already closed). */
  z.object({ type: z.literal('request-failed'), id: requestId, message: z.string() }),
  /** Shutdown has begun: no new requests are taken; work in flight is finishing. */
  z.object({ type: z.literal('stopping') }),
  /** The server could not start or died; the process exits next. */
  z.object({ type: z.literal('failed'), message: z.string(), logsDir: z.string().nullable() }),
]);
export type THostEvent = z.infer<typeof ZHostEventSchema>;

export function parseHostRequest(message: unknown): THostRequest | undefined {
  const parsed = ZHostRequestSchema.safeParse(message);
  return parsed.success ? parsed.data : undefined;
}

export function parseHostEvent(message: unknown): THostEvent | undefined {
  const parsed = ZHostEventSchema.safeParse(message);
  return parsed.success ? parsed.data : undefined;
}
