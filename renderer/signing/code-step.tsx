import { useEffect, useState, type FormEvent } from 'react';
import { SigningError } from './api';
import type { Strings } from './i18n';

type Props = {
  text: Strings;
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
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  return until === undefined ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

/** require_auth EMAIL_CODE / SMS_CODE: a one-time code before the document opens. */
export function CodeStep({ text, sentTo, error, isBusy, onSend, onVerify }: Props) {
  const [code, setCode] = useState('');
  const [waitUntil, setWaitUntil] = useState<number>();
  useEffect(() => {
    if (error?.status === 429 && error.retryAfterS !== null) setWaitUntil(Date.now() + error.retryAfterS * 1000);
  }, [error]);
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
        ? text.codeWait(wait)
        : error.retryAfterS === null || error.retryAfterS > 60
          ? text.codeTooMany
          : undefined
      : error.status === 0
        ? text.noConnection
        : error.status === 400
          ? text.codeWrong
          : error.message;
  const sendButton = (label: string, className: string) => (
    <button type="button" className={className} disabled={isBusy || wait > 0} onClick={onSend}>
      {label}
    </button>
  );
  return (
    <main className="card narrow">
      <h1>{text.codeTitle}</h1>
      <p>{sentTo ? text.codeHelpSent(sentTo) : text.codeHelp}</p>
      {sentTo ? (
        <form onSubmit={submit}>
          <label htmlFor="code">{text.codeLabel}</label>
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
              {text.verify}
            </button>
            {sendButton(text.sendAgain, 'secondary')}
          </div>
        </form>
      ) : (
        <>
          {problem && (
            <p className="problem" role="alert">
              {problem}
            </p>
          )}
          <div className="actions">{sendButton(text.sendCode, 'primary')}</div>
        </>
      )}
    </main>
  );
}
