import { useState } from 'react';
import { useHasChanged } from '../../lib/forms';
import type { TAcmeStatus } from '../../../shared/api/acme';
import { TextField } from '../../components/fields';
import { Button, Card, DescriptionList, Loading, Notice, ProblemAlert } from '../../components/ui';
import { getJson, sendJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

/** The domain and contact e-mail, saved here for the next start (the desktop app has no environment). */
function AcmeSettingsForm({ status, reload }: { status: TAcmeStatus; reload: () => Promise<void> }) {
  const t = useT();
  const [domain, setDomain] = useState(status.configured_domain ?? '');
  const [email, setEmail] = useState(status.email ?? '');
  const [isSaved, setIsSaved] = useState(false);
  const action = useAction<'save'>();
  // Saved (or changed elsewhere): the fields show the settings as they are now.
  if (useHasChanged(`${status.configured_domain ?? ''}\n${status.email ?? ''}`)) {
    setDomain(status.configured_domain ?? '');
    setEmail(status.email ?? '');
  }
  const save = action.submit('save', async () => {
    setIsSaved(false);
    const changes: Record<string, string | null> = {};
    if (domain.trim() !== (status.configured_domain ?? '')) changes.domain = domain.trim() || null;
    if (email.trim() !== (status.email ?? '')) changes.email = email.trim() || null;
    if (Object.keys(changes).length > 0) await sendJson('PUT', '/api/settings/acme', changes);
    setIsSaved(true);
    await reload();
  });
  return (
    <form onSubmit={save} noValidate>
      <ProblemAlert error={action.error} />
      {isSaved && !action.error ? <Notice tone="success">{t('state.saved')}</Notice> : null}
      <div className="form-grid">
        <TextField
          label={t('acme.domain')}
          hint={t('acme.domainHint')}
          error={action.errors.domain}
          value={domain}
          onValue={setDomain}
          className="mono"
          placeholder="sign.office.example"
        />
        <TextField
          label={t('acme.email')}
          hint={t('acme.emailHint')}
          error={action.errors.email}
          value={email}
          onValue={setEmail}
          placeholder="it@office.example"
        />
      </div>
      <div className="form-actions">
        <Button type="submit" variant="primary" isBusy={action.busy === 'save'}>
          {t('action.save')}
        </Button>
      </div>
    </form>
  );
}

/**
 * The public address's certificate from the ACME CA: what is served, when it is renewed, what
 * went wrong last, "Renew now", and the domain and e-mail saved for the next start.
 */
export function AcmeCertificate() {
  const t = useT();
  const [isAsked, setIsAsked] = useState(false);
  // Polled: an order under way (or asked for) shows its outcome without a reload.
  const loaded = useLoad((signal) => getJson<TAcmeStatus>('/api/settings/acme', signal), [], { pollMs: 3_000 });
  const action = useAction<'renew'>();
  if (!loaded.data)
    return <Card title={t('acme.title')}>{loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading />}</Card>;
  const status = loaded.data;
  const restartNotice = status.is_restart_needed ? (
    <Notice tone="warning">
      {status.configured_domain
        ? t('acme.restartNeeded', { domain: status.configured_domain })
        : t('acme.restartNeededOff')}
    </Notice>
  ) : null;
  if (!status.is_enabled)
    return (
      <Card title={t('acme.title')} description={t('acme.description')} className="panel-acme">
        {restartNotice}
        <p className="muted">{t('acme.off')}</p>
        <AcmeSettingsForm status={status} reload={loaded.reload} />
      </Card>
    );
  const renew = () =>
    void action.run('renew', async () => {
      await sendJson('POST', '/api/settings/acme/renew');
      setIsAsked(true);
      await loaded.reload();
    });
  const certificate = status.certificate;
  const items = [
    { term: t('acme.domain'), value: <span className="mono">{status.domain}</span> },
    { term: t('acme.authority'), value: <span className="mono small">{status.directory_url}</span> },
    ...(status.email ? [{ term: t('acme.email'), value: status.email }] : []),
    ...(status.challenge_port !== null
      ? [{ term: t('acme.challengePort'), value: String(status.challenge_port) }]
      : []),
    ...(certificate
      ? [
          { term: t('acme.issuer'), value: certificate.issuer },
          { term: t('acme.serial'), value: <span className="mono small">{certificate.serial}</span> },
          {
            term: t('acme.validity'),
            value: t('acme.validityRange', { from: certificate.not_before, to: certificate.not_after }),
          },
          { term: t('acme.renewalTime'), value: certificate.renewal_time },
        ]
      : []),
    { term: t('acme.lastRenewal'), value: status.last_renewal_time ?? t('acme.never') },
    ...(status.next_attempt_time ? [{ term: t('acme.nextAttempt'), value: status.next_attempt_time }] : []),
  ];
  return (
    <Card title={t('acme.title')} description={t('acme.description')} className="panel-acme">
      {restartNotice}
      <ProblemAlert error={action.error} />
      {status.is_obtaining ? <Notice>{t('acme.obtaining')}</Notice> : null}
      {isAsked && !status.is_obtaining && !status.last_error ? (
        <Notice tone="success">{t('acme.renewAsked')}</Notice>
      ) : null}
      {!certificate && !status.is_obtaining ? <Notice tone="warning">{t('acme.none')}</Notice> : null}
      {status.last_error ? (
        <Notice tone="warning" title={t('acme.failed', { time: status.last_attempt_time ?? '' })}>
          <span className="mono small">{status.last_error}</span>
          {certificate ? <p>{t('acme.failedKept')}</p> : null}
        </Notice>
      ) : null}
      <DescriptionList items={items} />
      <div className="form-actions">
        <Button onClick={renew} isBusy={action.busy === 'renew'} disabled={status.is_obtaining}>
          {t('acme.renew')}
        </Button>
      </div>
      <AcmeSettingsForm status={status} reload={loaded.reload} />
    </Card>
  );
}
