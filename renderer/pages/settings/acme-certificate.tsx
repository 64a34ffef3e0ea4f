import { useState } from 'react';
import type { TAcmeStatus } from '../../../shared/api/acme';
import { Button, Card, DescriptionList, Loading, Notice, ProblemAlert } from '../../components/ui';
import { getJson, sendJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

/**
 * The public address's certificate from the ACME CA: what is served, when it is renewed, what
 * went wrong last, and "Renew now". Set by the environment (ACME_*), so nothing to edit here.
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
  if (!status.is_enabled)
    return (
      <Card title={t('acme.title')} description={t('acme.description')} className="panel-acme">
        <p className="muted">{t('acme.off')}</p>
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
    </Card>
  );
}
