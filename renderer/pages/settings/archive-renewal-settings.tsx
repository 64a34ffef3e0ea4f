import type { TArchiveRenewal } from '../../../shared/api/archive-renewal';
import { Button, Card, Loading, Notice, ProblemAlert } from '../../components/ui';
import { getJson, sendJson } from '../../lib/api';
import { Link } from '../../lib/router';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

/** Archive timestamps: the last renewal's progress, the next daily check, and renewing all now. */
export function ArchiveRenewalSettings() {
  const t = useT();
  const loaded = useLoad((signal) => getJson<TArchiveRenewal>('/api/settings/timestamps/archive_renewal', signal), [], {
    pollMs: 3_000,
  });
  const action = useAction<'renew'>();
  if (!loaded.data)
    return (
      <Card title={t('settings.archive')}>{loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading />}</Card>
    );
  const current = loaded.data;
  const renew = () =>
    void action.run('renew', async () => {
      await sendJson('POST', '/api/settings/timestamps/archive_renewal');
      await loaded.reload();
    });
  return (
    <Card
      title={t('settings.archive')}
      description={t('settings.archiveDescription', { days: String(current.renew_before_days) })}
      className="panel-archive"
    >
      <ProblemAlert error={action.error} />
      {current.pending > 0 ? (
        <Notice tone="warning" title={t('settings.archivePending', { n: String(current.pending) })}>
          {current.errors.length > 0 ? (
            <ul className="small">
              {current.errors.map((item) => (
                <li key={item.contract}>
                  <Link to={`/contracts/${item.contract.split('/').at(-1)}`}>#{item.contract.split('/').at(-1)}</Link>:{' '}
                  <span className="mono">{item.error}</span>
                </li>
              ))}
            </ul>
          ) : null}
        </Notice>
      ) : null}
      <p data-testid="archive-progress">
        {current.started_time
          ? t('settings.archiveLast', {
              reason: t(current.reason === 'admin' ? 'settings.archiveReasonAdmin' : 'settings.archiveReasonScheduled'),
              time: current.started_time,
              renewed: String(current.renewed),
              total: String(current.total),
            })
          : t('settings.archiveNever')}
      </p>
      {current.next_check_time ? (
        <p className="muted small">{t('settings.archiveNext', { time: current.next_check_time })}</p>
      ) : null}
      <div className="form-actions">
        <Button onClick={renew} isBusy={action.busy === 'renew'}>
          {t('settings.archiveRenewAll')}
        </Button>
      </div>
    </Card>
  );
}
