import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { MAX_VERIFY_BYTES, type TVerifyResult } from '../../shared/api/verify';
import type { Language } from '../../shared/api/enums';
import { verifyTranslator } from './i18n';
import { VerifyResult } from './verify-result';

type Check =
  | { state: 'idle' }
  | { state: 'checking'; name: string }
  | { state: 'done'; name: string; result: TVerifyResult }
  | { state: 'failed'; message: string };

async function checkPdf(file: File): Promise<TVerifyResult> {
  const response = await fetch('/verify/check', {
    method: 'POST',
    headers: { 'content-type': 'application/pdf' },
    body: file,
  });
  const body = (await response.json().catch(() => ({}))) as TVerifyResult & { detail?: string };
  if (!response.ok) throw new Error(body.detail ?? `HTTP ${response.status}`);
  return body;
}

/** The language asked for in the link (`?lang=sv`), else the browser's. */
export function initialLanguage(): Language {
  const asked = new URLSearchParams(window.location.search).get('lang');
  if (asked === 'sv' || asked === 'en') return asked;
  return navigator.language.toLowerCase().startsWith('sv') ? 'sv' : 'en';
}

/** The public verify page: drop a PDF, read the verdict. Nothing is stored. */
export function VerifyApp() {
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const [isOver, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const t = useMemo(() => verifyTranslator(language), [language]);

  useEffect(() => {
    document.documentElement.lang = language;
    document.title = `${t('title')} · SignDesk`;
  }, [language, t]);

  const take = (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_VERIFY_BYTES) {
      setCheck({ state: 'failed', message: t('tooLarge', { mb: MAX_VERIFY_BYTES / 1024 / 1024 }) });
      return;
    }
    setCheck({ state: 'checking', name: file.name });
    checkPdf(file).then(
      (result) => setCheck({ state: 'done', name: file.name, result }),
      (error: unknown) =>
        setCheck({ state: 'failed', message: `${t('failed')} ${error instanceof Error ? error.message : ''}`.trim() }),
    );
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    take(event.dataTransfer.files[0]);
  };

  return (
    <main className="verify">
      <div className="verify-top">
        <p className="eyebrow">SignDesk</p>
        <button
          type="button"
          className="secondary small"
          lang={language === 'en' ? 'sv' : 'en'}
          onClick={() => setLanguage(language === 'en' ? 'sv' : 'en')}
        >
          {t('otherLanguage')}
        </button>
      </div>
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      <label
        className={`drop-zone${isOver ? ' is-over' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <span>{check.state === 'checking' ? t('checking') : t('drop')}</span>
        <input
          ref={input}
          type="file"
          accept="application/pdf,.pdf"
          aria-label={t('choose')}
          data-testid="verify-file"
          onChange={(event) => {
            take(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </label>
      <div aria-live="polite">
        {check.state === 'failed' ? <p className="problem">{check.message}</p> : null}
        {check.state === 'checking' ? <p className="muted">{t('checking')}</p> : null}
        {check.state === 'done' ? (
          <VerifyResult t={t} language={language} name={check.name} result={check.result} />
        ) : null}
      </div>
    </main>
  );
}
