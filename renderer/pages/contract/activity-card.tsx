import { Fragment, useState, type ReactNode } from 'react';
import { activityDetailLabel, activityEventLabel } from '../../../shared/activity-events';
import type { TActivityEntry } from '../../../shared/api/contracts';
import type { TParty } from '../../../shared/api/parties';
import { DataTable } from '../../components/data-table';
import { Button, Card } from '../../components/ui';
import type { MessageKey } from '../../i18n/en';
import { idOf } from '../../lib/api';
import { useI18n, useT } from '../../lib/i18n';
import { Link } from '../../lib/router';
import { describeUserAgent } from '../../lib/user-agent';

/** How many entries show before "Show all": the newest tell what is going on. */
const FIRST_ENTRIES = 8;

/** How a message went out, as a phrase ("by e-mail"); another channel shows under its label. */
const CHANNEL_KEYS: Record<string, MessageKey> = {
  email: 'activity.via.email',
  sms: 'activity.via.sms',
  'email+sms': 'activity.via.emailAndSms',
  none: 'activity.via.none',
};

/**
 * What the entry is about and says beyond its event: the party's name, "by e-mail", the typed
 * name, a reason, the original of a copy (shared/activity-events.ts names the details).
 */
function EntryDetail({ entry, partyNames }: { entry: TActivityEntry; partyNames: ReadonlyMap<string, string> }) {
  const t = useT();
  const { language } = useI18n();
  const parts: ReactNode[] = [];
  // The party as the entry named it when written (a delegation or correction renames the row).
  const party = entry.details?.party_name ?? partyNames.get(entry.subject);
  if (party) parts.push(party);
  for (const [key, value] of Object.entries(entry.details ?? {})) {
    if (key === 'party_name') continue;
    const label = activityDetailLabel(key, language);
    if (key === 'copy_of' && /^\/api\/contracts\/\d+$/.test(value)) {
      parts.push(
        <Link key="copy" to={`/contracts/${idOf(value)}`}>
          {t('activity.copyOf', { id: idOf(value) })}
        </Link>,
      );
    } else if (key === 'channel' && CHANNEL_KEYS[value]) parts.push(t(CHANNEL_KEYS[value]));
    // The address a message went to reads as itself.
    else if (key === 'email' || key === 'mobile_phone') parts.push(value);
    else if (value === 'true') parts.push(label);
    else if (value !== 'false') parts.push(`${label}: ${value}`);
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
  const { language } = useI18n();
  // An event the shared table does not know yet shows as its code.
  const label = activityEventLabel(entry.event, language);
  return (
    <tr data-testid="activity-row" data-event={entry.event}>
      <td className="numeric">{entry.time}</td>
      <td className="cell-event">
        {label ? <div>{label}</div> : null}
        <div
          className={label ? 'mono small muted' : 'mono'}
          title={entry.hash ? `#${entry.sequence} ${entry.hash}` : undefined}
        >
          {entry.sequence ? `#${entry.sequence} ` : ''}
          {entry.event}
        </div>
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
export function ActivityCard({
  entries,
  parties,
}: {
  entries: TActivityEntry[] | undefined;
  parties: TParty[] | undefined;
}) {
  const t = useT();
  const partyNames = new Map((parties ?? []).map((party) => [party.self, party.name]));
  const [isAll, setIsAll] = useState(false);
  const shown = entries && !isAll ? entries.slice(0, FIRST_ENTRIES) : entries;
  return (
    <Card
      title={t('contract.activity')}
      isFlush
      actions={<span className="live-dot" aria-hidden="true" title={t('state.live')} />}
    >
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
