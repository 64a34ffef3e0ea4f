import type { TVerifyResult } from '../../shared/api/verify';
import type { Language } from '../../shared/api/enums';
import { LANGUAGE_INFO } from '../../shared/i18n/languages';
import { isVerifyKey, type VerifyTexts, type VerifyTranslate } from './i18n';

const TONE: Record<TVerifyResult['verdict'], string> = {
  intact: 'good',
  extended: 'good',
  changed: 'bad',
  'same-pages': 'warn',
  damaged: 'warn',
  broken: 'bad',
  'unknown-seal': 'warn',
  'not-sealed-here': 'warn',
  'not-pdf': 'warn',
};

function formatTime(iso: string, language: Language): string {
  return new Intl.DateTimeFormat(LANGUAGE_INFO[language].locale, {
    dateStyle: 'long',
    timeStyle: 'long',
  }).format(new Date(iso));
}

/** The verdict on one PDF, and what backs it. */
export function VerifyResult({
  t,
  texts,
  name,
  result,
}: {
  t: VerifyTranslate;
  texts: VerifyTexts;
  name: string;
  result: TVerifyResult;
}) {
  const roleOf = (role: string) => {
    const key = `role.${role}`;
    return isVerifyKey(texts, key) ? t(key) : role;
  };
  const { language } = texts;
  const explanation =
    result.verdict !== 'changed'
      ? t(`explanation.${result.verdict}`)
      : result.changes.length > 0
        ? t('explanation.changedNotAllowed')
        : result.added_bytes > 0
          ? t('explanation.changed', { bytes: result.added_bytes })
          : t('explanation.changedContainer');
  const office = result.office.name || t('thisOffice');
  const additionText = (timestamps: number, validationData: boolean) =>
    [validationData ? t('addition.data') : '', timestamps > 0 ? t('addition.timestamps', { n: timestamps }) : '']
      .filter(Boolean)
      .join(t('addition.and')) || t('addition.nothing');
  return (
    <section
      className={`card verdict verdict-${TONE[result.verdict]}`}
      data-verdict={result.verdict}
      aria-labelledby="verdict-title"
    >
      <p className="eyebrow">{name}</p>
      <h2 id="verdict-title">{t(`verdict.${result.verdict}`, { office })}</h2>
      <p>{explanation}</p>
      {result.verdict === 'changed' && result.changes.length > 0 ? (
        <ul data-testid="verify-changes">
          {result.changes.map((change, index) => (
            <li key={index}>{change}</li>
          ))}
        </ul>
      ) : null}
      <dl className="facts">
        {result.contract ? (
          <>
            <dt>{t('contract')}</dt>
            <dd data-testid="verify-contract">{result.contract.name}</dd>
            <dt>{t('parties')}</dt>
            <dd>
              <ul>
                {result.contract.parties.map((party, index) => (
                  <li key={index}>
                    {party.name} <span className="muted">({roleOf(party.role)})</span>
                  </li>
                ))}
              </ul>
            </dd>
            {result.contract.signed_time ? (
              <>
                <dt>{t('signedAt')}</dt>
                <dd>{formatTime(result.contract.signed_time, language)}</dd>
              </>
            ) : null}
          </>
        ) : null}
        {result.seal ? (
          <>
            <dt>{t('seal')}</dt>
            <dd>
              {result.seal.subject}{' '}
              <span className={result.seal.is_valid ? 'ok' : 'not-ok'}>
                ({result.seal.is_valid ? t('valid') : t('invalid')})
              </span>
            </dd>
            <dt>{t('fingerprint')}</dt>
            <dd className="mono">{result.seal.certificate_sha256}</dd>
          </>
        ) : null}
        {result.seal ? (
          <>
            <dt>{t('timestamps')}</dt>
            <dd>
              {result.timestamps.length === 0 ? (
                <span>{t('noTimestamp')}</span>
              ) : (
                <ul>
                  {result.timestamps.map((stamp, index) => (
                    <li key={index} data-testid="verify-timestamp">
                      {t(`timestampKind.${stamp.kind}`)}: {formatTime(stamp.time, language)} · {stamp.authority}{' '}
                      <span className={stamp.is_valid ? 'ok' : 'not-ok'}>
                        ({stamp.is_valid ? t('valid') : t('invalid')})
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </>
        ) : null}
        {result.additions.length > 0 ? (
          <>
            <dt>{t('additionsTitle')}</dt>
            <dd>
              <ul>
                {result.additions.map((addition, index) => (
                  <li key={index} data-testid="verify-addition">
                    {additionText(addition.timestamps, addition.validation_data)}:{' '}
                    {addition.signed_by && addition.signed_time
                      ? t('signedBy', { who: addition.signed_by, time: formatTime(addition.signed_time, language) })
                      : t('unsigned')}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
        <dt>{t('fileSha256')}</dt>
        <dd className="mono">{result.sha256}</dd>
      </dl>
      {result.has_newer_copy ? <p className="muted">{t('newerCopy')}</p> : null}
      {result.other_signatures > 0 ? (
        <p className="muted">{t('otherSignatures', { n: result.other_signatures })}</p>
      ) : null}
    </section>
  );
}
