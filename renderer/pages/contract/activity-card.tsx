import { useState } from 'react';
import type { TActivityEntry } from '../../../shared/api/contracts';
import { DataTable } from '../../components/data-table';
import { Button, Card } from '../../components/ui';
import { en, type MessageKey } from '../../i18n/en';
import { useT } from '../../lib/i18n';
import { describeUserAgent } from '../../lib/user-agent';

/** How many entries show before "Show all": the newest tell what is going on. */
const FIRST_ENTRIES = 8;

/** The readable name of an activity event; an event this UI does not know yet shows as its code. */
const labelKey = (event: string): MessageKey | undefined => {
  const key = `activity.${event}`;
  return key in en ? (key as MessageKey) : undefined;
};

function EntryRow({ entry }: { entry: TActivityEntry }) {
  const t = useT();
  const key = labelKey(entry.event);
  return (
    <tr>
      <td className="numeric">{entry.time}</td>
      <td className="cell-event">
        {key ? <div>{t(key)}</div> : null}
        <div className={key ? 'mono small muted' : 'mono'}>{entry.event}</div>
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
