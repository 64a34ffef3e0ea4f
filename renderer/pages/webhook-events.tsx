import { Fragment, useEffect, useState } from 'react';
import type { TWebhookConsumer, TWebhookEvent, WebhookDeliveryState } from '../../shared/api/webhooks';
import { useConfirm } from '../components/confirm';
import { DataTable, PagedTable } from '../components/data-table';
import { Badge, Button, Card, EmptyState, ProblemAlert } from '../components/ui';
import { getJson, getPage, idOf, sendJson } from '../lib/api';
import { useT } from '../lib/i18n';
import type { MessageKey } from '../i18n/en';
import { Link } from '../lib/router';
import { useAction } from '../lib/use-action';
import { useLoad } from '../lib/use-load';
import { usePagedList } from '../lib/use-paged-list';

const STATE_TONE: Record<WebhookDeliveryState, 'neutral' | 'success' | 'warning' | 'danger' | 'info'> = {
  held: 'info',
  pending: 'warning',
  delivered: 'success',
  failed: 'danger',
};
const STATE_LABEL: Record<WebhookDeliveryState, MessageKey> = {
  held: 'webhooks.state.held',
  pending: 'webhooks.state.pending',
  delivered: 'webhooks.state.delivered',
  failed: 'webhooks.state.failed',
};

export function DeliveryState({ state }: { state: WebhookDeliveryState }) {
  const t = useT();
  return <Badge tone={STATE_TONE[state]}>{t(STATE_LABEL[state])}</Badge>;
}

/** How many of the consumer's events are held and failed: what the one bulk button offers. */
export function useEventCounts(consumerPath: string) {
  return useLoad(
    async (signal) => {
      const [held, failed] = await Promise.all(
        ['held', 'failed'].map((state) =>
          getPage<TWebhookEvent>(`${consumerPath}/events?state=${state}&per_page=1`, signal),
        ),
      );
      return { held: held?.total ?? 0, failed: failed?.total ?? 0 };
    },
    [consumerPath],
    { pollMs: 3000 },
  );
}

/** Contract names for the log (`/api/contracts/7` means little to an office), read once each. */
function useContractNames(paths: readonly string[]): Map<string, string> {
  const [names, setNames] = useState(new Map<string, string>());
  const missing = paths.filter((path) => path.startsWith('/api/contracts/') && !names.has(path));
  const key = [...new Set(missing)].join(',');
  useEffect(() => {
    if (!key) return;
    let isCurrent = true;
    void Promise.all(
      key.split(',').map(async (path) => {
        try {
          return [path, (await getJson<{ name: string }>(path)).name || `#${idOf(path)}`] as const;
        } catch {
          return [path, ''] as const;
        }
      }),
    ).then((found) => {
      if (isCurrent) setNames((before) => new Map([...before, ...found]));
    });
    return () => {
      isCurrent = false;
    };
  }, [key]);
  return names;
}

function AttemptRows({ event }: { event: TWebhookEvent }) {
  const t = useT();
  if (event.attempts.length === 0) {
    return (
      <p className="muted attempts-empty">
        {event.state === 'held' ? t('webhooks.heldNoAttempts') : t('webhooks.noAttempts')}
      </p>
    );
  }
  return (
    <DataTable
      caption={t('webhooks.attemptsOf', { type: event.type })}
      columns={['#', t('field.time'), t('field.result'), t('field.duration'), t('field.response')]}
      isNested
    >
      {event.attempts.map((attempt, index) => {
        const isOk = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
        return (
          <tr key={`${attempt.time}-${index}`} data-testid="attempt">
            <td className="numeric">{index + 1}</td>
            <td className="numeric">{attempt.time}</td>
            <td>
              {attempt.status_code !== null ? (
                <Badge tone={isOk ? 'success' : 'danger'}>HTTP {attempt.status_code}</Badge>
              ) : null}
              {attempt.error ? <span className="attempt-error"> {attempt.error}</span> : null}
              {attempt.outcome === 'permanent' ? (
                <span className="small muted"> · {t('webhooks.permanent')}</span>
              ) : null}
            </td>
            <td className="numeric">{t('webhooks.ms', { n: attempt.duration_ms })}</td>
            <td>
              {attempt.response_excerpt ? (
                <code className="excerpt">{attempt.response_excerpt}</code>
              ) : (
                <span className="muted">—</span>
              )}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}

/** The event log of one consumer: each event with its delivery, attempts, and (while enabled) a way to send it again. */
export function EventLog({ consumer, onChanged }: { consumer: TWebhookConsumer; onChanged: () => void }) {
  const t = useT();
  const confirm = useConfirm();
  const log = usePagedList<TWebhookEvent>(`${consumer.self}/events?per_page=20`, { pollMs: 3000 });
  const names = useContractNames(log.data?.items.map((event) => event.data.id) ?? []);
  const [open, setOpen] = useState<Set<number>>(new Set());
  const action = useAction();
  const isDisabled = consumer.disabled_time !== null;

  const retry = async (event: TWebhookEvent) => {
    const isRedelivery = event.state === 'delivered';
    if (isRedelivery) {
      const body = t('webhooks.confirmRedeliverBody', { type: event.type, id: String(event.event_id) });
      if (
        !(await confirm({
          title: t('webhooks.confirmRedeliverTitle'),
          body,
          confirmLabel: t('webhooks.sendAgain'),
          tone: 'primary',
        }))
      )
        return;
    }
    void action.run(String(event.event_id), async () => {
      await sendJson(
        'POST',
        `${consumer.self}/events/${event.event_id}/retry`,
        isRedelivery ? { redeliver: true } : undefined,
      );
      await log.reload();
      onChanged();
    });
  };
  const toggle = (id: number) => {
    const next = new Set(open);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setOpen(next);
  };

  return (
    <Card
      title={t('webhooks.eventLog')}
      description={t('webhooks.eventLogDescription')}
      isFlush
      actions={<span className="live-dot" aria-hidden="true" title={t('state.live')} />}
    >
      <ProblemAlert error={action.error ?? log.error} onDismiss={action.error ? action.dismiss : undefined} />
      <PagedTable
        list={log}
        isFramed={false}
        caption={t('webhooks.eventLog')}
        columns={[t('field.event'), t('field.time'), t('field.state'), t('field.attempts')]}
        hasActions
        empty={<EmptyState title={t('webhooks.noEvents')} body={t('webhooks.noEventsBody')} />}
      >
        {(event) => {
          const isOpen = open.has(event.event_id);
          const last = event.attempts.at(-1);
          const name = names.get(event.data.id);
          return (
            <Fragment key={event.event_id}>
              <tr data-testid="event-row" data-state={event.state}>
                <td>
                  <button
                    type="button"
                    className="disclosure"
                    aria-expanded={isOpen}
                    onClick={() => toggle(event.event_id)}
                  >
                    <span className="disclosure-mark" aria-hidden="true" />
                    <span className="mono">{event.type}</span>
                  </button>
                  <div className="small muted event-subject">
                    {name ? (
                      <Link to={`/contracts/${idOf(event.data.id)}`}>{name}</Link>
                    ) : (
                      <span className="mono">{event.data.id}</span>
                    )}
                    <span className="mono"> · {t('webhooks.eventId', { id: String(event.event_id) })}</span>
                  </div>
                </td>
                <td className="numeric">{event.timestamp}</td>
                <td>
                  <DeliveryState state={event.state} />
                  {event.next_attempt_time ? (
                    <span className="muted small"> {t('webhooks.nextAttempt', { time: event.next_attempt_time })}</span>
                  ) : null}
                </td>
                <td className="numeric">
                  {event.attempts.length}
                  {last?.status_code ? <span className="muted"> · HTTP {last.status_code}</span> : null}
                </td>
                <td className="row-actions">
                  {isDisabled || event.state === 'pending' ? null : (
                    <Button
                      size="small"
                      variant={event.state === 'failed' ? 'primary' : 'secondary'}
                      isBusy={action.busy === String(event.event_id)}
                      onClick={() => void retry(event)}
                      aria-label={t(
                        event.state === 'delivered'
                          ? 'webhooks.sendAgainNamed'
                          : event.state === 'held'
                            ? 'webhooks.sendNowNamed'
                            : 'webhooks.retryNamed',
                        { type: event.type, time: event.timestamp },
                      )}
                    >
                      {event.state === 'delivered'
                        ? t('webhooks.sendAgain')
                        : event.state === 'held'
                          ? t('webhooks.sendNow')
                          : t('action.retry')}
                    </Button>
                  )}
                </td>
              </tr>
              {isOpen ? (
                <tr className="row-detail">
                  <td colSpan={5}>
                    <AttemptRows event={event} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        }}
      </PagedTable>
    </Card>
  );
}
