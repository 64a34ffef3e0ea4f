import { useState } from 'react';
import { Badge, Button, EmptyState, Loading, Notice, PageHeader, Pagination, ProblemAlert } from '../components/ui';
import { getPage, sendJson, type ApiError } from '../lib/api';
import { useFeatures } from '../lib/features';
import { asApiError } from '../lib/forms';
import { useT } from '../lib/i18n';
import { useLoad } from '../lib/use-load';
import { deliveryTone } from '../lib/webhook-shapes';

/** An outbox message as seams.md describes it; read defensively until the outbox API merges. */
type Message = {
  self: string;
  channel?: string;
  to?: string;
  subject?: string | null;
  purpose?: string;
  state?: string;
  attempts?: number;
  last_error?: string | null;
  created_time?: string;
  sent_time?: string | null;
  next_attempt_time?: string | null;
};

export function OutboxPage() {
  const t = useT();
  const features = useFeatures();
  const [pagePath, setPagePath] = useState('/api/outbox?per_page=20');
  const list = useLoad((signal) => (features.outbox ? getPage<Message>(pagePath, signal) : Promise.resolve(undefined)), [pagePath, features.outbox], { pollMs: 3000 });
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState<string>();

  const retry = async (message: Message) => {
    setBusy(message.self);
    try {
      await sendJson('POST', `${message.self}/retry`);
      await list.reload();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(undefined);
    }
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
  return (
    <>
      <PageHeader title={t('outbox.title')} description={t('outbox.description')} />
      <ProblemAlert error={error ?? list.error} onDismiss={error ? () => setError(undefined) : undefined} />
      {(list.isLoading || !features.isKnown) && !page ? <Loading /> : null}
      {page && page.items.length === 0 ? <EmptyState title={t('outbox.emptyTitle')} body={t('outbox.emptyBody')} /> : null}
      {page && page.items.length > 0 ? (
        <div className="card">
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">{t('outbox.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('field.channel')}</th>
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
                  const state = message.state ?? 'unknown';
                  const isStuck = deliveryTone(state) === 'danger' || /bounce/i.test(state);
                  return (
                    <tr key={message.self}>
                      <td>
                        <Badge tone="info">{message.channel === 'sms' ? 'SMS' : t('outbox.email')}</Badge>
                      </td>
                      <td className="mono">{message.to}</td>
                      <td className="cell-wide">
                        {message.subject || <span className="muted">{message.purpose}</span>}
                        {message.last_error ? <div className="small text-danger">{message.last_error}</div> : null}
                      </td>
                      <td>
                        <Badge tone={/bounce/i.test(state) ? 'danger' : deliveryTone(state)}>{state}</Badge>
                        {message.sent_time ? <div className="small muted">{message.sent_time}</div> : null}
                        {message.next_attempt_time && !message.sent_time ? <div className="small muted">{t('webhooks.nextAttempt', { time: message.next_attempt_time })}</div> : null}
                      </td>
                      <td className="numeric">{message.attempts ?? 0}</td>
                      <td className="numeric">{message.created_time}</td>
                      <td className="row-actions">
                        {message.sent_time && !isStuck ? null : (
                          <Button size="small" isBusy={busy === message.self} onClick={() => void retry(message)} aria-label={t('outbox.retryNamed', { to: message.to ?? '' })}>
                            {t('action.retry')}
                          </Button>
                        )}
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
            onPrevious={page.previous ? () => setPagePath(page.previous as string) : undefined}
            onNext={page.next ? () => setPagePath(page.next as string) : undefined}
          />
        </div>
      ) : null}
    </>
  );
}
