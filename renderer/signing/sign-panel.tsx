import { useRef, useState, type FormEvent } from 'react';
import type { Strings } from './i18n';

type Props = {
  text: Strings;
  isApprover: boolean;
  signatureName: string;
  onSignatureName: (name: string) => void;
  problem: string | undefined;
  isBusy: boolean;
  onSign: (hasAgreed: boolean) => void;
  onReject: (cause: string) => void;
};

/** The party's answer: sign (or approve) with a typed name and consent, or reject with a cause. */
export function SignPanel({ text, isApprover, signatureName, onSignatureName, problem, isBusy, onSign, onReject }: Props) {
  const [hasAgreed, setAgreed] = useState(false);
  const [cause, setCause] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSign(hasAgreed);
  };
  const reject = (event: FormEvent) => {
    event.preventDefault();
    if (cause.trim() === '') return;
    dialog.current?.close();
    onReject(cause.trim());
  };

  return (
    <>
      <form className="sign-panel" onSubmit={submit} aria-label={isApprover ? text.approve : text.sign}>
        {!isApprover && (
          <div className="control">
            <label htmlFor="signature-name">{text.nameLabel}</label>
            <input id="signature-name" type="text" autoComplete="name" maxLength={200} value={signatureName} onChange={(event) => onSignatureName(event.target.value)} />
            <p className="signature-preview" aria-hidden="true">{signatureName}</p>
          </div>
        )}
        <div className="control control-check">
          <input id="agree" type="checkbox" checked={hasAgreed} onChange={(event) => setAgreed(event.target.checked)} />
          <label htmlFor="agree">{isApprover ? text.approveAgreeLabel : text.agreeLabel}</label>
        </div>
        {problem && (
          <p className="problem" role="alert">
            {problem}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={isBusy}>
            {isBusy ? text.signing : isApprover ? text.approve : text.sign}
          </button>
          <button type="button" className="secondary" disabled={isBusy} onClick={() => dialog.current?.showModal()}>
            {text.reject}
          </button>
        </div>
      </form>
      <dialog ref={dialog} aria-labelledby="reject-title">
        <form method="dialog" onSubmit={reject}>
          <h2 id="reject-title">{text.rejectTitle}</h2>
          <p>{text.rejectHelp}</p>
          <label htmlFor="reject-cause">{text.causeLabel}</label>
          <textarea id="reject-cause" required maxLength={1000} rows={4} value={cause} onChange={(event) => setCause(event.target.value)} />
          <div className="actions">
            <button type="submit" className="danger">
              {text.confirmReject}
            </button>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              {text.cancel}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
