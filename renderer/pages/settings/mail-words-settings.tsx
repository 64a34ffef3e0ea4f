import { useEffect, useRef, useState } from 'react';
import {
  MAIL_PLACEHOLDERS,
  MAIL_WORD_KINDS,
  type MailWordKind,
  type TMailPreview,
  type TMailWordsSettings,
} from '../../../shared/api/brand';
import { LANGUAGES, type Language } from '../../../shared/api/enums';
import type { TMessagingTestResult } from '../../../shared/api/messaging-settings';
import { LANGUAGE_INFO } from '../../../shared/i18n/languages';
import { SelectField, TextAreaField, TextField } from '../../components/fields';
import { Badge, Button, Card, Loading, Notice, ProblemAlert } from '../../components/ui';
import { getJson, sendJson } from '../../lib/api';
import { fieldErrors, asApiError, useHasChanged } from '../../lib/forms';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

/** How long the form rests before its preview is asked for (one request per pause, not per key). */
const PREVIEW_DELAY_MS = 400;

type Words = { subject: string; body: string };

/** A server's field errors, whatever path they came under (`words.subject`, `invitation.sv.body`), by field. */
function wordErrors(errors: Record<string, string>): Partial<Words> {
  const find = (field: keyof Words) =>
    Object.entries(errors).find(([path]) => path === field || path.endsWith(`.${field}`))?.[1];
  return { subject: find('subject'), body: find('body') };
}

/**
 * The preview the server makes of the form as it is, asked for once typing pauses. An answer
 * that a newer request has overtaken is dropped; a refusal says what is wrong beside the field.
 */
function usePreview(kind: MailWordKind, language: Language, words: Words) {
  const [preview, setPreview] = useState<TMailPreview>();
  const [errors, setErrors] = useState<Partial<Words>>({});
  const asked = useRef(0);
  const { subject, body } = words;
  useEffect(() => {
    const number = ++asked.current;
    const timer = setTimeout(() => {
      // Empty fields: the words saved, else SignDesk's.
      const own = subject.trim() || body.trim() ? { words: { subject, body } } : {};
      sendJson<TMailPreview>('POST', '/api/settings/mail_words/preview', { kind, language, ...own }).then(
        (answer) => {
          if (number !== asked.current) return;
          setPreview(answer);
          setErrors({});
        },
        (err: unknown) => {
          if (number !== asked.current) return;
          setErrors(wordErrors(fieldErrors(asApiError(err))));
        },
      );
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [kind, language, subject, body]);
  return { preview, errors };
}

/** The office's own words of the invitation, reminder and signed mails, per language, with a live preview and a test send. */
export function MailWordsSettings() {
  const t = useT();
  const loaded = useLoad((signal) => getJson<TMailWordsSettings>('/api/settings/mail_words', signal), []);
  const [kind, setKind] = useState<MailWordKind>('invitation');
  const [language, setLanguage] = useState<Language>('en');
  const [words, setWords] = useState<Words>({ subject: '', body: '' });
  const [testTo, setTestTo] = useState('');
  const [result, setResult] = useState<{ tone: 'success' | 'warning'; title: string; text: string }>();
  const action = useAction<'save' | 'reset' | 'test'>();
  const { preview, errors: previewErrors } = usePreview(kind, language, words);
  const saved = loaded.data?.[kind][language];
  // Another mail or language, or the words loaded again: the form shows what is saved.
  const isNewChoice = useHasChanged(`${kind}/${language}`);
  const isNewlyLoaded = useHasChanged(loaded.data);
  if ((isNewChoice || isNewlyLoaded) && loaded.data) setWords(saved ?? { subject: '', body: '' });
  if (!loaded.data)
    return (
      <Card title={t('mailWords.title')}>{loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading />}</Card>
    );
  // The last save's or test's refusal first, else what the preview says of the words as typed.
  const saveErrors = wordErrors(action.errors);
  const errors = {
    subject: saveErrors.subject ?? previewErrors.subject,
    body: saveErrors.body ?? previewErrors.body,
  };
  const edit = (field: keyof Words) => (value: string) => setWords((current) => ({ ...current, [field]: value }));
  const save = action.submit('save', async () => {
    setResult(undefined);
    await sendJson('PUT', '/api/settings/mail_words', { [kind]: { [language]: words } });
    setResult({ tone: 'success', title: t('state.saved'), text: '' });
    await loaded.reload();
  });
  const reset = () =>
    void action.run('reset', async () => {
      setResult(undefined);
      await sendJson('PUT', '/api/settings/mail_words', { [kind]: { [language]: null } });
      setWords({ subject: '', body: '' });
      setResult({ tone: 'success', title: t('mailWords.resetDone'), text: '' });
      await loaded.reload();
    });
  const test = () =>
    void action.run('test', async () => {
      setResult(undefined);
      const own = words.subject.trim() || words.body.trim() ? { words } : {};
      const answer = await sendJson<TMessagingTestResult>('POST', '/api/settings/mail_words/test', {
        kind,
        language,
        to: testTo,
        ...own,
      });
      if (answer?.ok === false)
        setResult({ tone: 'warning', title: t('settings.testFailed'), text: answer.error ?? answer.response ?? '' });
      else setResult({ tone: 'success', title: t('settings.testSent', { to: testTo }), text: answer?.response ?? '' });
    });
  const hasFieldErrors = Boolean(errors.subject ?? errors.body ?? action.errors.to);
  return (
    <form onSubmit={save} noValidate>
      <Card title={t('mailWords.title')} description={t('mailWords.description')} className="panel-mail-words">
        {hasFieldErrors ? null : <ProblemAlert error={action.error} />}
        {result && !action.error ? (
          <Notice tone={result.tone} title={result.title}>
            {result.text ? <span className="mono small">{result.text}</span> : null}
          </Notice>
        ) : null}
        <div className="form-grid">
          <SelectField
            label={t('mailWords.kind')}
            value={kind}
            onValue={(value) => setKind(value as MailWordKind)}
            options={MAIL_WORD_KINDS.map((value) => ({ value, label: t(`mailWords.kind.${value}`) }))}
          />
          <SelectField
            label={t('mailWords.language')}
            value={language}
            onValue={(value) => setLanguage(value as Language)}
            options={LANGUAGES.map((value) => ({ value, label: LANGUAGE_INFO[value].name }))}
          />
        </div>
        <div className="mail-words-editor">
          <div className="mail-words-fields">
            <p className="muted small">{saved ? t('mailWords.ownSaved') : t('mailWords.defaultInUse')}</p>
            <TextField
              label={t('mailWords.subject')}
              error={errors.subject}
              value={words.subject}
              onValue={edit('subject')}
              maxLength={200}
            />
            <TextAreaField
              label={t('mailWords.body')}
              hint={t('mailWords.bodyHint')}
              error={errors.body}
              value={words.body}
              onValue={edit('body')}
              rows={9}
            />
            <section className="mail-words-placeholders" aria-label={t('mailWords.placeholders')}>
              <p className="small">{t('mailWords.placeholders')}</p>
              <dl>
                {MAIL_PLACEHOLDERS.map((name) => (
                  <div key={name}>
                    <dt className="mono">{`{${name}}`}</dt>
                    <dd>{t(`mailWords.placeholder.${name}`)}</dd>
                  </div>
                ))}
              </dl>
            </section>
          </div>
          {/* Shown as text, never as HTML: what a party's mail program would show of the text part. */}
          <section className="mail-words-preview" aria-label={t('mailWords.preview')} data-testid="mail-words-preview">
            <p className="muted small">
              {t('mailWords.preview')}{' '}
              {preview ? (
                <Badge tone={preview.is_own ? 'info' : 'neutral'}>
                  {preview.is_own ? t('mailWords.ownWords') : t('mailWords.defaultWords')}
                </Badge>
              ) : null}
            </p>
            {preview ? (
              <>
                <p className="mail-words-preview-subject" data-testid="mail-words-preview-subject">
                  {preview.subject}
                </p>
                <div className="mail-words-preview-text" data-testid="mail-words-preview-text">
                  {preview.text}
                </div>
              </>
            ) : (
              <Loading />
            )}
          </section>
        </div>
        <div className="form-actions">
          {saved ? (
            <Button onClick={reset} isBusy={action.busy === 'reset'}>
              {t('mailWords.reset')}
            </Button>
          ) : null}
          <Button type="submit" variant="primary" isBusy={action.busy === 'save'}>
            {t('action.save')}
          </Button>
        </div>
        <div className="inline-form">
          <TextField
            label={t('mailWords.testTo')}
            error={action.errors.to}
            value={testTo}
            onValue={setTestTo}
            type="email"
          />
          <Button onClick={test} isBusy={action.busy === 'test'} disabled={!testTo}>
            {t('settings.sendTest')}
          </Button>
        </div>
      </Card>
    </form>
  );
}
