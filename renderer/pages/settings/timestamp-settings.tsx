import { useState } from 'react';
import { useHasChanged } from '../../lib/forms';
import type { TTimestampSettings, TTimestampTestResult } from '../../../shared/api/timestamps';
import { TextField } from '../../components/fields';
import { Button, Card, Loading, Notice, ProblemAlert } from '../../components/ui';
import { getJson, sendJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

/** The RFC 3161 timestamp authority: its URL, a live test, and what waits for it. */
export function TimestampSettings() {
  const t = useT();
  const loaded = useLoad((signal) => getJson<TTimestampSettings>('/api/settings/timestamps', signal), []);
  const [url, setUrl] = useState('');
  const [saved, setSaved] = useState(false);
  const [test, setTest] = useState<TTimestampTestResult>();
  const action = useAction<'save' | 'test'>();
  const isNewlyLoaded = useHasChanged(loaded.data);
  if (isNewlyLoaded && loaded.data) setUrl(loaded.data.tsa_url ?? '');
  if (!loaded.data)
    return (
      <Card title={t('settings.timestamps')}>{loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading />}</Card>
    );
  const current = loaded.data;
  const save = action.submit('save', async () => {
    setSaved(false);
    setTest(undefined);
    // The URL comes back with a password masked: send it only when it was changed.
    if (url !== (current.tsa_url ?? ''))
      await sendJson('PUT', '/api/settings/timestamps', { tsa_url: url.trim() || null });
    setSaved(true);
    await loaded.reload();
  });
  const runTest = () =>
    void action.run('test', async () => {
      setSaved(false);
      setTest(await sendJson<TTimestampTestResult>('POST', '/api/settings/timestamps/test'));
      await loaded.reload();
    });
  const hint = [t('settings.tsaHint'), current.source === 'environment' ? t('settings.fromEnvironment') : undefined]
    .filter(Boolean)
    .join(' ');
  return (
    <form onSubmit={save} noValidate>
      <Card
        title={t('settings.timestamps')}
        description={t('settings.timestampsDescription')}
        className="panel-timestamps"
      >
        <ProblemAlert error={action.error} />
        {saved && !action.error ? <Notice tone="success">{t('state.saved')}</Notice> : null}
        {!current.tsa_url ? <Notice tone="warning">{t('settings.tsaNone')}</Notice> : null}
        {current.is_clock_off && current.last_clock_offset_seconds !== null ? (
          <Notice tone="warning">
            {t('settings.tsaClockOff', { seconds: String(current.last_clock_offset_seconds) })}
          </Notice>
        ) : null}
        {current.pending_count > 0 ? (
          <Notice tone="warning">{t('settings.tsaPending', { n: String(current.pending_count) })}</Notice>
        ) : null}
        {test ? (
          test.ok ? (
            <Notice
              tone={test.is_clock_off ? 'warning' : 'success'}
              title={t('settings.tsaTestOk', { authority: test.authority ?? '', time: test.authority_time ?? '' })}
            >
              {test.is_clock_off && test.clock_offset_seconds !== null
                ? t('settings.tsaClockOff', { seconds: String(test.clock_offset_seconds) })
                : null}
            </Notice>
          ) : (
            <Notice tone="warning" title={t('settings.tsaTestFailed')}>
              <span className="mono small">{test.error}</span>
            </Notice>
          )
        ) : null}
        <div className="form-grid">
          <TextField
            label={t('settings.tsaUrl')}
            hint={hint}
            error={action.errors.tsa_url}
            value={url}
            onValue={setUrl}
            className="mono"
            placeholder="https://tsa.example/tsr"
          />
        </div>
        {current.last_timestamp_time ? (
          <p className="muted small">{t('settings.tsaLast', { time: current.last_timestamp_time })}</p>
        ) : null}
        <div className="form-actions">
          <Button type="submit" variant="primary" isBusy={action.busy === 'save'}>
            {t('action.save')}
          </Button>
          <Button onClick={runTest} isBusy={action.busy === 'test'} disabled={!current.tsa_url}>
            {t('settings.tsaTest')}
          </Button>
        </div>
      </Card>
    </form>
  );
}
