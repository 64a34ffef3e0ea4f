import { useState } from 'react';
import { OUTBOX_STATES, type OutboxState, type TOutboxMessage } from '../../shared/api/outbox';
import { PagedTable } from '../components/data-table';
import { SelectField } from '../components/fields';
import { Badge, Button, EmptyState, Notice, PageHeader, ProblemAlert } from '../components/ui';
import { idOf, sendJson } from '../lib/api';
import { useT } from '../lib/i18n';
import type { MessageKey } from '../i18n/en';
import { Link } from '../lib/router';
import { useAction } from '../lib/use-action';
import { usePagedList } from '../lib/use-paged-list';

const STATE_TONE: Record<OutboxState, 'neutral' | 'success' | 'warning' | 'danger' | 'info'> = {
  queued: 'warning',
  sending: 'info',
  sent: 'success',
  failed: 'danger',
  bounced: 'danger',
  'waiting-for-config': 'warning',
};
const STATE_LABEL: Record<OutboxState, MessageKey> = {
  queued: 'outbox.state.queued',
  sending: 'outbox.state.sending',
  sent: 'outbox.state.sent',
  failed: 'outbox.state.failed',
  bounced: 'outbox.state.bounced',
  'waiting-for-config': 'outbox.state.waiting',
};
/** The outbox takes a retry of a message that failed or bounced; every other state retries by itself. */
const RETRYABLE: ReadonlySet<OutboxState> = new Set(['failed', 'bounced']);

function MessageRow({ message, isBusy, onRetry }: { message: TOutboxMessage; isBusy: boolean; onRetry: () => void }) {
  const t = useT();

  return (
    <tr data-testid="outbox-row">
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
              <Link to={`/contracts/${idOf(message.contract)}`}>
                {t('outbox.contract', { id: idOf(message.contract) })}
              </Link>
            </>
          ) : null}
        </div>
        {message.last_error ? <div className="small text-danger">{message.last_error}</div> : null}
      </td>
      <td>
        <Badge tone={STATE_TONE[message.state]}>{t(STATE_LABEL[message.state])}</Badge>
        {message.sent_time ? <div className="small muted nowrap">{message.sent_time}</div> : null}
        {message.next_attempt_time && !message.sent_time ? (
          <div className="small muted nowrap">{t('webhooks.nextAttempt', { time: message.next_attempt_time })}</div>
        ) : null}
      </td>
      <td className="numeric">{message.attempts}</td>
      <td className="numeric">{message.created_time}</td>
      <td className="row-actions">
        {RETRYABLE.has(message.state) ? (
          <Button
            size="small"
            isBusy={isBusy}
            onClick={onRetry}
            aria-label={t('outbox.retryNamed', { to: message.to })}
          >
            {t('action.retry')}
          </Button>
        ) : null}
      </td>
    </tr>
  );
}

export function OutboxPage() {
  const t = useT();
  const [filters, setFilters] = useState({ state: '', channel: '' });
  const query = new URLSearchParams({ per_page: '20' });
  if (filters.state) query.set('state', filters.state);
  if (filters.channel) query.set('channel', filters.channel);
  const list = usePagedList<TOutboxMessage>(`/api/outbox?${query.toString()}`, { pollMs: 3000 });
  const action = useAction();

  const retry = (message: TOutboxMessage) =>
    void action.run(message.self, async () => {
      await sendJson('POST', `${message.self}/retry`);
      await list.reload();
    });

  const isWaiting = list.data?.items.some((message) => message.state === 'waiting-for-config');
  const states = OUTBOX_STATES.map((state) => ({ value: state, label: t(STATE_LABEL[state]) }));
  const channels = [
    { value: 'email', label: t('outbox.email') },
    { value: 'sms', label: 'SMS' },
  ];
  return (
    <>
      <PageHeader title={t('outbox.title')} description={t('outbox.description')} />
      <div className="filters filters-compact card" role="search">
        <SelectField
          label={t('field.state')}
          options={[{ value: '', label: t('outbox.allStates') }, ...states]}
          value={filters.state}
          onValue={(state) => setFilters({ ...filters, state })}
        />
        <SelectField
          label={t('field.channel')}
          options={[{ value: '', label: t('outbox.allChannels') }, ...channels]}
          value={filters.channel}
          onValue={(channel) => setFilters({ ...filters, channel })}
        />
      </div>
      {isWaiting ? (
        <Notice tone="warning" title={t('outbox.waitingTitle')}>
          {t('outbox.waitingBody')}
        </Notice>
      ) : null}
      <ProblemAlert error={action.error ?? list.error} onDismiss={action.error ? action.dismiss : undefined} />
      <PagedTable
        list={list}
        caption={t('outbox.title')}
        columns={[t('field.to'), t('field.subject'), t('field.state'), t('field.attempts'), t('field.created')]}
        hasActions
        empty={<EmptyState title={t('outbox.emptyTitle')} body={t('outbox.emptyBody')} />}
      >
        {(message) => (
          <MessageRow
            key={message.self}
            message={message}
            isBusy={action.busy === message.self}
            onRetry={() => retry(message)}
          />
        )}
      </PagedTable>
    </>
  );
}
