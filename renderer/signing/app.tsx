import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { Language } from '../../shared/api/enums';
import type { TSigningState } from '../../shared/api/signing';
import { createSigningApi, SigningError } from './api';
import { linkBase, type Bootstrap } from './bootstrap';
import { CodeStep } from './code-step';
import { postSigningEvent, returnUrlFor } from './embed';
import { strings, type Strings } from './i18n';
import { useLanguage } from './language';
import type { Mark } from './mark';
import { Notice, StatusPanel } from './notice';
import { SigningView } from './signing-view';
import { useSigningState } from './use-signing-state';

/** How long the party sees that it is being taken back to the integrator's page. */
const RETURN_DELAY_MS = 2_500;

export function App({ bootstrap }: { bootstrap: Bootstrap }) {
  const [api] = useState(() => createSigningApi(linkBase()));
  const { state, adopt, refresh, loadError } = useSigningState(api, bootstrap.state);
  const csrfToken = state?.csrfToken ?? '';
  useLayoutEffect(() => api.setCsrfToken(csrfToken), [api, csrfToken]);
  const [language, setLanguage] = useLanguage(state?.language);
  const text = strings[language];
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<SigningError>();
  const [mark, setMark] = useState<Mark>();
  const [answered, setAnswered] = useState<'signed' | 'rejected'>();

  // Once per page: later refreshes are not new loads.
  const hasPostedLoad = useRef(false);
  useEffect(() => {
    if (!state || hasPostedLoad.current) return;
    hasPostedLoad.current = true;
    postSigningEvent(state, 'loaded');
  }, [state]);
  const contractName = state?.contract.name;
  useEffect(() => {
    if (contractName !== undefined) document.title = contractName || 'SignDesk';
  }, [contractName]);
  useEffect(() => {
    if (!answered || !bootstrap.returnUrl) return;
    const timer = window.setTimeout(
      () => window.location.assign(returnUrlFor(bootstrap.returnUrl!, answered)),
      RETURN_DELAY_MS,
    );
    return () => window.clearTimeout(timer);
  }, [answered, bootstrap.returnUrl]);

  const run = async (work: () => Promise<TSigningState>, event?: 'signed' | 'rejected') => {
    setBusy(true);
    setError(undefined);
    try {
      const next = await work();
      adopt(next);
      if (event) {
        setAnswered(event);
        postSigningEvent(next, event);
      }
    } catch (caught) {
      const refused = caught instanceof SigningError ? caught : new SigningError(0, String(caught));
      setError(refused);
      if (event) postSigningEvent(state, 'failed', { reason: refused.message });
      // Refused because the contract moved on (expired, rejected by another): show where it stands.
      if (refused.status === 409 || refused.status === 403) await refresh();
    } finally {
      setBusy(false);
    }
  };

  const chrome = (content: ReactNode) => (
    <>
      <TopBar text={text} language={language} onLanguage={setLanguage} office={state?.officeName ?? ''} />
      {content}
    </>
  );

  if (loadError && !state) {
    return chrome(
      <Notice title={text.loadFailed} body="" action={{ label: text.retry, onClick: () => void refresh() }} />,
    );
  }
  if (!state) {
    return chrome(
      <p className="loading" role="status">
        <span className="spinner" aria-hidden="true" />
        {text.loading}
      </p>,
    );
  }

  const problem = !error
    ? undefined
    : error.status === 0
      ? text.noConnection
      : error.status === 409
        ? text.refused
        : error.message;
  const returning =
    answered && bootstrap.returnUrl ? (
      <ReturnNote text={text} url={returnUrlFor(bootstrap.returnUrl, answered)} />
    ) : null;
  const view = (status?: ReactNode) => (
    <SigningView
      key={state.party.signType}
      state={state}
      text={text}
      isBusy={isBusy}
      problem={problem}
      mark={mark}
      onMark={setMark}
      onAccept={(body) => void run(() => api.accept(body), 'signed')}
      onReject={(cause) => void run(() => api.reject(cause), 'rejected')}
      status={status}
    />
  );

  switch (state.stage) {
    case 'needs-code':
      return chrome(
        <CodeStep
          text={text}
          sentTo={state.codeSentTo}
          error={error}
          isBusy={isBusy}
          onSend={() => void run(api.sendCode)}
          onVerify={(code) => void run(() => api.verifyCode(code))}
        />,
      );
    case 'waiting-turn':
      return chrome(<Notice title={text.waitingTitle} body={text.waitingBody} />);
    case 'draft':
      return chrome(<Notice title={text.draftTitle} body={text.draftBody} />);
    case 'expired':
      return chrome(<Notice title={text.expiredTitle} body={text.expiredBody} />);
    case 'withdrawn':
      return chrome(<Notice title={text.withdrawnTitle} body={text.withdrawnBody} />);
    case 'closed-rejected':
      return chrome(<Notice title={text.closedRejectedTitle} body={text.closedRejectedBody} />);
    case 'rejected':
      return chrome(
        <Notice
          title={text.rejectedTitle}
          body={state.party.rejectCause ? text.causeLine(state.party.rejectCause) : ''}
        >
          {returning}
        </Notice>,
      );
    case 'accepted':
      return chrome(
        view(
          <StatusPanel
            title={state.party.signType === 'APPROVER' ? text.approvedTitle : text.acceptedTitle}
            body={text.acceptedBody(state.progress.answered, state.progress.total)}
          >
            {returning}
          </StatusPanel>,
        ),
      );
    case 'completed':
      return chrome(
        view(
          <StatusPanel
            title={text.completedTitle}
            body={text.completedBody}
            link={state.contract.signedPdfUrl ? { label: text.download, href: state.contract.signedPdfUrl } : undefined}
          >
            {returning}
          </StatusPanel>,
        ),
      );
    case 'ready':
      return chrome(
        state.party.signType === 'VIEWER'
          ? view(<StatusPanel title={state.contract.name} body={text.viewerBody} />)
          : view(),
      );
  }
}

function TopBar({
  text,
  language,
  onLanguage,
  office,
}: {
  text: Strings;
  language: Language;
  onLanguage: (language: Language) => void;
  office: string;
}) {
  return (
    <div className="top-bar">
      <span className="brand">{office || 'SignDesk'}</span>
      <div className="language" role="group" aria-label={text.chooseLanguage}>
        {(['en', 'sv'] as const).map((code) => (
          <button
            key={code}
            type="button"
            lang={code}
            aria-pressed={language === code}
            onClick={() => onLanguage(code)}
          >
            {strings[code].languageName}
          </button>
        ))}
      </div>
    </div>
  );
}

function ReturnNote({ text, url }: { text: Strings; url: string }) {
  return (
    <p className="return-note">
      {text.returning(new URL(url).host)} <a href={url}>{text.returnNow}</a>
    </p>
  );
}
