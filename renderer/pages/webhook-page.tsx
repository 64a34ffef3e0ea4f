import { Fragment, useEffect, useState, type FormEvent } from 'react';
import { Badge, Button, Card, EmptyState, Field, Loading, PageHeader, Pagination, ProblemAlert } from '../components/ui';
import { getJson, getPage, sendJson, type ApiError } from '../lib/api';
import { asApiError, fieldErrors } from '../lib/forms';
import { useT } from '../lib/i18n';
import { Link, useRouter } from '../lib/router';
import { useLoad } from '../lib/use-load';
import { deliveryTone, isFailedState, readEvent, type LoggedEvent, type WebhookConsumer } from '../lib/webhook-shapes';
import { ConsumerState, KeyDetails } from './webhooks-page';

function AttemptRows({ event }: { event: LoggedEvent }) {
  const t = useT();
  if (event.attempts.length === 0) return <p className="muted attempts-empty">{t('webhooks.noAttempts')}</p>;
  return (
    <table className="table table-nested">
      <caption className="visually-hidden">{t('webhooks.attemptsOf', { type: event.type })}</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">{t('field.time')}</th>
          <th scope="col">{t('field.result')}</th>
          <th scope="col">{t('field.duration')}</th>
          <th scope="col">{t('field.response')}</th>
        </tr>
      </thead>
      <tbody>
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
      </tbody>
    </table>
  );
}

function EventLog({ consumerPath }: { consumerPath: string }) {
  const t = useT();
  const [pagePath, setPagePath] = useState(`${consumerPath}/events?per_page=20`);
  const log = useLoad((signal) => getPage<Record<string, unknown>>(pagePath, signal), [pagePath], { pollMs: 3000 });
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState<string>();

  const retry = async (event: LoggedEvent) => {
    setBusy(event.id);
    try {
      await sendJson('POST', `${consumerPath}/events/${event.id}/retry`);
      await log.reload();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(undefined);
    }
  };
  const toggle = (id: string) => {
    const next = new Set(open);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setOpen(next);
  };

  const page = log.data;
  const events = page?.items.map(readEvent) ?? [];
  return (
    <Card title={t('webhooks.eventLog')} description={t('webhooks.eventLogDescription')} isFlush actions={<span className="live-dot" aria-hidden="true" title={t('state.live')} />}>
      <ProblemAlert error={error ?? log.error} onDismiss={error ? () => setError(undefined) : undefined} />
      {log.isLoading && !page ? <Loading /> : null}
      {page && events.length === 0 ? <EmptyState title={t('webhooks.noEvents')} body={t('webhooks.noEventsBody')} /> : null}
      {events.length > 0 ? (
        <div className="table-wrap" tabIndex={0}>
          <table className="table">
            <caption className="visually-hidden">{t('webhooks.eventLog')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('field.event')}</th>
                <th scope="col">{t('field.time')}</th>
                <th scope="col">{t('field.state')}</th>
                <th scope="col">{t('field.attempts')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('field.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => {
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
                        <Button size="small" variant={isFailedState(event.state) ? 'primary' : 'secondary'} isBusy={busy === event.id} onClick={() => void retry(event)} aria-label={t('webhooks.retryNamed', { type: event.type, time: event.time })}>
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
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {page && events.length > 0 ? (
        <Pagination
          page={page.page}
          pages={page.pages}
          total={page.total}
          onPrevious={page.previous ? () => setPagePath(page.previous as string) : undefined}
          onNext={page.next ? () => setPagePath(page.next as string) : undefined}
        />
      ) : null}
    </Card>
  );
}

function EditConsumer({ consumer, onSaved }: { consumer: WebhookConsumer; onSaved: () => void }) {
  const t = useT();
  const [url, setUrl] = useState(consumer.url);
  const [contact, setContact] = useState(consumer.contact_email ?? '');
  const [error, setError] = useState<ApiError>();
  const [isBusy, setIsBusy] = useState(false);
  useEffect(() => {
    setUrl(consumer.url);
    setContact(consumer.contact_email ?? '');
  }, [consumer.url, consumer.contact_email]);
  const errors = fieldErrors(error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setIsBusy(true);
    try {
      await sendJson('PUT', consumer.self, { url, contact_email: contact.trim() || null });
      setError(undefined);
      onSaved();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <ProblemAlert error={error} />
      <Field label={t('field.url')} error={errors.url}>
        {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input mono" value={url} onChange={(event) => setUrl(event.target.value)} />}
      </Field>
      <Field label={t('field.contactEmail')} hint={t('webhooks.contactHint')} error={errors.contact_email}>
        {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="email" value={contact} onChange={(event) => setContact(event.target.value)} />}
      </Field>
      <div className="form-actions">
        <Button type="submit" isBusy={isBusy} disabled={url === consumer.url && contact === (consumer.contact_email ?? '')}>
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
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState<'enable' | 'delete'>();

  if (loaded.error && !loaded.data) return <ProblemAlert error={loaded.error} />;
  const consumer = loaded.data;
  if (!consumer) return <Loading />;

  const enable = async () => {
    setBusy('enable');
    try {
      await sendJson('POST', `${path}/enable`);
      await loaded.reload();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(undefined);
    }
  };
  const remove = async () => {
    if (!window.confirm(t('webhooks.confirmDelete', { url: consumer.url }))) return;
    setBusy('delete');
    try {
      await sendJson('DELETE', path);
      navigate('/webhooks');
    } catch (err) {
      setError(asApiError(err));
      setBusy(undefined);
    }
  };

  return (
    <>
      <PageHeader
        title={consumer.url}
        back={<Link to="/webhooks">← {t('nav.webhooks')}</Link>}
        actions={
          <>
            <ConsumerState consumer={consumer} />
            <Button variant="danger" onClick={() => void remove()} isBusy={busy === 'delete'}>
              {t('action.delete')}
            </Button>
          </>
        }
      />
      <ProblemAlert error={error} onDismiss={() => setError(undefined)} />
      {consumer.disabled_time ? (
        <div className="alert alert-danger alert-action" role="alert">
          <div className="alert-body">
            <strong className="alert-title">{t('webhooks.disabledTitle')}</strong>
            <p>{t('webhooks.disabledBody', { time: consumer.disabled_time })}</p>
          </div>
          <Button variant="primary" onClick={() => void enable()} isBusy={busy === 'enable'}>
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
