import { useState } from 'react';
import type { TTrustedRoots } from '../../../shared/api/trusted-roots';
import { useConfirm } from '../../components/confirm';
import { FileField, TextAreaField } from '../../components/fields';
import { Badge, Button, Card, Loading, Notice, ProblemAlert } from '../../components/ui';
import { getJson, sendJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

/** A certificate file as PEM: kept as it is when it is PEM, a DER file (.cer, .crt) wrapped as one. */
async function pemOf(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = new TextDecoder('latin1').decode(bytes);
  if (text.includes('-----BEGIN')) return text;
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const base64 = btoa(binary).replace(/.{64}/g, '$&\n');
  return `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`;
}

/**
 * The certificate authorities the office trusts to complete a timestamp authority's chain
 * (long-term validation), for authorities whose tokens leave out their issuers.
 */
export function TrustedRootsSettings() {
  const t = useT();
  const confirm = useConfirm();
  const loaded = useLoad((signal) => getJson<TTrustedRoots>('/api/settings/timestamps/trusted_roots', signal), []);
  const [pem, setPem] = useState('');
  const [fileKey, setFileKey] = useState(0);
  const [added, setAdded] = useState<string>();
  const action = useAction<'add' | 'remove'>();
  if (!loaded.data)
    return (
      <Card title={t('settings.trustedRoots')}>
        {loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading />}
      </Card>
    );
  const { roots } = loaded.data;
  const add = action.submit('add', async () => {
    setAdded(undefined);
    const root = await sendJson<{ subject: string }>('POST', '/api/settings/timestamps/trusted_roots', {
      certificate: pem.trim(),
    });
    setAdded(root.subject);
    setPem('');
    setFileKey((key) => key + 1);
    await loaded.reload();
  });
  const remove = async (self: string, subject: string) => {
    const isSure = await confirm({
      title: t('settings.trustedRootRemoveTitle'),
      body: t('settings.trustedRootRemoveBody', { subject }),
      confirmLabel: t('settings.trustedRootRemove'),
    });
    if (!isSure) return;
    setAdded(undefined);
    await action.run('remove', async () => {
      await sendJson('DELETE', self);
      await loaded.reload();
    });
  };
  return (
    <form onSubmit={add} noValidate>
      <Card
        title={t('settings.trustedRoots')}
        description={t('settings.trustedRootsDescription')}
        className="panel-trusted-roots"
      >
        <ProblemAlert error={action.error} />
        {added && !action.error ? (
          <Notice tone="success">{t('settings.trustedRootAdded', { subject: added })}</Notice>
        ) : null}
        {roots.length === 0 ? (
          <p className="muted">{t('settings.trustedRootsNone')}</p>
        ) : (
          <ul className="trusted-roots" data-testid="trusted-roots">
            {roots.map((root) => (
              <li key={root.self}>
                <strong>{root.subject}</strong>{' '}
                {root.is_expired ? <Badge tone="danger">{t('settings.trustedRootExpired')}</Badge> : null}
                <div className="muted small">
                  {t('settings.trustedRootDetails', { until: root.not_after, added: root.added_time })}
                </div>
                <div className="mono small">SHA-256 {root.sha256}</div>
                <Button
                  onClick={() => void remove(root.self, root.subject)}
                  isBusy={action.busy === 'remove'}
                  aria-label={t('settings.trustedRootRemoveNamed', { subject: root.subject })}
                >
                  {t('settings.trustedRootRemove')}
                </Button>
              </li>
            ))}
          </ul>
        )}
        <FileField
          label={t('settings.trustedRootFile')}
          accept=".pem,.crt,.cer,.der,application/x-x509-ca-cert,application/pkix-cert"
          resetKey={fileKey}
          onFile={(file) => void (file ? pemOf(file).then(setPem) : setPem(''))}
        />
        <TextAreaField
          label={t('settings.trustedRootPem')}
          hint={t('settings.trustedRootPemHint')}
          error={action.errors.certificate}
          value={pem}
          onValue={setPem}
          className="mono"
          rows={6}
          placeholder="-----BEGIN CERTIFICATE-----"
        />
        <div className="form-actions">
          <Button type="submit" variant="primary" isBusy={action.busy === 'add'} disabled={pem.trim() === ''}>
            {t('settings.trustedRootAdd')}
          </Button>
        </div>
      </Card>
    </form>
  );
}
