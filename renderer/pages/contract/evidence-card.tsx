import type { TActivityChainCheck, TActivityEntry, TContract } from '../../../shared/api/contracts';
import { Badge, Button, Card, DescriptionList, Notice, ProblemAlert } from '../../components/ui';
import { downloadFile, getJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

const CLOCK_WARNING_SECONDS = 60;

/** The base the parties' links start with (the API's pdf_preview_uri is made on it). */
const publicBaseOf = (contract: TContract) => contract.pdf_preview_uri.replace(/\/api\/contracts\/\d+\/pdf$/, '');

/** The clock offset the latest timestamp found (the log's contract.timestamped entry says it). */
function clockOffsetOf(log: readonly TActivityEntry[]): number | undefined {
  const entry = log.find((item) => item.event === 'contract.timestamped');
  const seconds = Number(entry?.details?.clock_offset_s);
  return entry && Number.isFinite(seconds) ? seconds : undefined;
}

/** A loud notice while a signed contract waits for its timestamp. */
export function TimestampPendingNotice({ contract }: { contract: TContract }) {
  const t = useT();
  if (contract.timestamp_status !== 'pending') return null;
  return (
    <Notice tone="warning" title={t('evidence.timestampPending')}>
      {t('evidence.timestampPendingBody')}
    </Notice>
  );
}

/**
 * What backs the contract as evidence: the hash chain of its log (checked by the server), its
 * trusted timestamp, and the evidence package to download.
 */
export function EvidenceCard({
  path,
  contract,
  log,
  isSigned,
}: {
  path: string;
  contract: TContract;
  log: readonly TActivityEntry[];
  isSigned: boolean;
}) {
  const t = useT();
  const check = useLoad(
    (signal) => getJson<TActivityChainCheck>(`${path}/activity_log/verification`, signal),
    [path, log.length],
  );
  const action = useAction();
  const offset = clockOffsetOf(log);
  const time = contract.timestamp_time ?? '';
  const timestamp =
    contract.timestamp_status === 'signature'
      ? t('evidence.timestampSignature', { time })
      : contract.timestamp_status === 'document'
        ? t('evidence.timestampDocument', { time })
        : contract.timestamp_status === 'pending'
          ? t('evidence.timestampPending')
          : t('evidence.timestampNone');
  const chain = check.data;
  const download = () =>
    void action.run('evidence', () =>
      downloadFile(`${path}/evidence`, 'application/zip', `contract-${path.split('/').at(-1)}-evidence.zip`),
    );
  return (
    <Card title={t('evidence.title')} description={t('evidence.description')} className="evidence-card">
      <ProblemAlert error={action.error ?? check.error} onDismiss={action.dismiss} />
      {offset !== undefined && Math.abs(offset) > CLOCK_WARNING_SECONDS ? (
        <Notice tone="warning">{t('evidence.clockOff', { seconds: String(offset) })}</Notice>
      ) : null}
      <DescriptionList
        items={[
          {
            term: t('evidence.chain'),
            value: !chain ? (
              t('evidence.chainChecking')
            ) : (
              <span data-testid="chain-state" data-intact={String(chain.is_intact)}>
                <Badge tone={chain.is_intact ? 'success' : 'danger'}>{chain.is_intact ? '✓' : '✗'}</Badge>{' '}
                {chain.is_intact
                  ? t('evidence.chainIntact', { n: String(chain.entry_count) })
                  : t('evidence.chainBroken')}
                {chain.sealed_head_sequence ? (
                  <span className="muted small">
                    {' '}
                    · {t('evidence.sealedHead', { n: String(chain.sealed_head_sequence) })}
                  </span>
                ) : null}
                <span
                  className="small"
                  data-testid="chain-anchoring"
                  data-proven={String(chain.proven_through_sequence)}
                >
                  <br />
                  {chain.proofs.length > 0
                    ? t('evidence.anchored', {
                        n: String(chain.proven_through_sequence),
                        time: chain.proofs.at(-1)!.authority_time,
                        anchor: String(chain.proofs.at(-1)!.anchor),
                      })
                    : t('evidence.notAnchored')}
                  {chain.proofs.length > 0 && chain.proven_through_sequence < chain.entry_count
                    ? ` ${t('evidence.anchoredPartly', { n: String(chain.proven_through_sequence) })}`
                    : null}
                </span>
                {chain.problems.length > 0 ? (
                  <ul className="small">
                    {chain.problems.map((problem) => (
                      <li key={`${problem.sequence}-${problem.problem}`}>
                        #{problem.sequence}: {problem.problem}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </span>
            ),
          },
          ...(isSigned
            ? [
                {
                  term: t('evidence.timestamp'),
                  value: (
                    <span data-testid="timestamp-state" data-status={contract.timestamp_status ?? ''}>
                      {contract.timestamp_status === 'pending' ? <Badge tone="warning">{timestamp}</Badge> : timestamp}
                    </span>
                  ),
                },
                {
                  term: t('evidence.ltv'),
                  value: <LtvState contract={contract} />,
                },
                {
                  term: t('evidence.package'),
                  value: (
                    <span className="muted small">
                      {t('evidence.packageHint')}{' '}
                      {t('evidence.verifyHint', { url: `${publicBaseOf(contract)}/verify` })}
                    </span>
                  ),
                },
              ]
            : []),
        ]}
      />
      {isSigned ? (
        <div className="form-actions">
          <Button onClick={download} isBusy={action.busy === 'evidence'}>
            {t('evidence.download')}
          </Button>
        </div>
      ) : null}
    </Card>
  );
}

/** Long-term validation: B-LTA with its archive timestamp, or what it waits for. */
function LtvState({ contract }: { contract: TContract }) {
  const t = useT();
  const status = contract.ltv_status ?? 'none';
  return (
    <span data-testid="ltv-state" data-status={status}>
      {status === 'done' ? (
        <>
          {t('evidence.ltvDone', { time: contract.archive_time ?? '', expires: contract.archive_expire_time ?? '' })}
          {contract.ltv_note ? (
            <span className="muted small" data-testid="ltv-note">
              {' '}
              {t('evidence.ltvNote', { note: contract.ltv_note })}
            </span>
          ) : null}
        </>
      ) : status === 'pending' ? (
        <>
          <Badge tone="warning">{t('evidence.ltvPending')}</Badge>
          {contract.ltv_error ? (
            <span className="muted small"> {t('evidence.ltvPendingBody', { error: contract.ltv_error })}</span>
          ) : null}
        </>
      ) : (
        t('evidence.ltvNone')
      )}
    </span>
  );
}
