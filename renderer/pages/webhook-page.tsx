import { useState } from 'react';
import { useHasChanged } from '../lib/forms';
import type { TWebhookBulkRetryResult, TWebhookConsumer } from '../../shared/api/webhooks';
import { useConfirm } from '../components/confirm';
import { TextField } from '../components/fields';
import { Button, Card, Loading, Notice, PageHeader, ProblemAlert } from '../components/ui';
import { getJson, sendJson } from '../lib/api';
import { useT } from '../lib/i18n';
import { Link, useRouter } from '../lib/router';
import { useAction } from '../lib/use-action';
import { useLoad } from '../lib/use-load';
import { EventChoice } from './webhook-event-choice';
import { EventLog, useEventCounts } from './webhook-events';
import { ConsumerState, ContactField, KeyDetails } from './webhooks-page';

function EditConsumer({ consumer, onSaved }: { consumer: TWebhookConsumer; onSaved: () => void }) {
  const t = useT();
  const [url, setUrl] = useState(consumer.url);
  const [contact, setContact] = useState(consumer.contact_email ?? '');
  const [events, setEvents] = useState(consumer.events);
  const chosen = consumer.events.join(' ');
  const save = useAction();
  // Saved (or changed elsewhere): the fields show the consumer as it is now.
  if (useHasChanged(`${consumer.url}\n${consumer.contact_email ?? ''}\n${chosen}`)) {
    setUrl(consumer.url);
    setContact(consumer.contact_email ?? '');
    setEvents(chosen === '' ? [] : (chosen.split(' ') as TWebhookConsumer['events']));
  }
  const submit = save.submit('save', async () => {
    await sendJson('PUT', consumer.self, { url, contact_email: contact.trim() || null, events });
    onSaved();
  });
  return (
    <form onSubmit={submit} noValidate>
      <ProblemAlert error={save.error} />
      <TextField label={t('field.url')} error={save.errors.url} value={url} onValue={setUrl} className="mono" />
      <ContactField value={contact} onValue={setContact} error={save.errors.contact_email} />
      <EventChoice value={events} onValue={setEvents} />
      <div className="form-actions">
        <Button
          type="submit"
          isBusy={save.busy === 'save'}
          disabled={url === consumer.url && contact === (consumer.contact_email ?? '') && events.join(' ') === chosen}
        >
          {t('action.save')}
        </Button>
      </div>
    </form>
  );
}

/** "Deliver 3 held, retry 10 failed": the one button that sends everything waiting, in event order. */
function bulkLabel(t: ReturnType<typeof useT>, held: number, failed: number): string {
  if (held > 0 && failed > 0) return t('webhooks.bulkBoth', { held: String(held), failed: String(failed) });
  return held > 0 ? t('webhooks.bulkHeld', { n: String(held) }) : t('webhooks.bulkFailed', { n: String(failed) });
}

export function WebhookPage({ id }: { id: string }) {
  const t = useT();
  const confirm = useConfirm();
  const { navigate } = useRouter();
  const path = `/api/webhooks/${id}`;
  const loaded = useLoad((signal) => getJson<TWebhookConsumer>(path, signal), [path], { pollMs: 3000 });
  const counts = useEventCounts(path);
  const [queued, setQueued] = useState<TWebhookBulkRetryResult>();
  const action = useAction<'enable' | 'delete' | 'bulk'>();

  if (loaded.error && !loaded.data) return <ProblemAlert error={loaded.error} />;
  const consumer = loaded.data;
  if (!consumer) return <Loading />;
  const held = counts.data?.held ?? 0;
  const failed = counts.data?.failed ?? 0;
  const isDisabled = consumer.disabled_time !== null;

  const refresh = () => void Promise.all([loaded.reload(), counts.reload()]);
  const enable = () =>
    void action.run('enable', async () => {
      await sendJson('POST', `${path}/enable`);
      refresh();
    });
  const bulk = () =>
    void action.run('bulk', async () => {
      const states = [...(held > 0 ? ['held'] : []), ...(failed > 0 ? ['failed'] : [])];
      setQueued(await sendJson<TWebhookBulkRetryResult>('POST', `${path}/events/retry`, { states }));
      refresh();
    });
  const remove = async () => {
    if (
      !(await confirm({
        title: t('confirm.title'),
        body: t('webhooks.confirmDelete', { url: consumer.url }),
        confirmLabel: t('action.delete'),
      }))
    )
      return;
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
            <Button variant="danger" onClick={() => void remove()} isBusy={action.busy === 'delete'}>
              {t('action.delete')}
            </Button>
          </>
        }
      />
      <ProblemAlert error={action.error} onDismiss={action.dismiss} />
      {isDisabled ? (
        <div className="alert alert-danger alert-action" role="alert">
          <div className="alert-body">
            <strong className="alert-title">{t('webhooks.disabledTitle')}</strong>
            <p>{t('webhooks.disabledBody', { time: consumer.disabled_time ?? '' })}</p>
            <p>{held > 0 ? t('webhooks.heldWhileDisabled', { n: String(held) }) : t('webhooks.noneHeld')}</p>
          </div>
          <Button variant="primary" onClick={enable} isBusy={action.busy === 'enable'}>
            {held > 0 ? t('webhooks.reenableAndDeliver', { n: String(held) }) : t('webhooks.reenable')}
          </Button>
        </div>
      ) : null}
      {!isDisabled && held + failed > 0 ? (
        <div className="alert alert-info alert-action" role="status">
          <div className="alert-body">
            <p>{t('webhooks.bulkHint')}</p>
          </div>
          <Button variant="primary" onClick={bulk} isBusy={action.busy === 'bulk'}>
            {bulkLabel(t, held, failed)}
          </Button>
        </div>
      ) : null}
      {queued && !isDisabled ? (
        <Notice tone="success">{t('webhooks.bulkQueued', { n: String(queued.total) })}</Notice>
      ) : null}
      <div className="grid-2">
        <Card title={t('webhooks.verification')} description={t('webhooks.verificationDescription')}>
          <KeyDetails consumer={consumer} />
        </Card>
        <Card title={t('webhooks.settings')}>
          <EditConsumer consumer={consumer} onSaved={() => void loaded.reload()} />
        </Card>
      </div>
      <EventLog consumer={consumer} onChanged={() => void counts.reload()} />
    </>
  );
}
