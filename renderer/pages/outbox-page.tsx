import { useState } from 'react';
import { Badge, Button, EmptyState, Field, Loading, Notice, PageHeader, Pagination, ProblemAlert } from '../components/ui';
import { getPage, idOf, sendJson, type ApiError } from '../lib/api';
import { useFeatures } from '../lib/features';
import { asApiError } from '../lib/forms';
import { useT } from '../lib/i18n';
import type { MessageKey } from '../i18n/en';
import { Link } from '../lib/router';
import { useLoad } from '../lib/use-load';

/** An outbox message as the outbox API gives it (GET /api/outbox). */
type Message = {
  self: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  purpose: string;
  contract?: string | null;
  state: string;
  attempts: number;
  last_error: string | null;
  response?: string | null;
  created_time: string;
  sent_time: string | null;
  next_attempt_time: string | null;
};

const STATES = ['queued', 'sending', 'sent', 'failed', 'bounced', 'waiting-for-config'] as const;
const STATE_TONE: Record<string, 'neutral' | 'success' | 'warning' | 'danger' | 'info'> = {
  queued: 'warning',
  sending: 'info',
  sent: 'success',
  failed: 'danger',
  bounced: 'danger',
  'waiting-for-config': 'warning',
};
const STATE_LABEL: Record<string, MessageKey> = {
  queued: 'outbox.state.queued',
  sending: 'outbox.state.sending',
  sent: 'outbox.state.sent',
  failed: 'outbox.state.failed',
  bounced: 'outbox.state.bounced',
  'waiting-for-config': 'outbox.state.waiting',
};
/** The outbox takes a retry of a message that failed or bounced; every other state retries by itself. */
const RETRYABLE = new Set(['failed', 'bounced']);

export function OutboxPage() {
  const t = useT();
  const features = useFeatures();
  const [filters, setFilters] = useState({ state: '', channel: '' });
  const [pageToken, setPageToken] = useState<string>();
  const query = new URLSearchParams({ per_page: '20' });
  if (filters.state) query.set('state', filters.state);
  if (filters.channel) query.set('channel', filters.channel);
  const path = pageToken ?? `/api/outbox?${query.toString()}`;
  const list = useLoad((signal) => (features.outbox ? getPage<Message>(path, signal) : Promise.resolve(undefined)), [path, features.outbox], { pollMs: 3000 });
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState<string>();

  const retry = async (message: Message) => {
    setBusy(message.self);
    try {
      await sendJson('POST', `${message.self}/retry`);
      setError(undefined);
      await list.reload();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(undefined);
    }
  };
  const change = (name: 'state' | 'channel') => (event: { target: { value: string } }) => {
    setPageToken(undefined);
    setFilters({ ...filters, [name]: event.target.value });
  };

  if (features.isKnown && !features.outbox) {
    return (
      <>
        <PageHeader title={t('outbox.title')} description={t('outbox.description')} />
        <Notice title={t('feature.notYet')}>{t('feature.notYetBody')}</Notice>
      </>
    );
  }
  const page = list.data;
  const waiting = page?.items.some((message) => message.state === 'waiting-for-config');
  return (
    <>
      <PageHeader title={t('outbox.title')} description={t('outbox.description')} />
      <div className="filters filters-compact card" role="search">
        <Field label={t('field.state')}>
          {(id) => (
            <select id={id} className="input" value={filters.state} onChange={change('state')}>
              <option value="">{t('outbox.allStates')}</option>
              {STATES.map((state) => (
                <option key={state} value={state}>
                  {t(STATE_LABEL[state] as MessageKey)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('field.channel')}>
          {(id) => (
            <select id={id} className="input" value={filters.channel} onChange={change('channel')}>
              <option value="">{t('outbox.allChannels')}</option>
              <option value="email">{t('outbox.email')}</option>
              <option value="sms">SMS</option>
            </select>
          )}
        </Field>
      </div>
      {waiting ? (
        <Notice tone="warning" title={t('outbox.waitingTitle')}>
          {t('outbox.waitingBody')}
        </Notice>
      ) : null}
      <ProblemAlert error={error ?? list.error} onDismiss={error ? () => setError(undefined) : undefined} />
      {(list.isLoading || !features.isKnown) && !page ? <Loading /> : null}
      {page && page.items.length === 0 ? <EmptyState title={t('outbox.emptyTitle')} body={t('outbox.emptyBody')} /> : null}
      {page && page.items.length > 0 ? (
        <div className="card">
          <div className="table-wrap" tabIndex={0}>
            <table className="table">
              <caption className="visually-hidden">{t('outbox.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('field.to')}</th>
                  <th scope="col">{t('field.subject')}</th>
                  <th scope="col">{t('field.state')}</th>
                  <th scope="col">{t('field.attempts')}</th>
                  <th scope="col">{t('field.created')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('field.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((message) => {
                  const label = STATE_LABEL[message.state];
                  return (
                    <tr key={message.self} data-testid="outbox-row">
                      <td>
                        <Badge tone="info">{message.channel === 'sms' ? 'SMS' : t('outbox.email')}</Badge>
                        <div className="mono small cell-address">{message.to}</div>
                      </td>
                      <td className="cell-wide">
                        {message.subject ?? <span className="muted">{message.purpose}</span>}
                        <div className="small muted">
                          {message.subject ? message.purpose : null}
                          {message.contract ? (
                            <>
                              {message.subject ? ' · ' : ''}
                              <Link to={`/contracts/${idOf(message.contract)}`}>{t('outbox.contract', { id: idOf(message.contract) })}</Link>
                            </>
                          ) : null}
                        </div>
                        {message.last_error ? <div className="small text-danger">{message.last_error}</div> : null}
                      </td>
                      <td>
                        <Badge tone={STATE_TONE[message.state] ?? 'neutral'}>{label ? t(label) : message.state}</Badge>
                        {message.sent_time ? <div className="small muted nowrap">{message.sent_time}</div> : null}
                        {message.next_attempt_time && !message.sent_time ? <div className="small muted nowrap">{t('webhooks.nextAttempt', { time: message.next_attempt_time })}</div> : null}
                      </td>
                      <td className="numeric">{message.attempts}</td>
                      <td className="numeric">{message.created_time}</td>
                      <td className="row-actions">
                        {RETRYABLE.has(message.state) ? (
                          <Button size="small" isBusy={busy === message.self} onClick={() => void retry(message)} aria-label={t('outbox.retryNamed', { to: message.to })}>
                            {t('action.retry')}
                          </Button>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pagination
            page={page.page}
            pages={page.pages}
            total={page.total}
            onPrevious={page.previous ? () => setPageToken(page.previous) : undefined}
            onNext={page.next ? () => setPageToken(page.next) : undefined}
          />
        </div>
      ) : null}
    </>
  );
}
