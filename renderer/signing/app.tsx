import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TSigningState } from '../../shared/api/signing';
import { createSigningApi, SigningError } from './api';
import { CodeStep } from './code-step';
import { DocumentView } from './document-view';
import { initialValue, missingFields, type FieldValues } from './fields';
import { strings } from './i18n';
import { Notice } from './notice';
import { SignPanel } from './sign-panel';

const base = window.location.pathname.replace(/\/+$/, '');
const today = () => new Date().toISOString().slice(0, 10);

export function App() {
  const [state, setState] = useState<TSigningState>();
  const [loadFailed, setLoadFailed] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [isBusy, setBusy] = useState(false);
  const [values, setValues] = useState<FieldValues>({});
  const [signatureName, setSignatureName] = useState('');
  const [showInvalid, setShowInvalid] = useState(false);
  const api = useMemo(() => createSigningApi(base, () => state?.csrfToken ?? ''), [state?.csrfToken]);

  const adopt = useCallback((next: TSigningState) => {
    setState(next);
    document.documentElement.lang = next.language;
    document.title = next.contract.name || 'SignDesk';
  }, []);

  const load = useCallback(() => {
    setLoadFailed(false);
    createSigningApi(base, () => '')
      .state()
      .then((next) => {
        adopt(next);
        setSignatureName(next.party.name);
        setValues(Object.fromEntries(next.fields.map((field) => [String(field.id), initialValue(field, next.party.name, today())])));
      })
      .catch(() => setLoadFailed(true));
  }, [adopt]);

  useEffect(load, [load]);

  const run = async (work: () => Promise<TSigningState>) => {
    setBusy(true);
    setProblem(undefined);
    try {
      adopt(await work());
    } catch (err) {
      setProblem(err instanceof SigningError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  if (loadFailed) return <Notice title="SignDesk" body={strings.en.loadFailed} action={{ label: strings.en.retry, onClick: load }} />;
  if (!state) return <p className="loading" role="status">{strings.en.loading}</p>;

  const text = strings[state.language];
  switch (state.stage) {
    case 'needs-code':
      return (
        <CodeStep
          text={text}
          sentTo={state.codeSentTo}
          problem={problem && text.codeWrong}
          isBusy={isBusy}
          onSend={() => void run(api.sendCode)}
          onVerify={(code) => void run(() => api.verifyCode(code))}
        />
      );
    case 'waiting-turn':
      return <Notice title={text.waitingTitle} body={text.waitingBody} />;
    case 'draft':
      return <Notice title={text.draftTitle} body={text.draftBody} />;
    case 'expired':
      return <Notice title={text.expiredTitle} body={text.expiredBody} />;
    case 'withdrawn':
      return <Notice title={text.withdrawnTitle} body={text.withdrawnBody} />;
    case 'closed-rejected':
      return <Notice title={text.closedRejectedTitle} body={text.closedRejectedBody} />;
    case 'rejected':
      return <Notice title={text.rejectedTitle} body={state.party.rejectCause ? text.causeLine(state.party.rejectCause) : ''} />;
    case 'accepted':
      return <Notice title={text.acceptedTitle} body={text.acceptedBody(state.progress.answered, state.progress.total)} />;
    case 'completed':
      return (
        <Notice
          title={text.completedTitle}
          body={text.completedBody}
          link={state.contract.signedPdfUrl ? { label: text.download, href: state.contract.signedPdfUrl } : undefined}
        />
      );
    case 'ready':
      break;
  }

  const isViewer = state.party.signType === 'VIEWER';
  const missing = missingFields(state.fields, values);
  const sign = (hasAgreed: boolean) => {
    setShowInvalid(true);
    if (missing.length > 0) {
      setProblem(text.fillRequired(missing.length));
      document.getElementById(`field-${missing[0]?.id}`)?.focus();
      return;
    }
    if (state.party.signType === 'DEFAULT' && signatureName.trim() === '') return setProblem(text.nameFirst);
    if (!hasAgreed) return setProblem(text.agreeFirst);
    void run(() => api.accept({ fields: values, signatureName: signatureName.trim() || state.party.name }));
  };

  return (
    <div className="layout">
      <DocumentView
        state={state}
        text={text}
        values={values}
        signatureName={signatureName}
        invalidIds={showInvalid ? new Set(missing.map((field) => field.id)) : new Set()}
        onChange={(id, value) => setValues((current) => ({ ...current, [String(id)]: value }))}
      />
      {isViewer ? (
        <aside className="sign-panel">
          <p>{text.viewerBody}</p>
        </aside>
      ) : (
        <SignPanel
          text={text}
          isApprover={state.party.signType === 'APPROVER'}
          signatureName={signatureName}
          onSignatureName={setSignatureName}
          problem={problem}
          isBusy={isBusy}
          onSign={sign}
          onReject={(cause) => void run(() => api.reject(cause))}
        />
      )}
    </div>
  );
}
