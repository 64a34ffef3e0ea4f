import { useId } from 'react';
import { Badge } from '../../components/ui';
import { STATUS_LABEL, STATUS_TONE } from '../../lib/contract-status';
import { useT } from '../../lib/i18n';
import { answerProgress, isAwaited } from '../../lib/party-state';
import type { ContractView } from './use-contract';

const names = (list: { name: string }[]) => list.map((party) => party.name).join(', ');

/** The headline and the line under it: whom the contract waits for, who rejected it and why. */
function Summary({ view, headingId }: { view: ContractView; headingId: string }) {
  const t = useT();
  const rejecter = view.views.find((party) => party.state === 'rejected')?.party;
  const awaited = view.views.filter(isAwaited).map((party) => party.party);
  const headline = t(`contract.headline.${view.status}` as const, { name: rejecter?.name ?? '—' });
  let summary: string;
  if (view.status === 'sent')
    summary =
      awaited.length > 0 ? t('contract.summary.sent', { names: names(awaited) }) : t('contract.summary.sentNobody');
  else if (view.status === 'withdrawn')
    summary = t('contract.summary.withdrawn', {
      time: view.contract.withdrawn_time ?? '',
      name: view.withdrawnBy ?? '—',
    });
  else summary = t(`contract.summary.${view.status}` as const, { time: view.expiredAt ?? '' });
  return (
    <>
      <h2 id={headingId}>{headline}</h2>
      <p>{summary}</p>
      {view.status === 'rejected' && rejecter?.reject_cause ? (
        <blockquote className="status-cause">{rejecter.reject_cause}</blockquote>
      ) : null}
      {view.status === 'withdrawn' && view.contract.withdraw_reason ? (
        <blockquote className="status-cause">{view.contract.withdraw_reason}</blockquote>
      ) : null}
    </>
  );
}

/** The contract's status at a glance: where it stands, how far the answers have come, its dates. */
export function StatusPanel({ view }: { view: ContractView }) {
  const t = useT();
  const headingId = useId();
  const { contract, status } = view;
  const progress = answerProgress(view.views);
  const signedTimes = view.views.map((party) => party.party.sign_time).filter((time): time is string => Boolean(time));
  const completed = status === 'signed' ? signedTimes.sort().at(-1) : undefined;
  const facts = [
    { term: t('field.created'), value: contract.created_time },
    { term: t('field.sent'), value: contract.sent_time },
    { term: t('contract.completed'), value: completed },
    // When the links close matters while they are open.
    {
      term: t('field.expireTime'),
      value: status === 'draft' || status === 'sent' ? (contract.expire_time ?? t('contract.noExpiry')) : undefined,
    },
  ].filter((fact): fact is { term: string; value: string } => Boolean(fact.value));
  return (
    <section
      className={`status-panel status-panel-${STATUS_TONE[status]}`}
      aria-labelledby={headingId}
      data-status={status}
    >
      <div className="status-panel-main">
        <div className="status-panel-top">
          <Badge tone={STATUS_TONE[status]}>{t(STATUS_LABEL[status])}</Badge>
          {status === 'sent' ? (
            <span className="live-label">
              <span className="live-dot" aria-hidden="true" />
              {t('state.live')}
            </span>
          ) : null}
        </div>
        {/* Read out when it changes: a party's answer arrives while the page is open. */}
        <div className="status-panel-text" aria-live="polite">
          <Summary view={view} headingId={headingId} />
        </div>
        {status !== 'draft' && progress.total > 0 ? (
          <div className="progress-row">
            <div
              className="progress"
              role="progressbar"
              aria-label={t('contract.progress', progress)}
              aria-valuemin={0}
              aria-valuemax={progress.total}
              aria-valuenow={progress.done}
            >
              <span className="progress-bar" style={{ width: `${(100 * progress.done) / progress.total}%` }} />
            </div>
            <span className="progress-text">{t('contract.progress', progress)}</span>
          </div>
        ) : null}
      </div>
      <dl className="status-facts">
        {facts.map((fact) => (
          <div key={fact.term} className="status-fact">
            <dt>{fact.term}</dt>
            <dd className="numeric">{fact.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
