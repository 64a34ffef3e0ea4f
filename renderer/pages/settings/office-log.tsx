import type { TOfficeLogCheck, TOfficeLogEntry } from '../../../shared/api/anchors';
import { DataTable } from '../../components/data-table';
import { Badge, Card, DescriptionList, Loading, ProblemAlert } from '../../components/ui';
import { getJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useLoad } from '../../lib/use-load';

/** How many of the newest office-log entries the card lists. */
const SHOWN = 15;

/**
 * The office's own log (users, API keys, settings, the seal certificate) and the office anchors:
 * whether both hold, up to which entry an outside timestamp proves the log, the newest entries.
 */
export function OfficeLog() {
  const t = useT();
  const check = useLoad((signal) => getJson<TOfficeLogCheck>('/api/office_log/verification', signal), []);
  const entries = useLoad((signal) => getJson<TOfficeLogEntry[]>('/api/office_log', signal), []);
  const data = check.data;
  return (
    <Card title={t('officeLog.title')} description={t('officeLog.description')}>
      <ProblemAlert error={check.error ?? entries.error} />
      {!data ? (
        <Loading />
      ) : (
        <DescriptionList
          items={[
            {
              term: t('officeLog.state'),
              value: (
                <span data-testid="office-log-state" data-intact={String(data.is_intact)}>
                  <Badge tone={data.is_intact ? 'success' : 'danger'}>{data.is_intact ? '✓' : '✗'}</Badge>{' '}
                  {data.is_intact
                    ? t('officeLog.intact', { n: String(data.entry_count), anchors: String(data.anchor_count) })
                    : t('officeLog.broken')}
                  {data.problems.length > 0 ? (
                    <ul className="small">
                      {data.problems.map((problem) => (
                        <li key={`${problem.sequence}-${problem.problem}`}>
                          {problem.sequence > 0 ? `#${problem.sequence}: ` : ''}
                          {problem.problem}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </span>
              ),
            },
            {
              term: t('officeLog.anchored'),
              value:
                data.latest_anchor_time === null
                  ? t('officeLog.noAnchor')
                  : t('officeLog.anchoredUpTo', {
                      n: String(data.proven_through_sequence),
                      time: data.latest_anchor_time,
                    }),
            },
          ]}
        />
      )}
      {entries.data && entries.data.length > 0 ? (
        <DataTable
          caption={t('officeLog.title')}
          columns={['#', t('officeLog.time'), t('officeLog.event'), t('officeLog.subject')]}
        >
          {entries.data
            .slice(-SHOWN)
            .reverse()
            .map((entry) => (
              <tr key={entry.sequence}>
                <td>{entry.sequence}</td>
                <td>{entry.time}</td>
                <td>{entry.event}</td>
                <td className="small">{entry.subject}</td>
              </tr>
            ))}
        </DataTable>
      ) : null}
    </Card>
  );
}
