import { useState } from 'react';
import { CopyButton } from '../components/copy-button';
import { PagedTable } from '../components/data-table';
import { TextField } from '../components/fields';
import { FormDialog } from '../components/form-dialog';
import type { OptionalWebhookEventType, TWebhookConsumer } from '../../shared/api/webhooks';
import { Badge, Button, Dialog, EmptyState, Notice, PageHeader, ProblemAlert } from '../components/ui';
import { idOf, sendJson } from '../lib/api';
import { useT } from '../lib/i18n';
import { Link } from '../lib/router';
import { useAction } from '../lib/use-action';
import { usePagedList } from '../lib/use-paged-list';
import { EventChoice } from './webhook-event-choice';

function CreateConsumerDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (consumer: TWebhookConsumer) => void;
}) {
  const t = useT();
  const [url, setUrl] = useState('');
  const [contact, setContact] = useState('');
  const [events, setEvents] = useState<OptionalWebhookEventType[]>([]);
  const create = useAction();
  const { errors } = create;
  const submit = create.submit('create', async () => {
    onCreated(
      await sendJson<TWebhookConsumer>('POST', '/api/webhooks', {
        url,
        events,
        ...(contact.trim() ? { contact_email: contact.trim() } : {}),
      }),
    );
  });
  return (
    <FormDialog
      title={t('webhooks.new')}
      onClose={onClose}
      onSubmit={submit}
      error={create.error}
      isBusy={create.busy === 'create'}
      submitLabel={t('action.create')}
    >
      <TextField
        label={t('field.url')}
        hint={t('webhooks.urlHint')}
        error={errors.url}
        value={url}
        onValue={setUrl}
        className="mono"
        type="url"
        required
        // eslint-disable-next-line jsx-a11y/no-autofocus -- a modal dialog puts the focus on its first field (WAI-ARIA dialog pattern)
        autoFocus
        placeholder="https://"
      />
      <ContactField value={contact} onValue={setContact} error={errors.contact_email} />
      <EventChoice value={events} onValue={setEvents} />
    </FormDialog>
  );
}

/** Where the notice of a disabled consumer goes; empty: the office's address. */
export function ContactField({
  value,
  onValue,
  error,
}: {
  value: string;
  onValue: (value: string) => void;
  error?: string;
}) {
  const t = useT();
  return (
    <TextField
      label={t('field.contactEmail')}
      hint={t('webhooks.contactHint')}
      error={error}
      value={value}
      onValue={onValue}
      type="email"
    />
  );
}

export function ConsumerState({ consumer }: { consumer: TWebhookConsumer }) {
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
  const list = usePagedList<TWebhookConsumer>('/api/webhooks?per_page=20', { pollMs: 3000 });
  const [dialog, setDialog] = useState<{ kind: 'create' } | { kind: 'created'; consumer: TWebhookConsumer }>();
  const action = useAction();

  const enable = (consumer: TWebhookConsumer) =>
    void action.run(consumer.self, async () => {
      await sendJson('POST', `${consumer.self}/enable`);
      await list.reload();
    });

  const disabledCount = list.data?.items.filter((consumer) => consumer.disabled_time).length ?? 0;
  const newConsumer = (
    <Button variant="primary" onClick={() => setDialog({ kind: 'create' })}>
      {t('webhooks.new')}
    </Button>
  );
  return (
    <>
      <PageHeader title={t('webhooks.title')} description={t('webhooks.description')} actions={newConsumer} />
      <ProblemAlert error={action.error ?? list.error} onDismiss={action.error ? action.dismiss : undefined} />
      {disabledCount > 0 ? (
        <Notice
          tone="warning"
          title={
            disabledCount === 1
              ? t('webhooks.disabledNoticeOne')
              : t('webhooks.disabledNoticeMany', { n: disabledCount })
          }
        >
          {t('webhooks.disabledNoticeBody')}
        </Notice>
      ) : null}
      <PagedTable
        list={list}
        caption={t('webhooks.title')}
        columns={[t('field.url'), t('field.state'), t('field.keyId'), t('field.created')]}
        hasActions
        empty={<EmptyState title={t('webhooks.emptyTitle')} body={t('webhooks.emptyBody')} action={newConsumer} />}
      >
        {(consumer) => (
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
                <Button
                  size="small"
                  variant="primary"
                  isBusy={action.busy === consumer.self}
                  onClick={() => enable(consumer)}
                  aria-label={t('webhooks.reenableNamed', { url: consumer.url })}
                >
                  {t('webhooks.reenable')}
                </Button>
              ) : null}
              <Link to={`/webhooks/${idOf(consumer.self)}`} className="button button-secondary button-small">
                {t('webhooks.eventLog')}
              </Link>
            </td>
          </tr>
        )}
      </PagedTable>
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
        <Dialog
          title={t('webhooks.createdTitle')}
          isOpen
          onClose={() => setDialog(undefined)}
          footer={
            <Button variant="primary" onClick={() => setDialog(undefined)}>
              {t('action.done')}
            </Button>
          }
        >
          <p>{t('webhooks.createdBody')}</p>
          <KeyDetails consumer={dialog.consumer} />
        </Dialog>
      ) : null}
    </>
  );
}

export function KeyDetails({ consumer }: { consumer: TWebhookConsumer }) {
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
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must take the focus */}
      <pre className="code-block" tabIndex={0} aria-label={t('field.publicKey')}>
        {consumer.public_key}
      </pre>
    </div>
  );
}
