import { useState } from 'react';
import { useHasChanged } from '../../lib/forms';
import type { TReachCheck, TReachSettings } from '../../../shared/api/reach';
import { TextField } from '../../components/fields';
import { Button, Card, DescriptionList, Loading, Notice, ProblemAlert } from '../../components/ui';
import { getJson, sendJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

/** Public access: where parties' links lead, how the public listener is served, and a live check of it. */
export function ReachSettings() {
  const t = useT();
  const loaded = useLoad((signal) => getJson<TReachSettings>('/api/settings/reach', signal), []);
  const [port, setPort] = useState('');
  const [host, setHost] = useState('');
  const [saved, setSaved] = useState(false);
  const [check, setCheck] = useState<TReachCheck>();
  const action = useAction<'save' | 'check'>();
  // Loaded (or saved): the fields show the settings as they are now.
  if (useHasChanged(loaded.data) && loaded.data) {
    setPort(loaded.data.public_port === null ? '' : String(loaded.data.public_port));
    setHost(loaded.data.public_host);
  }
  if (!loaded.data)
    return <Card title={t('reach.title')}>{loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading />}</Card>;
  const reach = loaded.data;
  const save = action.submit('save', async () => {
    setSaved(false);
    setCheck(undefined);
    // Only what was changed is sent: an unchanged field keeps coming from where it does.
    const portText = port.trim();
    const hostText = host.trim();
    const changes: Record<string, unknown> = {};
    if (portText !== (reach.public_port === null ? '' : String(reach.public_port)))
      changes.public_port = portText === '' ? null : /^\d+$/.test(portText) ? Number(portText) : portText;
    if (hostText !== reach.public_host) changes.public_host = hostText === '' ? null : hostText;
    if (Object.keys(changes).length > 0) await sendJson('PUT', '/api/settings/reach', changes);
    setSaved(true);
    await loaded.reload();
  });
  const runCheck = () =>
    void action.run('check', async () => {
      setSaved(false);
      setCheck(await sendJson<TReachCheck>('POST', '/api/settings/reach/check'));
    });
  const certificate = reach.certificate;
  const items = [
    { term: t('reach.publicAddress'), value: <span className="mono">{reach.public_base_url}</span> },
    { term: t('reach.mode'), value: t(`reach.mode.${reach.mode}`) },
    {
      term: t('reach.listener'),
      value: reach.public_listen_url ? <span className="mono">{reach.public_listen_url}</span> : t('reach.noListener'),
    },
    {
      term: t('reach.proxies'),
      value: reach.trusted_proxies.length ? (
        <span className="mono">{reach.trusted_proxies.join(', ')}</span>
      ) : (
        t('reach.noProxies')
      ),
    },
    ...(certificate
      ? [
          {
            term: t('reach.certificate'),
            value: (
              <>
                {t('reach.certificateFor', { subject: certificate.subject ?? '', issuer: certificate.issuer ?? '' })}
                <br />
                <span className="muted small">
                  {t('reach.certificateValid', {
                    time: certificate.valid_to ?? '',
                    names: certificate.names.join(', '),
                  })}
                </span>
              </>
            ),
          },
        ]
      : []),
  ];
  return (
    <form onSubmit={save} noValidate>
      <Card title={t('reach.title')} description={t('reach.description')} className="panel-reach">
        <ProblemAlert error={action.error} />
        {saved && !action.error ? <Notice tone="success">{t('state.saved')}</Notice> : null}
        {reach.link_reach !== 'public' ? (
          <Notice tone="warning">{t(`reach.${reach.link_reach}`, { url: reach.public_base_url })}</Notice>
        ) : null}
        {reach.listener_error ? (
          <Notice tone="warning" title={t('reach.listenerError')}>
            <span className="mono small">{reach.listener_error}</span>
          </Notice>
        ) : null}
        {certificate?.last_error ? (
          <Notice tone="warning" title={t('reach.certificateError')}>
            <span className="mono small">{certificate.last_error}</span>
          </Notice>
        ) : null}
        {reach.is_restart_needed ? <Notice>{t('reach.restartNeeded')}</Notice> : null}
        {check ? (
          check.ok ? (
            <Notice tone="success">{t('reach.checkOk', { url: check.url, ms: check.duration_ms })}</Notice>
          ) : (
            <Notice
              // Office paths open to the internet: red, not the amber of a link that does not work yet.
              tone={check.failed_stage === 'exposed' ? 'danger' : 'warning'}
              title={t('reach.checkFailed', { stage: t(`reach.stage.${check.failed_stage ?? 'address'}`) })}
            >
              <span>{check.error}</span>
              {check.office_paths.length > 0 ? (
                <span className="mono small"> {t('reach.officePaths', { paths: check.office_paths.join(', ') })}</span>
              ) : null}
            </Notice>
          )
        ) : null}
        <DescriptionList items={items} />
        <div className="form-grid">
          <TextField
            label={t('reach.port')}
            hint={[t('reach.portHint'), reach.source === 'environment' ? t('reach.fromEnvironment') : undefined]
              .filter(Boolean)
              .join(' ')}
            error={action.errors.public_port}
            value={port}
            onValue={setPort}
            inputMode="numeric"
            className="mono"
            placeholder="8443"
          />
          <TextField
            label={t('reach.host')}
            hint={t('reach.hostHint')}
            error={action.errors.public_host}
            value={host}
            onValue={setHost}
            className="mono"
            placeholder="0.0.0.0"
          />
        </div>
        <p className="muted small">{t('reach.docs')}</p>
        <div className="form-actions">
          <Button type="submit" variant="primary" isBusy={action.busy === 'save'}>
            {t('action.save')}
          </Button>
          <Button onClick={runCheck} isBusy={action.busy === 'check'}>
            {t('reach.check')}
          </Button>
        </div>
      </Card>
    </form>
  );
}
