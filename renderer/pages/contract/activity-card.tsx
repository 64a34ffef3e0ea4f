import { useState } from 'react';
import { activityDetailLabel, activityEventLabel } from '../../../shared/activity-events';
import type { TActivityEntry } from '../../../shared/api/contracts';
import { DataTable } from '../../components/data-table';
import { Button, Card } from '../../components/ui';
import { useI18n, useT } from '../../lib/i18n';
import { describeUserAgent } from '../../lib/user-agent';

/** How many entries show before "Show all": the newest tell what is going on. */
const FIRST_ENTRIES = 8;

/** What an entry says beyond its event: the channel, the typed name, the cause… (shared/activity-events.ts names them). */
function detailsOf(entry: TActivityEntry, language: 'en' | 'sv'): string {
  return Object.entries(entry.details ?? {})
    .map(([key, value]) => (value === 'true' ? activityDetailLabel(key, language) : value === 'false' ? '' : `${activityDetailLabel(key, language)}: ${value}`))
    .filter(Boolean)
    .join(' · ');
}

function EntryRow({ entry }: { entry: TActivityEntry }) {
  const t = useT();
  const { language } = useI18n();
  // An event the shared table does not know yet shows as its code.
  const label = activityEventLabel(entry.event, language);
  const details = detailsOf(entry, language);
  return (
    <tr>
      <td className="numeric">{entry.time}</td>
      <td className="cell-event">
        {label ? <div>{label}</div> : null}
        {details ? <div className="small">{details}</div> : null}
        <div className={label ? 'mono small muted' : 'mono'} title={entry.hash ? `#${entry.sequence} ${entry.hash}` : undefined}>
          {entry.sequence ? `#${entry.sequence} ` : ''}
          {entry.event}
        </div>
      </td>
      <td className="cell-origin">
        {entry.ip_address ? <div className="mono">{entry.ip_address}</div> : <div className="muted">{t('contract.appliance')}</div>}
        {entry.user_agent ? (
          <div className="small muted truncate" title={entry.user_agent}>
            {describeUserAgent(entry.user_agent)}
          </div>
        ) : null}
      </td>
    </tr>
  );
}

/** Every change and party action, newest first, live. */
export function ActivityCard({ entries }: { entries: TActivityEntry[] | undefined }) {
  const t = useT();
  const [isAll, setIsAll] = useState(false);
  const shown = entries && !isAll ? entries.slice(0, FIRST_ENTRIES) : entries;
  return (
    <Card title={t('contract.activity')} isFlush actions={<span className="live-dot" aria-hidden="true" title={t('state.live')} />}>
      {entries && entries.length === 0 ? <p className="muted card-flush-text">{t('contract.noActivity')}</p> : null}
      {shown && shown.length > 0 ? (
        <DataTable caption={t('contract.activity')} columns={[t('field.time'), t('field.event'), t('field.origin')]}>
          {shown.map((entry, index) => (
            <EntryRow key={`${entry.time}-${entry.event}-${index}`} entry={entry} />
          ))}
        </DataTable>
      ) : null}
      {entries && entries.length > FIRST_ENTRIES ? (
        <div className="card-more">
          <Button size="small" variant="ghost" onClick={() => setIsAll(!isAll)} aria-expanded={isAll}>
            {isAll ? t('contract.showFewer') : t('contract.showAll', { n: entries.length })}
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
