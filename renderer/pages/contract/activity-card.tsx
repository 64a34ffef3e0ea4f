import { Fragment, useState, type ReactNode } from 'react';
import type { TActivityEntry } from '../../../shared/api/contracts';
import type { TParty } from '../../../shared/api/parties';
import { DataTable } from '../../components/data-table';
import { Button, Card } from '../../components/ui';
import { en, type MessageKey } from '../../i18n/en';
import { idOf } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { Link } from '../../lib/router';
import { describeUserAgent } from '../../lib/user-agent';

/** How many entries show before "Show all": the newest tell what is going on. */
const FIRST_ENTRIES = 8;

/** The readable name of an activity event; an event this UI does not know yet shows as its code. */
const labelKey = (event: string): MessageKey | undefined => {
  const key = `activity.${event}`;
  return key in en ? (key as MessageKey) : undefined;
};

const DETAIL_KEYS: Record<string, MessageKey> = {
  email: 'activity.via.email',
  sms: 'activity.via.sms',
  'email+sms': 'activity.via.emailAndSms',
  none: 'activity.via.none',
  auto_sign: 'activity.autoSign',
};

/** What the entry is about and how it went: the party's name, "by e-mail", a reason, the original of a copy. */
function EntryDetail({ entry, partyNames }: { entry: TActivityEntry; partyNames: ReadonlyMap<string, string> }) {
  const t = useT();
  const parts: ReactNode[] = [];
  const party = partyNames.get(entry.subject);
  if (party) parts.push(party);
  if (entry.detail === 'duplicate' && /^\/api\/contracts\/\d+$/.test(entry.subject)) {
    parts.push(
      <Link key="copy" to={`/contracts/${idOf(entry.subject)}`}>
        {t('activity.copyOf', { id: idOf(entry.subject) })}
      </Link>,
    );
  } else if (entry.detail) {
    const key = DETAIL_KEYS[entry.detail];
    parts.push(key ? t(key) : `“${entry.detail}”`);
  }
  if (parts.length === 0) return null;
  return (
    <div className="small muted activity-detail">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? ' · ' : null}
          {part}
        </Fragment>
      ))}
    </div>
  );
}

function EntryRow({ entry, partyNames }: { entry: TActivityEntry; partyNames: ReadonlyMap<string, string> }) {
  const t = useT();
  const key = labelKey(entry.event);
  return (
    <tr data-testid="activity-row" data-event={entry.event}>
      <td className="numeric">{entry.time}</td>
      <td className="cell-event">
        {key ? <div>{t(key)}</div> : null}
        <div className={key ? 'mono small muted' : 'mono'}>{entry.event}</div>
        <EntryDetail entry={entry} partyNames={partyNames} />
      </td>
      <td className="cell-actor">
        <div>{entry.actor_name || (entry.actor_type === 'appliance' ? t('contract.appliance') : '—')}</div>
        <div className="small muted">
          {[t(`actor.${entry.actor_type}`), entry.ip_address].filter(Boolean).join(' · ')}
        </div>
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
export function ActivityCard({ entries, parties }: { entries: TActivityEntry[] | undefined; parties: TParty[] | undefined }) {
  const t = useT();
  const partyNames = new Map((parties ?? []).map((party) => [party.self, party.name]));
  const [isAll, setIsAll] = useState(false);
  const shown = entries && !isAll ? entries.slice(0, FIRST_ENTRIES) : entries;
  return (
    <Card title={t('contract.activity')} isFlush actions={<span className="live-dot" aria-hidden="true" title={t('state.live')} />}>
      {entries && entries.length === 0 ? <p className="muted card-flush-text">{t('contract.noActivity')}</p> : null}
      {shown && shown.length > 0 ? (
        <DataTable caption={t('contract.activity')} columns={[t('field.time'), t('field.event'), t('field.by')]}>
          {shown.map((entry, index) => (
            <EntryRow key={`${entry.time}-${entry.event}-${index}`} entry={entry} partyNames={partyNames} />
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
