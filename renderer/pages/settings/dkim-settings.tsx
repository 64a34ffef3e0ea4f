import { useState } from 'react';
import type { TDkimSettings } from '../../../shared/api/dkim-settings';
import { CopyButton } from '../../components/copy-button';
import { TextAreaField, TextField } from '../../components/fields';
import { Badge, Button, Card, DescriptionList, Loading, Notice, ProblemAlert } from '../../components/ui';
import { getJson, sendJson } from '../../lib/api';
import { useHasChanged } from '../../lib/forms';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

/**
 * DKIM: the domain, selector and private key every mail is signed with, and the TXT record the
 * office publishes. The saved key never comes back (the API masks it); the field is for a new one.
 */
export function DkimSettings() {
  const t = useT();
  const loaded = useLoad((signal) => getJson<TDkimSettings>('/api/settings/dkim', signal), []);
  const [domain, setDomain] = useState('');
  const [selector, setSelector] = useState('');
  const [privateKey, setPrivateKey] = useState('');
  const [notice, setNotice] = useState<string>();
  const action = useAction<'save' | 'off'>();
  const isNewlyLoaded = useHasChanged(loaded.data);
  if (isNewlyLoaded && loaded.data) {
    setDomain(loaded.data.domain ?? '');
    setSelector(loaded.data.selector ?? '');
  }
  if (!loaded.data)
    return <Card title={t('dkim.title')}>{loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading />}</Card>;
  const dkim = loaded.data;
  const isOn = Boolean(dkim.domain && dkim.selector && dkim.private_key);
  const save = action.submit('save', async () => {
    setNotice(undefined);
    await sendJson('PUT', '/api/settings/dkim', {
      domain: domain.trim() || null,
      selector: selector.trim() || null,
      // Empty: the saved key stays.
      ...(privateKey.trim() ? { private_key: privateKey } : {}),
    });
    setPrivateKey('');
    setNotice(t('state.saved'));
    await loaded.reload();
  });
  const turnOff = () =>
    void action.run('off', async () => {
      setNotice(undefined);
      await sendJson('PUT', '/api/settings/dkim', { private_key: null });
      setPrivateKey('');
      setNotice(t('dkim.turnedOff'));
      await loaded.reload();
    });
  const record = dkim.dns_record;
  return (
    <form onSubmit={save} noValidate>
      <Card title={t('dkim.title')} description={t('dkim.description')} className="panel-dkim">
        {(action.errors.domain ?? action.errors.selector ?? action.errors.private_key) ? null : (
          <ProblemAlert error={action.error} />
        )}
        {notice && !action.error ? <Notice tone="success">{notice}</Notice> : null}
        <p data-testid="dkim-state">
          <Badge tone={isOn ? 'success' : 'neutral'}>{isOn ? t('dkim.on') : t('dkim.off')}</Badge>{' '}
          <span className="small">
            {isOn ? t('dkim.onText', { domain: dkim.domain ?? '', selector: dkim.selector ?? '' }) : t('dkim.offText')}
          </span>
        </p>
        <div className="form-grid">
          <TextField
            label={t('dkim.domain')}
            hint={t('dkim.domainHint')}
            error={action.errors.domain}
            value={domain}
            onValue={setDomain}
            placeholder="office.example"
            autoComplete="off"
          />
          <TextField
            label={t('dkim.selector')}
            hint={t('dkim.selectorHint')}
            error={action.errors.selector}
            value={selector}
            onValue={setSelector}
            placeholder="signdesk"
            autoComplete="off"
          />
        </div>
        <TextAreaField
          label={t('dkim.privateKey')}
          hint={dkim.private_key ? t('dkim.privateKeySavedHint') : t('dkim.privateKeyHint')}
          error={action.errors.private_key}
          value={privateKey}
          onValue={setPrivateKey}
          className="mono"
          rows={5}
          spellCheck={false}
          autoComplete="off"
          placeholder="-----BEGIN PRIVATE KEY-----"
        />
        <div className="form-actions">
          {dkim.private_key ? (
            <Button onClick={turnOff} isBusy={action.busy === 'off'}>
              {t('dkim.turnOff')}
            </Button>
          ) : null}
          <Button type="submit" variant="primary" isBusy={action.busy === 'save'}>
            {t('action.save')}
          </Button>
        </div>
        <section className="dkim-dns" aria-label={t('dkim.dns')}>
          <h3 className="small">{t('dkim.dns')}</h3>
          {record ? (
            <DescriptionList
              items={[
                { term: t('dkim.recordName'), value: <code className="mono wrap">{record.name}</code> },
                { term: t('dkim.recordType'), value: record.type },
                {
                  term: t('dkim.recordValue'),
                  value: (
                    <span className="dkim-record-value">
                      <code className="mono wrap" data-testid="dkim-record-value">
                        {record.value}
                      </code>
                      <CopyButton value={record.value} label={t('dkim.copyRecord')} />
                    </span>
                  ),
                },
              ]}
            />
          ) : (
            <p className="muted small">{t('dkim.dnsLater')}</p>
          )}
          <p className="small">{t('dkim.spfDmarc')}</p>
        </section>
      </Card>
    </form>
  );
}
