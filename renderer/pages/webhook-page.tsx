import { Fragment, useEffect, useState } from 'react';
import { DataTable, PagedTable } from '../components/data-table';
import { TextField } from '../components/fields';
import { Badge, Button, Card, EmptyState, Loading, PageHeader, ProblemAlert } from '../components/ui';
import { getJson, sendJson } from '../lib/api';
import { useT } from '../lib/i18n';
import { Link, useRouter } from '../lib/router';
import { useAction } from '../lib/use-action';
import { useLoad } from '../lib/use-load';
import { usePagedList } from '../lib/use-paged-list';
import { deliveryTone, isFailedState, readEvent, type LoggedEvent, type WebhookConsumer } from '../lib/webhook-shapes';
import { ConsumerState, ContactField, KeyDetails } from './webhooks-page';

function AttemptRows({ event }: { event: LoggedEvent }) {
  const t = useT();
  if (event.attempts.length === 0) return <p className="muted attempts-empty">{t('webhooks.noAttempts')}</p>;
  return (
    <DataTable caption={t('webhooks.attemptsOf', { type: event.type })} columns={['#', t('field.time'), t('field.result'), t('field.duration'), t('field.response')]} isNested>
      {event.attempts.map((attempt, index) => {
        const isOk = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
        return (
          <tr key={`${attempt.time}-${index}`} data-testid="attempt">
            <td className="numeric">{index + 1}</td>
            <td className="numeric">{attempt.time}</td>
            <td>
              {attempt.status !== null ? <Badge tone={isOk ? 'success' : 'danger'}>HTTP {attempt.status}</Badge> : null}
              {attempt.error ? <span className="attempt-error"> {attempt.error}</span> : null}
              {attempt.outcome === 'permanent' ? <span className="small muted"> · {t('webhooks.permanent')}</span> : null}
            </td>
            <td className="numeric">{attempt.durationMs !== null ? t('webhooks.ms', { n: attempt.durationMs }) : '—'}</td>
            <td>{attempt.excerpt ? <code className="excerpt">{attempt.excerpt}</code> : <span className="muted">—</span>}</td>
          </tr>
        );
      })}
    </DataTable>
  );
}

function EventLog({ consumerPath }: { consumerPath: string }) {
  const t = useT();
  const log = usePagedList<Record<string, unknown>>(`${consumerPath}/events?per_page=20`, { pollMs: 3000 });
  const [open, setOpen] = useState<Set<string>>(new Set());
  const action = useAction();

  const retry = (event: LoggedEvent) =>
    void action.run(event.id, async () => {
      await sendJson('POST', `${consumerPath}/events/${event.id}/retry`);
      await log.reload();
    });
  const toggle = (id: string) => {
    const next = new Set(open);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setOpen(next);
  };

  return (
    <Card title={t('webhooks.eventLog')} description={t('webhooks.eventLogDescription')} isFlush actions={<span className="live-dot" aria-hidden="true" title={t('state.live')} />}>
      <ProblemAlert error={action.error ?? log.error} onDismiss={action.error ? action.dismiss : undefined} />
      <PagedTable
        list={log}
        isFramed={false}
        caption={t('webhooks.eventLog')}
        columns={[t('field.event'), t('field.time'), t('field.state'), t('field.attempts')]}
        hasActions
        empty={<EmptyState title={t('webhooks.noEvents')} body={t('webhooks.noEventsBody')} />}
      >
        {(item) => {
          const event = readEvent(item);
          const isOpen = open.has(event.id);
          const last = event.attempts.at(-1);
          return (
            <Fragment key={event.id}>
              <tr data-testid="event-row" data-state={event.state}>
                <td>
                  <button type="button" className="disclosure" aria-expanded={isOpen} onClick={() => toggle(event.id)}>
                    <span className="disclosure-mark" aria-hidden="true" />
                    <span className="mono">{event.type}</span>
                  </button>
                  {event.subject ? <div className="small muted mono event-subject">{event.subject}</div> : null}
                </td>
                <td className="numeric">{event.time}</td>
                <td>
                  <Badge tone={deliveryTone(event.state)}>{event.state}</Badge>
                  {event.nextAttempt ? <span className="muted small"> {t('webhooks.nextAttempt', { time: event.nextAttempt })}</span> : null}
                </td>
                <td className="numeric">
                  {event.attempts.length}
                  {last?.status ? <span className="muted"> · HTTP {last.status}</span> : null}
                </td>
                <td className="row-actions">
                  <Button size="small" variant={isFailedState(event.state) ? 'primary' : 'secondary'} isBusy={action.busy === event.id} onClick={() => retry(event)} aria-label={t('webhooks.retryNamed', { type: event.type, time: event.time })}>
                    {t('action.retry')}
                  </Button>
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

function EditConsumer({ consumer, onSaved }: { consumer: WebhookConsumer; onSaved: () => void }) {
  const t = useT();
  const [url, setUrl] = useState(consumer.url);
  const [contact, setContact] = useState(consumer.contact_email ?? '');
  const save = useAction();
  useEffect(() => {
    setUrl(consumer.url);
    setContact(consumer.contact_email ?? '');
  }, [consumer.url, consumer.contact_email]);
  const submit = save.submit('save', async () => {
    await sendJson('PUT', consumer.self, { url, contact_email: contact.trim() || null });
    onSaved();
  });
  return (
    <form onSubmit={submit} noValidate>
      <ProblemAlert error={save.error} />
      <TextField label={t('field.url')} error={save.errors.url} value={url} onValue={setUrl} className="mono" />
      <ContactField value={contact} onValue={setContact} error={save.errors.contact_email} />
      <div className="form-actions">
        <Button type="submit" isBusy={save.busy === 'save'} disabled={url === consumer.url && contact === (consumer.contact_email ?? '')}>
          {t('action.save')}
        </Button>
      </div>
    </form>
  );
}

export function WebhookPage({ id }: { id: string }) {
  const t = useT();
  const { navigate } = useRouter();
  const path = `/api/webhooks/${id}`;
  const loaded = useLoad((signal) => getJson<WebhookConsumer>(path, signal), [path], { pollMs: 3000 });
  const action = useAction<'enable' | 'delete'>();

  if (loaded.error && !loaded.data) return <ProblemAlert error={loaded.error} />;
  const consumer = loaded.data;
  if (!consumer) return <Loading />;

  const enable = () =>
    void action.run('enable', async () => {
      await sendJson('POST', `${path}/enable`);
      await loaded.reload();
    });
  const remove = () => {
    if (!window.confirm(t('webhooks.confirmDelete', { url: consumer.url }))) return;
    void action.run('delete', async () => {
      await sendJson('DELETE', path);
      navigate('/webhooks');
    });
  };

  return (
    <>
      <PageHeader
        title={consumer.url}
        back={<Link to="/webhooks">← {t('nav.webhooks')}</Link>}
        actions={
          <>
            <ConsumerState consumer={consumer} />
            <Button variant="danger" onClick={remove} isBusy={action.busy === 'delete'}>
              {t('action.delete')}
            </Button>
          </>
        }
      />
      <ProblemAlert error={action.error} onDismiss={action.dismiss} />
      {consumer.disabled_time ? (
        <div className="alert alert-danger alert-action" role="alert">
          <div className="alert-body">
            <strong className="alert-title">{t('webhooks.disabledTitle')}</strong>
            <p>{t('webhooks.disabledBody', { time: consumer.disabled_time })}</p>
          </div>
          <Button variant="primary" onClick={enable} isBusy={action.busy === 'enable'}>
            {t('webhooks.reenable')}
          </Button>
        </div>
      ) : null}
      <div className="grid-2">
        <Card title={t('webhooks.verification')} description={t('webhooks.verificationDescription')}>
          <KeyDetails consumer={consumer} />
        </Card>
        <Card title={t('webhooks.settings')}>
          <EditConsumer consumer={consumer} onSaved={() => void loaded.reload()} />
        </Card>
      </div>
      <EventLog consumerPath={path} />
    </>
  );
}
