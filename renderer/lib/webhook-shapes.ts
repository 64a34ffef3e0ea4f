/**
 * The webhook consumer of interface.md and the event log of seams.md, read defensively: the
 * webhooks API is built beside this UI and names may differ slightly.
 */
export type WebhookConsumer = {
  self: string;
  url: string;
  contact_email?: string | null;
  public_key: string;
  key_id: string;
  created_time: string;
  disabled_time?: string | null;
  created_by?: string;
  [extra: string]: unknown;
};

export type Attempt = {
  time: string;
  status: number | null;
  error: string | null;
  durationMs: number | null;
  excerpt: string | null;
  /** delivered, retry, failed or permanent */
  outcome: string | null;
};

export type LoggedEvent = {
  id: string;
  type: string;
  time: string;
  /** The resource the event is about (data.id), e.g. /api/contracts/12 */
  subject: string | null;
  state: string;
  attempts: Attempt[];
  nextAttempt: string | null;
};

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function readAttempt(raw: Record<string, unknown>): Attempt {
  return {
    time: str(raw.time ?? raw.attempted_time ?? raw.created_time ?? raw.started_time) ?? '',
    status: num(raw.status_code ?? raw.status ?? raw.response_status),
    error: str(raw.error ?? raw.error_message),
    durationMs: num(raw.duration_ms ?? raw.duration),
    excerpt: str(raw.response_excerpt ?? raw.response_body ?? raw.excerpt),
    outcome: str(raw.outcome),
  };
}

export function readEvent(raw: Record<string, unknown>): LoggedEvent {
  const deliveries = Array.isArray(raw.deliveries) ? (raw.deliveries as Record<string, unknown>[]) : [];
  const delivery = (raw.delivery as Record<string, unknown> | undefined) ?? deliveries[0] ?? {};
  const attemptsRaw = (Array.isArray(raw.attempts) ? raw.attempts : Array.isArray(delivery.attempts) ? delivery.attempts : []) as Record<string, unknown>[];
  const self = str(raw.self) ?? '';
  const data = (raw.data ?? {}) as Record<string, unknown>;
  return {
    id: self.split('/').filter(Boolean).at(-1) ?? str(raw.event_id ?? raw.id) ?? '',
    type: str(raw.type) ?? '',
    time: str(raw.created_time ?? raw.timestamp ?? raw.time) ?? '',
    subject: str(data.id),
    state: str(raw.delivery_state ?? raw.state ?? raw.status ?? delivery.state ?? delivery.status) ?? 'unknown',
    attempts: attemptsRaw.map(readAttempt),
    nextAttempt: str(raw.next_attempt_time ?? delivery.next_attempt_time),
  };
}

export type StateTone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

export function deliveryTone(state: string): StateTone {
  if (/deliver|success|succeed|ok|done|sent/i.test(state)) return 'success';
  if (/fail|dead|gave|abandon|disabled/i.test(state)) return 'danger';
  if (/retry|pending|queue|wait|scheduled|running/i.test(state)) return 'warning';
  return 'neutral';
}

export const isFailedState = (state: string) => deliveryTone(state) === 'danger';
