import { useEffect, useState, type FormEvent } from 'react';
import { SigningError } from './api';
import type { SigningTranslate } from './i18n';

type Props = {
  t: SigningTranslate;
  sentTo: string | null;
  error: SigningError | undefined;
  isBusy: boolean;
  onSend: () => void;
  onVerify: (code: string) => void;
};

/** Seconds left until `until` (ms since the epoch), counted down once a second. */
function useCountdown(until: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === undefined) return;
    const tick = () => setNow(Date.now());
    // At once (the last tick may be long ago), then once a second.
    const first = window.setTimeout(tick, 0);
    const timer = window.setInterval(tick, 1000);
    return () => {
      window.clearTimeout(first);
      window.clearInterval(timer);
    };
  }, [until]);
  return until === undefined ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

/** require_auth EMAIL_CODE / SMS_CODE: a one-time code before the document opens. */
export function CodeStep({ t, sentTo, error, isBusy, onSend, onVerify }: Props) {
  const [code, setCode] = useState('');
  // A refusal to send another code so soon holds the send button until its Retry-After has
  // passed, also after the refusal itself is no longer shown (state adjusted while rendering).
  const [waitUntil, setWaitUntil] = useState<number>();
  const [lastError, setLastError] = useState(error);
  if (error !== lastError) {
    setLastError(error);
    if (error?.status === 429 && error.retryAfterS !== null) setWaitUntil(error.receivedAt + error.retryAfterS * 1000);
  }
  const wait = useCountdown(waitUntil);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onVerify(code.trim());
  };
  // Each refusal in its own words: waiting out the 30 s between codes is not a wrong code.
  const problem = !error
    ? undefined
    : error.status === 429
      ? wait > 0
        ? t('codeWait', { seconds: wait })
        : error.retryAfterS === null || error.retryAfterS > 60
          ? t('codeTooMany')
          : undefined
      : error.status === 0
        ? t('noConnection')
        : error.status === 400
          ? t('codeWrong')
          : error.message;
  const sendButton = (label: string, className: string) => (
    <button type="button" className={className} disabled={isBusy || wait > 0} onClick={onSend}>
      {label}
    </button>
  );
  return (
    <main className="card narrow">
      <h1>{t('codeTitle')}</h1>
      <p>{sentTo ? t('codeHelpSent', { to: sentTo }) : t('codeHelp')}</p>
      {sentTo ? (
        <form onSubmit={submit}>
          <label htmlFor="code">{t('codeLabel')}</label>
          <input
            id="code"
            className="code-input"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
          />
          {problem && (
            <p className="problem" role="alert">
              {problem}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="primary" disabled={isBusy || code.length !== 6}>
              {t('verify')}
            </button>
            {sendButton(t('sendAgain'), 'secondary')}
          </div>
        </form>
      ) : (
        <>
          {problem && (
            <p className="problem" role="alert">
              {problem}
            </p>
          )}
          <div className="actions">{sendButton(t('sendCode'), 'primary')}</div>
        </>
      )}
    </main>
  );
}
