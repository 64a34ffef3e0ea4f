import { useState, type FormEvent } from 'react';
import type { Strings } from './i18n';

type Props = {
  text: Strings;
  sentTo: string | null;
  problem: string | undefined;
  isBusy: boolean;
  onSend: () => void;
  onVerify: (code: string) => void;
};

/** require_auth EMAIL_CODE / SMS_CODE: a one-time code before the document opens. */
export function CodeStep({ text, sentTo, problem, isBusy, onSend, onVerify }: Props) {
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onVerify(code.trim());
  };
  return (
    <main className="card narrow">
      <h1>{text.codeTitle}</h1>
      <p>{sentTo ? text.codeHelpSent(sentTo) : text.codeHelp}</p>
      {sentTo ? (
        <form onSubmit={submit}>
          <label htmlFor="code">{text.codeLabel}</label>
          <input id="code" className="code-input" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required value={code} onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))} />
          {problem && (
            <p className="problem" role="alert">
              {problem}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="primary" disabled={isBusy || code.length !== 6}>
              {text.verify}
            </button>
            <button type="button" className="secondary" disabled={isBusy} onClick={onSend}>
              {text.sendAgain}
            </button>
          </div>
        </form>
      ) : (
        <div className="actions">
          <button type="button" className="primary" disabled={isBusy} onClick={onSend}>
            {text.sendCode}
          </button>
        </div>
      )}
    </main>
  );
}
