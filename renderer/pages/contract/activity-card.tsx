import type { TActivityEntry } from '../../../shared/api/contracts';
import { DataTable } from '../../components/data-table';
import { Card } from '../../components/ui';
import { en, type MessageKey } from '../../i18n/en';
import { useT } from '../../lib/i18n';

/** The readable name of an activity event; an event this UI does not know yet shows as its code. */
const labelKey = (event: string): MessageKey | undefined => {
  const key = `activity.${event}`;
  return key in en ? (key as MessageKey) : undefined;
};

/** Every change and party action, newest first, live. */
export function ActivityCard({ entries }: { entries: TActivityEntry[] | undefined }) {
  const t = useT();
  return (
    <Card title={t('contract.activity')} isFlush actions={<span className="live-dot" aria-hidden="true" title={t('state.live')} />}>
      {entries && entries.length === 0 ? <p className="muted card-flush-text">{t('contract.noActivity')}</p> : null}
      {entries && entries.length > 0 ? (
        <DataTable caption={t('contract.activity')} columns={[t('field.time'), t('field.event'), t('field.ipAddress'), t('field.userAgent')]}>
          {entries.map((entry, index) => {
            const key = labelKey(entry.event);
            return (
              <tr key={`${entry.time}-${index}`}>
                <td className="numeric">{entry.time}</td>
                <td className="cell-event">
                  {key ? <div>{t(key)}</div> : null}
                  <div className={key ? 'mono small muted' : 'mono'}>{entry.event}</div>
                </td>
                <td className="mono">{entry.ip_address || <span className="muted">{t('contract.appliance')}</span>}</td>
                <td className="truncate" title={entry.user_agent}>
                  {entry.user_agent || '—'}
                </td>
              </tr>
            );
          })}
        </DataTable>
      ) : null}
    </Card>
  );
}
