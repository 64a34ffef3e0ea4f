import { useCallback, useState } from 'react';
import type { TGeneralSettings, TSigningCertificate } from '../../shared/api/settings';
import type { TMessagingSettings, TMessagingTestResult } from '../../shared/api/messaging-settings';
import { FileField, SelectField, TextAreaField, TextField } from '../components/fields';
import { OfficeFields } from '../components/office-fields';
import { Button, Card, DescriptionList, Loading, Notice, PageHeader, ProblemAlert } from '../components/ui';
import { getJson, sendJson } from '../lib/api';
import { BackupRestore, BackupSchedule } from './settings-backup';
import { useFormState, useHasChanged } from '../lib/forms';
import { useT } from '../lib/i18n';
import { useSession } from '../lib/session';
import { useAction } from '../lib/use-action';
import { readableErrors } from '../lib/problem-lines';
import { useLoad } from '../lib/use-load';
import { TimestampSettings } from './settings/timestamp-settings';
import { ReachSettings } from './settings/reach-settings';
import { ArchiveRenewalSettings } from './settings/archive-renewal-settings';
import { TrustedRootsSettings } from './settings/trusted-roots-settings';
import { ReminderDefaults } from './settings/reminder-defaults';
import { AcmeCertificate } from './settings/acme-certificate';
import { OfficeLog } from './settings/office-log';
import { PlanSettings } from './settings/plan-settings';
import { BrandSettings } from './settings/brand-settings';
import { MailWordsSettings } from './settings/mail-words-settings';
import { DkimSettings } from './settings/dkim-settings';
import { SignInSettings } from './settings/sign-in-settings';
import { SsoSettings } from './settings/sso-settings';

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
  const [isSaved, setIsSaved] = useState(false);
  const { form, setForm, bind } = useFormState(
    { office_name: '', office_email: '', public_base_url: '', time_zone: '', signing_frame_origins: '' },
    useCallback(() => setIsSaved(false), []),
  );
  const save = useAction();
  const labels = {
    fields: {
      office_name: t('field.officeName'),
      office_email: t('field.officeEmail'),
      public_base_url: t('field.publicBaseUrl'),
      time_zone: t('field.timeZone'),
    },
  };
  const errors = readableErrors(save.errors, labels);
  // Loaded (or loaded again after a save): the form shows the server's values.
  const isNewlyLoaded = useHasChanged(loaded.data);
  if (isNewlyLoaded && loaded.data) {
    const data = loaded.data;
    setForm({
      office_name: data.office_name,
      office_email: data.office_email,
      public_base_url: data.public_base_url ?? '',
      time_zone: data.time_zone ?? '',
      signing_frame_origins: (data.signing_frame_origins ?? []).join('\n'),
    });
  }
  if (!loaded.data) return loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading />;
  const data = loaded.data;
  const submit = save.submit('save', async () => {
    const frameOrigins = form.signing_frame_origins.split(/\s+/).filter(Boolean);
    await sendJson('PUT', '/api/settings/general', {
      ...form,
      public_base_url: form.public_base_url.trim() || null,
      time_zone: form.time_zone || null,
      signing_frame_origins: frameOrigins,
    });
    setIsSaved(true);
    await Promise.all([loaded.reload(), refresh()]);
  });
  return (
    <form onSubmit={submit} noValidate>
      <Card title={t('settings.general')} description={t('settings.generalDescription')}>
        <ProblemAlert error={save.error} labels={labels} />
        {isSaved ? <Notice tone="success">{t('state.saved')}</Notice> : null}
        <div className="form-grid">
          <OfficeFields name={bind('office_name')} email={bind('office_email')} errors={errors} />
          <TextField
            label={t('field.publicBaseUrl')}
            hint={t('settings.publicBaseUrlHint', { url: data.effective_public_base_url })}
            error={errors.public_base_url}
            {...bind('public_base_url')}
            className="mono"
            placeholder={data.effective_public_base_url}
          />
          <SelectField
            label={t('field.timeZone')}
            hint={t('settings.timeZoneHint', { zone: data.effective_time_zone })}
            error={errors.time_zone}
            options={[
              { value: '', label: t('settings.defaultZone') },
              ...zones.map((zone) => ({ value: zone, label: zone })),
            ]}
            {...bind('time_zone')}
          />
          <TextAreaField
            label={t('field.signingFrameOrigins')}
            hint={t('settings.signingFrameOriginsHint')}
            error={Object.entries(errors).find(([field]) => field.startsWith('signing_frame_origins'))?.[1]}
            {...bind('signing_frame_origins')}
            className="mono"
            rows={3}
            placeholder="https://app.example.com"
          />
        </div>
        <div className="form-actions">
          <Button type="submit" variant="primary" isBusy={save.busy === 'save'}>
            {t('action.save')}
          </Button>
        </div>
      </Card>
    </form>
  );
}

type MessagingKey = keyof TMessagingSettings['sources'];

function MessagingSettings() {
  const t = useT();
  const { refresh } = useSession();
  const loaded = useLoad((signal) => getJson<TMessagingSettings>('/api/settings/messaging', signal), []);
  const { form, setForm, bind } = useFormState({ smtp_url: '', mail_from: '', sms_gateway_url: '' });
  const [testTo, setTestTo] = useState('');
  const [result, setResult] = useState<{ tone: 'success' | 'warning'; title: string; text: string }>();
  const action = useAction<'save' | 'test'>();
  const { errors } = action;
  const isNewlyLoaded = useHasChanged(loaded.data);
  if (isNewlyLoaded && loaded.data) {
    const data = loaded.data;
    setForm({
      smtp_url: data.smtp_url ?? '',
      mail_from: data.mail_from ?? '',
      sms_gateway_url: data.sms_gateway_url ?? '',
    });
  }
  if (!loaded.data)
    return (
      <Card title={t('settings.messaging')}>{loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading />}</Card>
    );
  const current = loaded.data;
  const sourceHint = (key: MessagingKey, hint?: string) =>
    [hint, current.sources[key] === 'environment' ? t('settings.fromEnvironment') : undefined]
      .filter(Boolean)
      .join(' ') || undefined;
  const save = action.submit('save', async () => {
    setResult(undefined);
    // Only what was changed: the SMTP URL comes back with its password masked, and sending
    // the mask back would overwrite the real password.
    const keys = ['smtp_url', 'mail_from', 'sms_gateway_url'] as const;
    const body = Object.fromEntries(
      keys.filter((key) => form[key] !== (current[key] ?? '')).map((key) => [key, form[key] || null]),
    );
    await sendJson('PUT', '/api/settings/messaging', body);
    setResult({ tone: 'success', title: t('state.saved'), text: '' });
    // The session says which channels work (the contract page shows SMS waiting for a gateway).
    await Promise.all([loaded.reload(), refresh()]);
  });
  const test = () =>
    void action.run('test', async () => {
      setResult(undefined);
      // The form as it is, saved or not: the admin tests what they typed.
      const answer = await sendJson<TMessagingTestResult>('POST', '/api/settings/messaging/test', {
        to: testTo,
        smtp_url: form.smtp_url.trim() || null,
        mail_from: form.mail_from.trim() || null,
      });
      if (answer?.ok === false)
        setResult({ tone: 'warning', title: t('settings.testFailed'), text: answer.error ?? answer.response ?? '' });
      else setResult({ tone: 'success', title: t('settings.testSent', { to: testTo }), text: answer?.response ?? '' });
    });
  return (
    <form onSubmit={save} noValidate>
      <Card title={t('settings.messaging')} description={t('settings.messagingDescription')}>
        <ProblemAlert error={action.error} />
        {result ? (
          <Notice tone={result.tone} title={result.title}>
            {result.text ? <span className="mono small">{result.text}</span> : null}
          </Notice>
        ) : null}
        <div className="form-grid">
          <TextField
            label={t('field.smtpUrl')}
            hint={sourceHint('smtp_url', t('settings.smtpHint'))}
            error={errors.smtp_url}
            {...bind('smtp_url')}
            className="mono"
            placeholder="smtp://user:password@mail.example:587"
          />
          <TextField
            label={t('field.mailFrom')}
            hint={sourceHint('mail_from')}
            error={errors.mail_from}
            {...bind('mail_from')}
            placeholder="SignDesk <sign@office.example>"
          />
          <TextField
            label={t('field.smsGatewayUrl')}
            hint={sourceHint('sms_gateway_url', t('settings.smsHint'))}
            error={errors.sms_gateway_url}
            {...bind('sms_gateway_url')}
            className="mono"
            placeholder="https://sms.example/send"
          />
        </div>
        <div className="form-actions">
          <Button type="submit" variant="primary" isBusy={action.busy === 'save'}>
            {t('action.save')}
          </Button>
        </div>
        <div className="inline-form">
          <TextField label={t('settings.testTo')} error={errors.to} value={testTo} onValue={setTestTo} type="email" />
          <Button onClick={test} isBusy={action.busy === 'test'} disabled={!testTo}>
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
  const [isImported, setIsImported] = useState(false);
  const [fileKey, setFileKey] = useState(0);
  const upload = useAction();
  const cert = loaded.data;
  const submit = upload.submit('import', async () => {
    if (!file) return;
    await sendJson('POST', '/api/settings/signing_certificate', { pkcs12: await readFileBase64(file), passphrase });
    setPassphrase('');
    setFile(undefined);
    setFileKey((key) => key + 1);
    setIsImported(true);
    await loaded.reload();
  });
  const issuer = (value: TSigningCertificate) => {
    if (!value.is_self_signed) return value.issuer ?? '—';
    return value.source === 'imported' ? t('cert.selfSignedImported') : t('cert.selfSigned');
  };
  return (
    <Card
      title={t('settings.certificate')}
      description={t('settings.certificateDescription')}
      className="panel-certificate"
    >
      {!cert ? loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading /> : null}
      {cert && !cert.is_available ? (
        <Notice title={t('feature.notYet')}>{t('settings.certificateNotYet')}</Notice>
      ) : null}
      {cert?.is_available ? (
        <>
          <DescriptionList
            items={[
              { term: t('cert.subject'), value: cert.subject ?? '—' },
              { term: t('cert.issuer'), value: issuer(cert) },
              { term: t('cert.source'), value: cert.source === 'imported' ? t('cert.imported') : t('cert.madeHere') },
              { term: t('cert.validUntil'), value: cert.not_after ?? '—' },
              { term: t('cert.fingerprint'), value: <code className="mono wrap">{cert.fingerprint ?? '—'}</code> },
            ]}
          />
          <form className="upload-form" onSubmit={submit}>
            <ProblemAlert error={upload.error} />
            {isImported && !upload.error ? <Notice tone="success">{t('cert.importedNotice')}</Notice> : null}
            <div className="form-grid">
              <FileField
                label={t('cert.file')}
                hint={t('cert.fileHint')}
                error={upload.errors.pkcs12 ?? upload.errors.p12}
                accept=".p12,.pfx,application/x-pkcs12"
                onFile={setFile}
                resetKey={fileKey}
              />
              <TextField
                label={t('cert.passphrase')}
                error={upload.errors.passphrase}
                value={passphrase}
                onValue={setPassphrase}
                type="password"
                autoComplete="off"
              />
            </div>
            <div className="form-actions">
              <Button type="submit" isBusy={upload.busy === 'import'} disabled={!file}>
                {t('cert.import')}
              </Button>
            </div>
          </form>
        </>
      ) : null}
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
        <PlanSettings />
        <SignInSettings />
        <BrandSettings />
        <ReachSettings />
        <AcmeCertificate />
        <SsoSettings />
        <MessagingSettings />
        <MailWordsSettings />
        <DkimSettings />
        <ReminderDefaults />
        <SigningCertificate />
        <TimestampSettings />
        <OfficeLog />
        <ArchiveRenewalSettings />
        <TrustedRootsSettings />
        <BackupRestore />
        <BackupSchedule />
      </div>
    </>
  );
}
