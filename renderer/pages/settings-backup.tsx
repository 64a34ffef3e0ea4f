import { useState } from 'react';
import { useHasChanged } from '../lib/forms';
import { BACKUP_CONTENT_TYPE, BACKUP_PASSPHRASE_HEADER, type TBackupSchedule } from '../../shared/api/backup';
import { useConfirm } from '../components/confirm';
import { CheckboxField, FileField, TextField } from '../components/fields';
import { Button, Card, DescriptionList, Loading, Notice, ProblemAlert } from '../components/ui';
import { downloadFile, getJson, request, sendJson } from '../lib/api';
import { useI18n, useT } from '../lib/i18n';
import type { TStorage } from '../../shared/api/storage';
import { formatDiskSpace } from '../../shared/sizes';
import { useSession } from '../lib/session';
import { useAction } from '../lib/use-action';
import { useLoad } from '../lib/use-load';

/** Where the office's data lies and how much room its disk has left (the layout warns when it is low). */
function DataFolderSpace() {
  const { t, language } = useI18n();
  const storage = useLoad((signal) => getJson<TStorage>('/api/settings/storage', signal), [], { pollMs: 60_000 });
  if (!storage.data) return null;
  const text = t('storage.line', {
    folder: storage.data.data_folder,
    free: formatDiskSpace(storage.data.free_bytes, language),
    total: formatDiskSpace(storage.data.total_bytes, language),
  });
  return (
    <p className={storage.data.is_low ? undefined : 'muted'} data-testid="data-folder-space">
      {text}
    </p>
  );
}

/** A header holds Latin-1 only: the passphrase travels as base64 of its UTF-8 bytes (å, ä, ö welcome). */
function passphraseHeader(passphrase: string): Record<string, string> {
  const bytes = new TextEncoder().encode(passphrase);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return { [BACKUP_PASSPHRASE_HEADER]: btoa(binary) };
}

const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** Download a whole-office backup under a passphrase; restore one (the file checked whole before anything changes). */
export function BackupRestore() {
  const t = useT();
  const confirm = useConfirm();
  const { end } = useSession();
  const [passphrase, setPassphrase] = useState('');
  const [file, setFile] = useState<File>();
  const [restorePassphrase, setRestorePassphrase] = useState('');
  const action = useAction<'backup' | 'restore'>();
  const backup = action.submit('backup', async () => {
    await downloadFile('/api/settings/backup', BACKUP_CONTENT_TYPE, 'signdesk.sdbackup', { body: { passphrase } });
    setPassphrase('');
  });
  const restore = action.submit('restore', async () => {
    if (!file) return;
    if (
      !(await confirm({
        title: t('backup.confirmRestoreTitle'),
        body: t('backup.confirmRestore'),
        confirmLabel: t('backup.restoreButton'),
      }))
    )
      return;
    await request('POST', '/api/settings/restore', {
      raw: file,
      contentType: BACKUP_CONTENT_TYPE,
      headers: passphraseHeader(restorePassphrase),
    });
    end('restored');
  });
  const errorsOf = (kind: 'backup' | 'restore') => (action.busy === kind || action.error ? action.errors : {});
  return (
    <Card title={t('backup.title')} description={t('backup.description')}>
      <DataFolderSpace />
      <ProblemAlert error={action.error} onDismiss={action.dismiss} />
      <div className="backup-grid">
        <form onSubmit={backup} noValidate>
          <h3>{t('backup.download')}</h3>
          <p className="muted">{t('backup.downloadBody')}</p>
          <TextField
            label={t('backup.passphrase')}
            hint={t('backup.passphraseHint')}
            error={errorsOf('backup').passphrase}
            value={passphrase}
            onValue={setPassphrase}
            type="password"
            autoComplete="new-password"
          />
          <Button type="submit" isBusy={action.busy === 'backup'} disabled={passphrase.length === 0}>
            {t('backup.downloadButton')}
          </Button>
        </form>
        <form onSubmit={restore} noValidate>
          <h3>{t('backup.restore')}</h3>
          <p className="muted">{t('backup.restoreBody')}</p>
          <FileField
            label={t('backup.file')}
            error={errorsOf('restore').file}
            accept=".sdbackup,application/vnd.signdesk.backup"
            onFile={setFile}
          />
          <TextField
            label={t('backup.restorePassphrase')}
            error={errorsOf('restore').passphrase}
            value={restorePassphrase}
            onValue={setRestorePassphrase}
            type="password"
            autoComplete="off"
          />
          <Button
            type="submit"
            variant="danger"
            isBusy={action.busy === 'restore'}
            disabled={!file || restorePassphrase.length === 0}
          >
            {t('backup.restoreButton')}
          </Button>
        </form>
      </div>
    </Card>
  );
}

/** Backups into a folder on a schedule, the newest N kept; the last result in plain sight. */
export function BackupSchedule() {
  const t = useT();
  const loaded = useLoad((signal) => getJson<TBackupSchedule>('/api/settings/backup_schedule', signal), [], {
    pollMs: 5000,
  });
  const [form, setForm] = useState({ is_enabled: false, folder: '', interval_hours: '24', keep: '7', passphrase: '' });
  const [isSaved, setIsSaved] = useState(false);
  const action = useAction<'save' | 'run' | 'confirm'>();
  const data = loaded.data;
  // Only when the schedule itself changes, not on every poll of its last result.
  const schedule = data && JSON.stringify([data.is_enabled, data.folder, data.interval_hours, data.keep]);
  if (useHasChanged(schedule) && data)
    setForm((before) => ({
      ...before,
      is_enabled: data.is_enabled,
      folder: data.folder ?? '',
      interval_hours: String(data.interval_hours),
      keep: String(data.keep),
    }));
  if (!data)
    return (
      <Card title={t('backup.scheduleTitle')}>
        {loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading />}
      </Card>
    );
  const save = action.submit('save', async () => {
    setIsSaved(false);
    const body: Record<string, unknown> = {
      is_enabled: form.is_enabled,
      interval_hours: Number(form.interval_hours),
      keep: Number(form.keep),
    };
    if (form.folder.trim() !== (data.folder ?? '')) body.folder = form.folder.trim();
    if (form.passphrase) body.passphrase = form.passphrase;
    await sendJson('PUT', '/api/settings/backup_schedule', body);
    setForm((before) => ({ ...before, passphrase: '' }));
    setIsSaved(true);
    await loaded.reload();
  });
  const runNow = () =>
    void action.run('run', async () => {
      await sendJson('POST', '/api/settings/backup_schedule/run');
      await loaded.reload();
    });
  const confirmCopy = () =>
    void action.run('confirm', async () => {
      await sendJson('POST', '/api/settings/backup_schedule/confirm_restored_copy');
      await loaded.reload();
    });
  const last = data.last_result;
  const drill = data.last_drill;
  const copy = data.restored_copy;
  return (
    <form onSubmit={save} noValidate>
      <Card title={t('backup.scheduleTitle')} description={t('backup.scheduleDescription')}>
        <ProblemAlert error={action.error} onDismiss={action.dismiss} />
        {isSaved && !action.error ? <Notice tone="success">{t('state.saved')}</Notice> : null}
        {copy ? (
          <div data-testid="backup-restored-copy">
            <Notice tone="warning" title={t('backup.restoredCopyTitle')}>
              <p>{t('backup.restoredCopy', { restored: copy.restored_time, made: copy.backup_made_time })}</p>
              <Button onClick={confirmCopy} isBusy={action.busy === 'confirm'}>
                {t('backup.confirmRestoredCopy')}
              </Button>
            </Notice>
          </div>
        ) : null}
        <div data-testid="backup-last-result">
          {last === null ? (
            <p className="muted">{t('backup.noRunYet')}</p>
          ) : last.error === null ? (
            <Notice tone="success" title={t('backup.lastOk', { time: last.time })}>
              <span className="mono wrap">{last.file}</span> · {formatSize(last.size_bytes ?? 0)}
            </Notice>
          ) : (
            <Notice tone="warning" title={t('backup.lastFailed', { time: last.time })}>
              {last.error}
            </Notice>
          )}
        </div>
        {drill ? (
          <div data-testid="backup-last-drill">
            {drill.is_ok ? (
              <Notice tone="success" title={t('backup.drillOk', { time: drill.time })}>
                {t('backup.drillAbout')} {drill.checks.join(' · ')}
              </Notice>
            ) : (
              <Notice tone="warning" title={t('backup.drillFailed', { time: drill.time })}>
                {drill.error}
              </Notice>
            )}
          </div>
        ) : null}
        {data.is_enabled && data.next_run_time ? (
          <DescriptionList items={[{ term: t('backup.nextRun'), value: data.next_run_time }]} />
        ) : null}
        <CheckboxField
          label={t('backup.scheduleEnabled')}
          checked={form.is_enabled}
          onChecked={(is_enabled) => setForm({ ...form, is_enabled })}
        />
        <div className="form-grid">
          <TextField
            label={t('backup.folder')}
            hint={t('backup.folderHint')}
            error={action.errors.folder}
            value={form.folder}
            onValue={(folder) => setForm({ ...form, folder })}
            className="mono"
            placeholder="/home/office/Backups/SignDesk"
          />
          <TextField
            label={t('backup.interval')}
            error={action.errors.interval_hours}
            value={form.interval_hours}
            onValue={(interval_hours) => setForm({ ...form, interval_hours })}
            inputMode="numeric"
          />
          <TextField
            label={t('backup.keep')}
            error={action.errors.keep}
            value={form.keep}
            onValue={(keep) => setForm({ ...form, keep })}
            inputMode="numeric"
          />
          <TextField
            label={t('backup.schedulePassphrase')}
            hint={data.has_passphrase ? t('backup.passphraseStored') : t('backup.passphraseHint')}
            error={action.errors.passphrase}
            value={form.passphrase}
            onValue={(passphrase) => setForm({ ...form, passphrase })}
            type="password"
            autoComplete="new-password"
          />
        </div>
        <div className="form-actions">
          <Button onClick={runNow} isBusy={action.busy === 'run'} disabled={!data.is_enabled}>
            {t('backup.runNow')}
          </Button>
          <Button type="submit" variant="primary" isBusy={action.busy === 'save'}>
            {t('action.save')}
          </Button>
        </div>
      </Card>
    </form>
  );
}
