import { useState, type FormEvent } from 'react';
import { Badge, Button, CopyButton, Dialog, EmptyState, Field, Loading, Notice, PageHeader, Pagination, ProblemAlert } from '../components/ui';
import { getPage, idOf, sendJson, type ApiError } from '../lib/api';
import { useFeatures } from '../lib/features';
import { asApiError, fieldErrors } from '../lib/forms';
import { useT } from '../lib/i18n';
import { Link } from '../lib/router';
import { useLoad } from '../lib/use-load';
import type { WebhookConsumer } from '../lib/webhook-shapes';

function CreateConsumerDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (consumer: WebhookConsumer) => void }) {
  const t = useT();
  const [url, setUrl] = useState('');
  const [contact, setContact] = useState('');
  const [error, setError] = useState<ApiError>();
  const [isBusy, setIsBusy] = useState(false);
  const errors = fieldErrors(error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setIsBusy(true);
    try {
      onCreated(await sendJson<WebhookConsumer>('POST', '/api/webhooks', { url, ...(contact.trim() ? { contact_email: contact.trim() } : {}) }));
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Dialog title={t('webhooks.new')} isOpen onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <ProblemAlert error={error} />
        <Field label={t('field.url')} hint={t('webhooks.urlHint')} error={errors.url}>
          {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input mono" type="url" value={url} onChange={(event) => setUrl(event.target.value)} required autoFocus placeholder="https://" />}
        </Field>
        <Field label={t('field.contactEmail')} hint={t('webhooks.contactHint')} error={errors.contact_email}>
          {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="email" value={contact} onChange={(event) => setContact(event.target.value)} />}
        </Field>
        <div className="form-actions">
          <Button onClick={onClose}>{t('action.cancel')}</Button>
          <Button type="submit" variant="primary" isBusy={isBusy}>
            {t('action.create')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function ConsumerState({ consumer }: { consumer: WebhookConsumer }) {
  const t = useT();
  if (!consumer.disabled_time) return <Badge tone="success">{t('webhooks.enabled')}</Badge>;
  return (
    <span className="state-stack">
      <Badge tone="danger">{t('webhooks.disabled')}</Badge>
      <span className="small muted nowrap">{t('webhooks.since', { time: consumer.disabled_time })}</span>
    </span>
  );
}

export function WebhooksPage() {
  const t = useT();
  const features = useFeatures();
  const [pagePath, setPagePath] = useState('/api/webhooks?per_page=20');
  const list = useLoad((signal) => (features.webhooks ? getPage<WebhookConsumer>(pagePath, signal) : Promise.resolve(undefined)), [pagePath, features.webhooks], { pollMs: 3000 });
  const [dialog, setDialog] = useState<{ kind: 'create' } | { kind: 'created'; consumer: WebhookConsumer }>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState<string>();

  const enable = async (consumer: WebhookConsumer) => {
    setBusy(consumer.self);
    try {
      await sendJson('POST', `${consumer.self}/enable`);
      await list.reload();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(undefined);
    }
  };

  if (features.isKnown && !features.webhooks) {
    return (
      <>
        <PageHeader title={t('webhooks.title')} description={t('webhooks.description')} />
        <Notice title={t('feature.notYet')}>{t('feature.notYetBody')}</Notice>
      </>
    );
  }
  const page = list.data;
  const disabledCount = page?.items.filter((consumer) => consumer.disabled_time).length ?? 0;
  return (
    <>
      <PageHeader title={t('webhooks.title')} description={t('webhooks.description')} actions={<Button variant="primary" onClick={() => setDialog({ kind: 'create' })}>{t('webhooks.new')}</Button>} />
      <ProblemAlert error={error ?? list.error} onDismiss={error ? () => setError(undefined) : undefined} />
      {disabledCount > 0 ? (
        <Notice tone="warning" title={disabledCount === 1 ? t('webhooks.disabledNoticeOne') : t('webhooks.disabledNoticeMany', { n: disabledCount })}>
          {t('webhooks.disabledNoticeBody')}
        </Notice>
      ) : null}
      {(list.isLoading || !features.isKnown) && !page ? <Loading /> : null}
      {page && page.items.length === 0 ? (
        <EmptyState title={t('webhooks.emptyTitle')} body={t('webhooks.emptyBody')} action={<Button variant="primary" onClick={() => setDialog({ kind: 'create' })}>{t('webhooks.new')}</Button>} />
      ) : null}
      {page && page.items.length > 0 ? (
        <div className="card">
          <div className="table-wrap" tabIndex={0}>
            <table className="table">
              <caption className="visually-hidden">{t('webhooks.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('field.url')}</th>
                  <th scope="col">{t('field.state')}</th>
                  <th scope="col">{t('field.keyId')}</th>
                  <th scope="col">{t('field.created')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('field.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((consumer) => (
                  <tr key={consumer.self} className={consumer.disabled_time ? 'row-danger' : undefined}>
                    <td className="cell-url">
                      <Link to={`/webhooks/${idOf(consumer.self)}`} className="table-link mono">
                        {consumer.url}
                      </Link>
                      <div className="small muted">
                        {t('webhooks.noticesTo', { address: consumer.contact_email || t('webhooks.officeAddress') })}
                      </div>
                    </td>
                    <td>
                      <ConsumerState consumer={consumer} />
                    </td>
                    <td className="mono nowrap">{consumer.key_id}</td>
                    <td className="numeric">{consumer.created_time}</td>
                    <td className="row-actions">
                      {consumer.disabled_time ? (
                        <Button size="small" variant="primary" isBusy={busy === consumer.self} onClick={() => void enable(consumer)} aria-label={t('webhooks.reenableNamed', { url: consumer.url })}>
                          {t('webhooks.reenable')}
                        </Button>
                      ) : null}
                      <Link to={`/webhooks/${idOf(consumer.self)}`} className="button button-secondary button-small">
                        {t('webhooks.eventLog')}
                      </Link>
                    </td>
                  </tr>
                ))}
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
      {dialog?.kind === 'create' ? (
        <CreateConsumerDialog
          onClose={() => setDialog(undefined)}
          onCreated={(consumer) => {
            setDialog({ kind: 'created', consumer });
            void list.reload();
          }}
        />
      ) : null}
      {dialog?.kind === 'created' ? (
        <Dialog title={t('webhooks.createdTitle')} isOpen onClose={() => setDialog(undefined)} footer={<Button variant="primary" onClick={() => setDialog(undefined)}>{t('action.done')}</Button>}>
          <p>{t('webhooks.createdBody')}</p>
          <KeyDetails consumer={dialog.consumer} />
        </Dialog>
      ) : null}
    </>
  );
}

export function KeyDetails({ consumer }: { consumer: WebhookConsumer }) {
  const t = useT();
  return (
    <div className="key-details">
      <div className="key-row">
        <span className="key-label">{t('field.keyId')}</span>
        <code className="mono" data-testid="key-id">
          {consumer.key_id}
        </code>
        <CopyButton value={consumer.key_id} label={t('webhooks.copyKeyId')} />
      </div>
      <div className="key-row key-row-block">
        <span className="key-label">{t('field.publicKey')}</span>
        <CopyButton value={consumer.public_key} label={t('webhooks.copyPublicKey')} />
      </div>
      <pre className="code-block" tabIndex={0} aria-label={t('field.publicKey')}>
        {consumer.public_key}
      </pre>
    </div>
  );
}
