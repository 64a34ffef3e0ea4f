import type { TAnnotation } from '../../../shared/api/annotations';
import type { TParty } from '../../../shared/api/parties';
import { formatFileSize, shortHash } from '../../../shared/field-answers';
import { Card, ProblemAlert } from '../../components/ui';
import { downloadFile } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';
import { readAll } from './use-contract';

const pathOf = (url: string) => new URL(url, window.location.origin).pathname;

/**
 * What the parties filled in (the annotations' `value`), by party and field label, once any has
 * answered; a file a party attached is downloaded from here, named with its SHA-256.
 */
export function AnswersCard({
  contractPath,
  parties,
  answered,
}: {
  contractPath: string;
  parties: TParty[] | undefined;
  answered: number;
}) {
  const t = useT();
  const action = useAction();
  const annotations = useLoad(
    (signal) => readAll<TAnnotation>(`${contractPath}/annotations`, signal),
    [contractPath, answered],
  );
  const answers = (annotations.data ?? [])
    .filter((field) => field.value !== null && field.type !== 'SIGNATURE' && field.type !== 'INITIALS')
    .reverse();
  if (answers.length === 0) return null;
  const partyName = (path: string) => parties?.find((party) => party.self === path)?.name ?? path;
  return (
    <Card title={t('answers.title')} description={t('answers.description')}>
      <ProblemAlert error={action.error} onDismiss={action.dismiss} />
      <dl className="answers-list">
        {answers.map((field) => {
          const value = field.value;
          const name = `${partyName(field.party_id)} · ${field.label || t(`fieldType.${field.type}`)}`;
          return (
            <div key={field.self} className="answers-row">
              <dt>{name}</dt>
              <dd>
                {value !== null && typeof value === 'object' ? (
                  <>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() =>
                        void action.run(field.self, () =>
                          downloadFile(pathOf(value.download_uri), '*/*', value.file_name),
                        )
                      }
                    >
                      {value.file_name}
                    </button>{' '}
                    <span className="small muted">
                      {t('answers.file', { size: formatFileSize(value.size), sha256: shortHash(value.sha256) })}
                    </span>
                  </>
                ) : typeof value === 'boolean' ? (
                  value ? (
                    t('answers.ticked')
                  ) : (
                    t('answers.notTicked')
                  )
                ) : (
                  String(value)
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </Card>
  );
}
