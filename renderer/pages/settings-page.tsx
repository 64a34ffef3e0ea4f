import { useEffect, useState, type FormEvent } from 'react';
import type { TGeneralSettings, TSigningCertificate } from '../../shared/api/settings';
import { Button, Card, DescriptionList, Field, Loading, Notice, PageHeader, ProblemAlert } from '../components/ui';
import { downloadFile, getJson, request, sendJson, type ApiError } from '../lib/api';
import { useFeatures } from '../lib/features';
import { asApiError, fieldErrors } from '../lib/forms';
import { useT } from '../lib/i18n';
import { useSession } from '../lib/session';
import { useLoad } from '../lib/use-load';

const zones = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf: (key: string) => string[] }).supportedValuesOf('timeZone');
  } catch {
    return ['Europe/Stockholm', 'UTC'];
  }
})();

function GeneralSettings() {
  const t = useT();
  const { refresh } = useSession();
  const loaded = useLoad((signal) => getJson<TGeneralSettings>('/api/settings/general', signal), []);
  const [form, setForm] = useState({ office_name: '', office_email: '', public_base_url: '', time_zone: '' });
  const [error, setError] = useState<ApiError>();
  const [saved, setSaved] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  useEffect(() => {
    const data = loaded.data;
    if (data) setForm({ office_name: data.office_name, office_email: data.office_email, public_base_url: data.public_base_url ?? '', time_zone: data.time_zone ?? '' });
  }, [loaded.data]);
  if (!loaded.data) return loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading />;
  const data = loaded.data;
  const errors = fieldErrors(error);
  const set = (name: keyof typeof form) => (event: { target: { value: string } }) => {
    setSaved(false);
    setForm({ ...form, [name]: event.target.value });
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setIsBusy(true);
    try {
      await sendJson('PUT', '/api/settings/general', {
        office_name: form.office_name,
        office_email: form.office_email,
        public_base_url: form.public_base_url.trim() || null,
        time_zone: form.time_zone || null,
      });
      setError(undefined);
      setSaved(true);
      await Promise.all([loaded.reload(), refresh()]);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Card title={t('settings.general')} description={t('settings.generalDescription')}>
        <ProblemAlert error={error} />
        {saved ? <Notice tone="success">{t('state.saved')}</Notice> : null}
        <div className="form-grid">
          <Field label={t('field.officeName')} error={errors.office_name}>
            {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" value={form.office_name} onChange={set('office_name')} />}
          </Field>
          <Field label={t('field.officeEmail')} hint={t('setup.officeEmailHint')} error={errors.office_email}>
            {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="email" value={form.office_email} onChange={set('office_email')} />}
          </Field>
          <Field label={t('field.publicBaseUrl')} hint={t('settings.publicBaseUrlHint', { url: data.effective_public_base_url })} error={errors.public_base_url}>
            {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input mono" value={form.public_base_url} onChange={set('public_base_url')} placeholder={data.effective_public_base_url} />}
          </Field>
          <Field label={t('field.timeZone')} hint={t('settings.timeZoneHint', { zone: data.effective_time_zone })} error={errors.time_zone}>
            {(id, describedBy) => (
              <select id={id} aria-describedby={describedBy} className="input" value={form.time_zone} onChange={set('time_zone')}>
                <option value="">{t('settings.defaultZone')}</option>
                {zones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div className="form-actions">
          <Button type="submit" variant="primary" isBusy={isBusy}>
            {t('action.save')}
          </Button>
        </div>
      </Card>
    </form>
  );
}

type MessagingKey = 'smtp_url' | 'mail_from' | 'sms_gateway_url';
type Messaging = Partial<Record<MessagingKey, string | null>> & { sources?: Partial<Record<MessagingKey, 'settings' | 'environment' | null>> };
type TestResult = { ok?: boolean; response?: string | null; error?: string | null };

function MessagingSettings() {
  const t = useT();
  const features = useFeatures();
  const loaded = useLoad((signal) => (features.messaging ? getJson<Messaging>('/api/settings/messaging', signal) : Promise.resolve(undefined)), [features.messaging]);
  const [form, setForm] = useState({ smtp_url: '', mail_from: '', sms_gateway_url: '' });
  const [testTo, setTestTo] = useState('');
  const [error, setError] = useState<ApiError>();
  const [result, setResult] = useState<{ tone: 'success' | 'warning'; title: string; text: string }>();
  const [busy, setBusy] = useState<'save' | 'test'>();
  useEffect(() => {
    const data = loaded.data;
    if (data) setForm({ smtp_url: data.smtp_url ?? '', mail_from: data.mail_from ?? '', sms_gateway_url: data.sms_gateway_url ?? '' });
  }, [loaded.data]);
  if (features.isKnown && !features.messaging) {
    return (
      <Card title={t('settings.messaging')} description={t('settings.messagingDescription')}>
        <Notice title={t('feature.notYet')}>{t('feature.notYetBody')}</Notice>
      </Card>
    );
  }
  if (!loaded.data) return <Card title={t('settings.messaging')}>{loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading />}</Card>;
  const errors = fieldErrors(error);
  const set = (name: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value });
  const sourceHint = (key: MessagingKey, hint?: string) =>
    [hint, loaded.data?.sources?.[key] === 'environment' ? t('settings.fromEnvironment') : undefined].filter(Boolean).join(' ') || undefined;
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy('save');
    setResult(undefined);
    try {
      // Only what was changed: the SMTP URL comes back with its password masked, and sending
      // the mask back would overwrite the real password.
      const current = loaded.data ?? {};
      const body = Object.fromEntries(
        (['smtp_url', 'mail_from', 'sms_gateway_url'] as const)
          .filter((key) => form[key] !== (current[key] ?? ''))
          .map((key) => [key, form[key] || null]),
      );
      await sendJson('PUT', '/api/settings/messaging', body);
      setError(undefined);
      setResult({ tone: 'success', title: t('state.saved'), text: '' });
      await loaded.reload();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(undefined);
    }
  };
  const test = async () => {
    setBusy('test');
    setResult(undefined);
    try {
      const answer = await sendJson<TestResult>('POST', '/api/settings/messaging/test', { to: testTo });
      setError(undefined);
      if (answer?.ok === false) setResult({ tone: 'warning', title: t('settings.testFailed'), text: answer.error ?? answer.response ?? '' });
      else setResult({ tone: 'success', title: t('settings.testSent', { to: testTo }), text: answer?.response ?? '' });
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <form onSubmit={(event) => void save(event)} noValidate>
      <Card title={t('settings.messaging')} description={t('settings.messagingDescription')}>
        <ProblemAlert error={error} />
        {result ? (
          <Notice tone={result.tone} title={result.title}>
            {result.text ? <span className="mono small">{result.text}</span> : null}
          </Notice>
        ) : null}
        <div className="form-grid">
          <Field label={t('field.smtpUrl')} hint={sourceHint('smtp_url', t('settings.smtpHint'))} error={errors.smtp_url}>
            {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input mono" value={form.smtp_url} onChange={set('smtp_url')} placeholder="smtp://user:password@mail.example:587" />}
          </Field>
          <Field label={t('field.mailFrom')} hint={sourceHint('mail_from')} error={errors.mail_from}>
            {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" value={form.mail_from} onChange={set('mail_from')} placeholder="SignDesk <sign@office.example>" />}
          </Field>
          <Field label={t('field.smsGatewayUrl')} hint={sourceHint('sms_gateway_url', t('settings.smsHint'))} error={errors.sms_gateway_url}>
            {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input mono" value={form.sms_gateway_url} onChange={set('sms_gateway_url')} placeholder="https://sms.example/send" />}
          </Field>
        </div>
        <div className="form-actions">
          <Button type="submit" variant="primary" isBusy={busy === 'save'}>
            {t('action.save')}
          </Button>
        </div>
        <div className="inline-form">
          <Field label={t('settings.testTo')} error={errors.to}>
            {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="email" value={testTo} onChange={(event) => setTestTo(event.target.value)} />}
          </Field>
          <Button onClick={() => void test()} isBusy={busy === 'test'} disabled={!testTo}>
            {t('settings.sendTest')}
          </Button>
        </div>
      </Card>
    </form>
  );
}

function readFileBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',')[1] ?? '');
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

function SigningCertificate() {
  const t = useT();
  const loaded = useLoad((signal) => getJson<TSigningCertificate>('/api/settings/signing_certificate', signal), []);
  const [file, setFile] = useState<File>();
  const [passphrase, setPassphrase] = useState('');
  const [error, setError] = useState<ApiError>();
  const [isBusy, setIsBusy] = useState(false);
  const [isImported, setIsImported] = useState(false);
  const [fileKey, setFileKey] = useState(0);
  const cert = loaded.data;
  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setIsBusy(true);
    try {
      await sendJson('POST', '/api/settings/signing_certificate', { pkcs12: await readFileBase64(file), passphrase });
      setError(undefined);
      setPassphrase('');
      setFile(undefined);
      setFileKey((key) => key + 1);
      setIsImported(true);
      await loaded.reload();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Card title={t('settings.certificate')} description={t('settings.certificateDescription')} className="panel-certificate">
      {!cert ? loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading /> : null}
      {cert && !cert.is_available ? <Notice title={t('feature.notYet')}>{t('settings.certificateNotYet')}</Notice> : null}
      {cert?.is_available ? (
        <>
          <DescriptionList
            items={[
              { term: t('cert.subject'), value: cert.subject ?? '—' },
              {
                term: t('cert.issuer'),
                value: cert.is_self_signed ? (cert.source === 'imported' ? t('cert.selfSignedImported') : t('cert.selfSigned')) : (cert.issuer ?? '—'),
              },
              { term: t('cert.source'), value: cert.source === 'imported' ? t('cert.imported') : t('cert.madeHere') },
              { term: t('cert.validUntil'), value: cert.not_after ?? '—' },
              { term: t('cert.fingerprint'), value: <code className="mono wrap">{cert.fingerprint ?? '—'}</code> },
            ]}
          />
          <form className="upload-form" onSubmit={(event) => void upload(event)}>
            <ProblemAlert error={error} />
            {isImported && !error ? <Notice tone="success">{t('cert.importedNotice')}</Notice> : null}
            <div className="form-grid">
              <Field label={t('cert.file')} hint={t('cert.fileHint')} error={fieldErrors(error).pkcs12 ?? fieldErrors(error).p12}>
                {(id, describedBy) => (
                  <input key={fileKey} id={id} aria-describedby={describedBy} className="input" type="file" accept=".p12,.pfx,application/x-pkcs12" onChange={(event) => setFile(event.target.files?.[0])} />
                )}
              </Field>
              <Field label={t('cert.passphrase')} error={fieldErrors(error).passphrase}>
                {(id) => <input id={id} className="input" type="password" value={passphrase} onChange={(event) => setPassphrase(event.target.value)} autoComplete="off" />}
              </Field>
            </div>
            <div className="form-actions">
              <Button type="submit" isBusy={isBusy} disabled={!file}>
                {t('cert.import')}
              </Button>
            </div>
          </form>
        </>
      ) : null}
    </Card>
  );
}

function BackupRestore() {
  const t = useT();
  const { end } = useSession();
  const [file, setFile] = useState<File>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState<'backup' | 'restore'>();
  const backup = async () => {
    setBusy('backup');
    try {
      const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
      await downloadFile('/api/settings/backup', 'application/vnd.sqlite3', `signdesk-${stamp}.sqlite`);
      setError(undefined);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(undefined);
    }
  };
  const restore = async (event: FormEvent) => {
    event.preventDefault();
    if (!file || !window.confirm(t('backup.confirmRestore'))) return;
    setBusy('restore');
    try {
      await request('POST', '/api/settings/restore', { raw: file, contentType: 'application/vnd.sqlite3' });
      end('restored');
    } catch (err) {
      setError(asApiError(err));
      setBusy(undefined);
    }
  };
  return (
    <Card title={t('backup.title')} description={t('backup.description')}>
      <ProblemAlert error={error} />
      <div className="backup-grid">
        <div>
          <h3>{t('backup.download')}</h3>
          <p className="muted">{t('backup.downloadBody')}</p>
          <Button onClick={() => void backup()} isBusy={busy === 'backup'}>
            {t('backup.downloadButton')}
          </Button>
        </div>
        <form onSubmit={(event) => void restore(event)}>
          <h3>{t('backup.restore')}</h3>
          <p className="muted">{t('backup.restoreBody')}</p>
          <Field label={t('backup.file')} error={fieldErrors(error).file}>
            {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="file" accept=".sqlite,.db,application/vnd.sqlite3" onChange={(event) => setFile(event.target.files?.[0])} />}
          </Field>
          <Button type="submit" variant="danger" isBusy={busy === 'restore'} disabled={!file}>
            {t('backup.restoreButton')}
          </Button>
        </form>
      </div>
    </Card>
  );
}

export function SettingsPage() {
  const t = useT();
  return (
    <>
      <PageHeader title={t('settings.title')} description={t('settings.description')} />
      <div className="stack">
        <GeneralSettings />
        <MessagingSettings />
        <SigningCertificate />
        <BackupRestore />
      </div>
    </>
  );
}
