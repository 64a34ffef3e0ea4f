import { useId } from 'react';
import { Badge } from '../../components/ui';
import { STATUS_LABEL, STATUS_TONE } from '../../lib/contract-status';
import { useT } from '../../lib/i18n';
import { answerProgress } from '../../lib/party-state';
import type { ContractView } from './use-contract';

const names = (list: { name: string }[]) => list.map((party) => party.name).join(', ');

/** What the summary line says: whom the contract waits for, who rejected it, what is next. */
function Summary({ view }: { view: ContractView }) {
  const t = useT();
  switch (view.status) {
    case 'draft':
      return <p>{t('contract.summary.draft')}</p>;
    case 'signed':
      return <p>{t('contract.summary.signed')}</p>;
    case 'expired':
      return <p>{t('contract.summary.expired')}</p>;
    case 'rejected': {
      const rejecter = view.views.find((party) => party.state === 'rejected')?.party;
      return (
        <>
          <p>{t('contract.summary.rejected', { name: rejecter?.name ?? '—' })}</p>
          {rejecter?.reject_cause ? <blockquote className="status-cause">{rejecter.reject_cause}</blockquote> : null}
        </>
      );
    }
    case 'sent': {
      const awaited = view.views.filter((party) => party.isAnswering && (party.state === 'invited' || party.state === 'opened')).map((party) => party.party);
      return <p>{awaited.length > 0 ? t('contract.summary.sent', { names: names(awaited) }) : t('contract.summary.sentNobody')}</p>;
    }
  }
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
    { term: t('field.expireTime'), value: status === 'signed' ? undefined : (contract.expire_time ?? t('contract.noExpiry')) },
  ].filter((fact): fact is { term: string; value: string } => Boolean(fact.value));
  return (
    <section className={`status-panel status-panel-${STATUS_TONE[status]}`} aria-labelledby={headingId} data-status={status}>
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
          <h2 id={headingId}>{t(`contract.headline.${status}` as const)}</h2>
          <Summary view={view} />
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
