import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { LANGUAGES, type Language } from '../../shared/api/enums';
import type { TSigningState } from '../../shared/api/signing';
import { LANGUAGE_INFO } from '../../shared/i18n/languages';
import { createSigningApi, SigningError } from './api';
import { linkBase, type Bootstrap } from './bootstrap';
import { CodeStep } from './code-step';
import { useDraftMark } from './draft';
import { FrameNote } from './frame-note';
import { holdsSession, startLinkSession } from './link-session';
import { postSigningEvent, returnUrlFor } from './embed';
import type { SigningTranslate } from './i18n';
import { useLanguage, useTexts } from './language';
import type { Mark } from './mark';
import { Notice, StatusPanel } from './notice';
import { SigningView } from './signing-view';
import { DelegateAction, DelegatedNotice } from './delegate-action';
import { useSigningState } from './use-signing-state';

/** How long the party sees that it is being taken back to the integrator's page. */
const RETURN_DELAY_MS = 2_500;

export function App({ bootstrap }: { bootstrap: Bootstrap }) {
  const [api] = useState(() => (startLinkSession(linkBase()), createSigningApi(linkBase())));
  // A framed tab that holds its own session after a reload: the inlined "needs-code" is out of date.
  const [initial] = useState(() =>
    holdsSession() && bootstrap.state?.stage === 'needs-code' ? undefined : bootstrap.state,
  );
  const { state, adopt, refresh, loadError } = useSigningState(api, initial);
  const csrfToken = state?.csrfToken ?? '';
  useLayoutEffect(() => api.setCsrfToken(csrfToken), [api, csrfToken]);
  const [language, setLanguage] = useLanguage(state?.language ?? bootstrap.texts?.language);
  const texts = useTexts(language, bootstrap.texts);
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<SigningError>();
  const [mark, setMark] = useState<Mark>();
  useDraftMark(linkBase(), state, mark, setMark, loadError?.status === 404);
  const [answered, setAnswered] = useState<'signed' | 'rejected'>();
  const [delegatedTo, setDelegatedTo] = useState<string>();

  // Once per page: later refreshes are not new loads.
  const hasPostedLoad = useRef(false);
  useEffect(() => {
    if (!state || hasPostedLoad.current) return;
    hasPostedLoad.current = true;
    postSigningEvent(state, 'loaded');
    // A mail scanner fetching the link runs no script: the opening counts from here.
    void api.opened();
  }, [api, state]);
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

  // No texts yet (a page without the server's, waiting for its language's): the spinner alone.
  if (!texts)
    return (
      <p className="loading" role="status">
        <span className="spinner" aria-hidden="true" />
      </p>
    );
  const t = texts;

  const chrome = (content: ReactNode) => (
    <>
      <TopBar t={t} language={language} onLanguage={setLanguage} state={state} />
      <FrameNote t={t} />
      {content}
    </>
  );

  if (delegatedTo !== undefined) return chrome(<DelegatedNotice t={t} name={delegatedTo} />);
  if (loadError && !state) {
    return chrome(
      <Notice title={t('loadFailed')} body="" action={{ label: t('retry'), onClick: () => void refresh() }} />,
    );
  }
  if (!state) {
    return chrome(
      <p className="loading" role="status">
        <span className="spinner" aria-hidden="true" />
        {t('loading')}
      </p>,
    );
  }

  const problem = !error
    ? undefined
    : error.status === 0
      ? t('noConnection')
      : error.status === 409
        ? t('refused')
        : error.message;
  const returning =
    answered && bootstrap.returnUrl ? <ReturnNote t={t} url={returnUrlFor(bootstrap.returnUrl, answered)} /> : null;
  const view = (status?: ReactNode) => (
    <SigningView
      key={state.party.signType}
      state={state}
      t={t}
      isBusy={isBusy}
      problem={problem}
      mark={mark}
      onMark={setMark}
      onAccept={(body) => void run(() => api.accept(body), 'signed')}
      onReject={(cause) => void run(() => api.reject(cause), 'rejected')}
      status={status}
      extraAction={
        state.party.mayDelegate && (
          <DelegateAction t={t} csrfToken={csrfToken} isDisabled={isBusy} onDelegated={setDelegatedTo} />
        )
      }
    />
  );

  switch (state.stage) {
    case 'needs-code':
      return chrome(
        <CodeStep
          t={t}
          sentTo={state.codeSentTo}
          error={error}
          isBusy={isBusy}
          onSend={() => void run(api.sendCode)}
          onVerify={(code) => void run(() => api.verifyCode(code))}
        />,
      );
    case 'waiting-turn':
      return chrome(<Notice title={t('waitingTitle')} body={t('waitingBody')} />);
    case 'draft':
      return chrome(<Notice title={t('draftTitle')} body={t('draftBody')} />);
    case 'expired':
      return chrome(<Notice title={t('expiredTitle')} body={t('expiredBody')} />);
    case 'withdrawn':
      return chrome(<Notice title={t('withdrawnTitle')} body={t('withdrawnBody')} />);
    case 'closed-rejected':
      return chrome(<Notice title={t('closedRejectedTitle')} body={t('closedRejectedBody')} />);
    case 'rejected':
      return chrome(
        <Notice
          title={t('rejectedTitle')}
          body={state.party.rejectCause ? t('causeLine', { cause: state.party.rejectCause }) : ''}
        >
          {returning}
        </Notice>,
      );
    case 'accepted':
      return chrome(
        view(
          <StatusPanel
            title={state.party.signType === 'APPROVER' ? t('approvedTitle') : t('acceptedTitle')}
            body={t('acceptedBody', { answered: state.progress.answered, total: state.progress.total })}
          >
            {returning}
          </StatusPanel>,
        ),
      );
    case 'completed':
      return chrome(
        view(
          <StatusPanel
            title={t('completedTitle')}
            body={t('completedBody')}
            link={state.contract.signedPdfUrl ? { label: t('download'), href: state.contract.signedPdfUrl } : undefined}
          >
            {returning}
          </StatusPanel>,
        ),
      );
    case 'ready':
      return chrome(
        state.party.signType === 'VIEWER'
          ? view(<StatusPanel title={state.contract.name} body={t('viewerBody')} />)
          : view(),
      );
  }
}

/** The office (its logo, else its name) and the language list: each language named in itself. */
function TopBar({
  t,
  language,
  onLanguage,
  state,
}: {
  t: SigningTranslate;
  language: Language;
  onLanguage: (language: Language) => void;
  state: TSigningState | undefined;
}) {
  const office = state?.officeName || 'SignDesk';
  const logo = state?.brand.logo;
  return (
    <header className="top-bar">
      <span className="brand">
        {logo ? (
          <img
            className="brand-logo"
            src={logo.url}
            width={logo.width}
            height={logo.height}
            alt={t('logoAlt', { office })}
          />
        ) : (
          office
        )}
      </span>
      <div className="language">
        <label htmlFor="language-choice" className="visually-hidden">
          {t('chooseLanguage')}
        </label>
        <select id="language-choice" value={language} onChange={(event) => onLanguage(event.target.value as Language)}>
          {LANGUAGES.map((code) => (
            <option key={code} value={code} lang={code}>
              {LANGUAGE_INFO[code].name}
            </option>
          ))}
        </select>
      </div>
    </header>
  );
}

function ReturnNote({ t, url }: { t: SigningTranslate; url: string }) {
  return (
    <p className="return-note">
      {t('returning', { host: new URL(url).host })} <a href={url}>{t('returnNow')}</a>
    </p>
  );
}
