import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { SigningTranslate } from './i18n';

/** A modal <dialog> opened and closed by `isOpen` (Escape and the backdrop close it too). */
export function Modal({
  isOpen,
  onClose,
  labelledBy,
  children,
}: {
  isOpen: boolean;
  onClose: () => void;
  labelledBy: string;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (isOpen && element && !element.open) element.showModal();
    if (!isOpen && element?.open) element.close();
  }, [isOpen]);
  return (
    <dialog ref={dialog} aria-labelledby={labelledBy} onClose={onClose} onCancel={onClose}>
      {children}
    </dialog>
  );
}

type ConfirmProps = {
  t: SigningTranslate;
  isOpen: boolean;
  isApprover: boolean;
  summary: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
};

/** The last step: what will be signed, and the party's consent in its own tick. */
export function ConfirmDialog({ t, isOpen, isApprover, summary, onConfirm, onClose }: ConfirmProps) {
  const [hasAgreed, setAgreed] = useState(false);
  const [problem, setProblem] = useState<string>();
  // Opened or closed again: the last refusal is old news (state adjusted while rendering).
  const [wasOpen, setWasOpen] = useState(isOpen);
  if (wasOpen !== isOpen) {
    setWasOpen(isOpen);
    setProblem(undefined);
  }
  return (
    <Modal isOpen={isOpen} onClose={onClose} labelledBy="confirm-title">
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          if (!hasAgreed) return setProblem(t('agreeFirst'));
          onConfirm();
        }}
      >
        <h2 id="confirm-title">{isApprover ? t('approve') : t('sign')}</h2>
        {summary}
        <div className="control-check">
          <input
            id="agree"
            type="checkbox"
            checked={hasAgreed}
            onChange={(event) => {
              setAgreed(event.target.checked);
              setProblem(undefined);
            }}
          />
          <label htmlFor="agree">{isApprover ? t('approveAgreeLabel') : t('agreeLabel')}</label>
        </div>
        {problem && (
          <p className="problem" role="alert">
            {problem}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary">
            {isApprover ? t('approve') : t('sign')}
          </button>
          <button type="button" className="secondary" onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

type RejectProps = { t: SigningTranslate; isOpen: boolean; onReject: (cause: string) => void; onClose: () => void };

/** Rejecting needs a cause: the sender is told why. */
export function RejectDialog({ t, isOpen, onReject, onClose }: RejectProps) {
  const [cause, setCause] = useState('');
  return (
    <Modal isOpen={isOpen} onClose={onClose} labelledBy="reject-title">
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          if (cause.trim() !== '') onReject(cause.trim());
        }}
      >
        <h2 id="reject-title">{t('rejectTitle')}</h2>
        <p>{t('rejectHelp')}</p>
        <label htmlFor="reject-cause">{t('causeLabel')}</label>
        <textarea
          id="reject-cause"
          required
          maxLength={1000}
          rows={4}
          value={cause}
          onChange={(event) => setCause(event.target.value)}
        />
        <div className="actions">
          <button type="submit" className="danger">
            {t('confirmReject')}
          </button>
          <button type="button" className="secondary" onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
