import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { MAX_VERIFY_BYTES, type TVerifyResult } from '../../shared/api/verify';
import { LANGUAGES, type Language } from '../../shared/api/enums';
import { directionOf, isLanguage, LANGUAGE_INFO } from '../../shared/i18n/languages';
import type { TVerifyBootstrap } from '../../shared/verify-page';
import { verifyTranslator, type VerifyTexts } from './i18n';
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

/** What the server wrote into the page: its texts in the language it chose, and the office. */
export function readVerifyBootstrap(): TVerifyBootstrap | undefined {
  try {
    const data = JSON.parse(
      document.getElementById('verify-bootstrap')?.textContent ?? 'null',
    ) as TVerifyBootstrap | null;
    return data && isLanguage(data.texts?.language) ? data : undefined;
  } catch {
    return undefined;
  }
}

/** Another language's texts, from the server. */
async function fetchTexts(language: Language): Promise<VerifyTexts> {
  const response = await fetch(`/sign/i18n/${language}/verify.json`, { credentials: 'omit' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return { language, messages: (await response.json()) as Record<string, string> };
}

/** The public verify page: drop a PDF, read the verdict. Nothing is stored. */
export function VerifyApp({ bootstrap }: { bootstrap: TVerifyBootstrap }) {
  const [texts, setTexts] = useState<VerifyTexts>(bootstrap.texts);
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const [isOver, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const t = useMemo(() => verifyTranslator(texts), [texts]);
  const { language } = texts;
  const office = bootstrap.brand.officeName || 'SignDesk';

  useEffect(() => {
    document.documentElement.lang = language;
    document.documentElement.dir = directionOf(language);
    document.title = `${t('title')} · ${office}`;
  }, [language, t, office]);
  const chooseLanguage = (next: Language) => void fetchTexts(next).then(setTexts, () => undefined);

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
        {bootstrap.brand.logo ? (
          <img
            className="brand-logo"
            src={bootstrap.brand.logo.url}
            width={bootstrap.brand.logo.width}
            height={bootstrap.brand.logo.height}
            alt={office}
          />
        ) : (
          <p className="eyebrow">{office}</p>
        )}
        <div className="language">
          <label htmlFor="language-choice" className="visually-hidden">
            {t('chooseLanguage')}
          </label>
          <select
            id="language-choice"
            value={language}
            onChange={(event) => chooseLanguage(event.target.value as Language)}
          >
            {LANGUAGES.map((code) => (
              <option key={code} value={code} lang={code}>
                {LANGUAGE_INFO[code].name}
              </option>
            ))}
          </select>
        </div>
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
        {check.state === 'done' ? <VerifyResult t={t} texts={texts} name={check.name} result={check.result} /> : null}
      </div>
    </main>
  );
}
