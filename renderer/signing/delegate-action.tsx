import { useState } from 'react';
import type { Language } from '../../shared/api/enums';
import { fillText, type TextValues } from '../lib/translate';
import { Modal } from './answer-dialogs';
import { linkBase } from './bootstrap';
import { Notice } from './notice';

/** The texts of handing the turn over (flat keys, `{name}` placeholders, as the page's own dictionaries). */
const TEXTS = {
  en: {
    open: 'Someone else should sign',
    title: 'Hand your turn to someone else',
    help: 'The person you name gets their own invitation, and your link stops working. The sender sees who you chose and why.',
    name: 'Their name',
    email: 'Their e-mail',
    phone: 'Their mobile number',
    reachBy: 'Give an e-mail address or a mobile number (or both).',
    reason: 'Why',
    submit: 'Hand over',
    cancel: 'Cancel',
    noConnection: 'No connection to the server. Check your connection and try again.',
    doneTitle: 'Handed over to {name}',
    doneBody: 'They get an invitation to sign. This link no longer works; you need do nothing more.',
  },
  sv: {
    open: 'Någon annan ska skriva under',
    title: 'Lämna över till någon annan',
    help: 'Personen du anger får en egen inbjudan, och din länk slutar fungera. Avsändaren ser vem du valde och varför.',
    name: 'Personens namn',
    email: 'Personens e-post',
    phone: 'Personens mobilnummer',
    reachBy: 'Ange en e-postadress eller ett mobilnummer (eller båda).',
    reason: 'Varför',
    submit: 'Lämna över',
    cancel: 'Avbryt',
    noConnection: 'Ingen anslutning till servern. Kontrollera anslutningen och försök igen.',
    doneTitle: 'Överlämnat till {name}',
    doneBody:
      'Personen får en inbjudan att skriva under. Den här länken fungerar inte längre; du behöver inte göra något mer.',
  },
} as const satisfies Record<Language, Record<string, string>>;

type Key = keyof (typeof TEXTS)['en'];
const textsOf = (language: Language) => (key: Key, values?: TextValues) => fillText(TEXTS[language][key], values);

type Props = { language: Language; csrfToken: string; isDisabled: boolean; onDelegated: (name: string) => void };

/**
 * "Someone else should sign": on a contract that allows delegation, the party names another
 * person (name, e-mail or mobile number) and says why; the server closes this link and invites
 * that person (POST /sign/<token>/delegate).
 */
export function DelegateAction({ language, csrfToken, isDisabled, onDelegated }: Props) {
  const t = textsOf(language);
  const [isOpen, setOpen] = useState(false);
  const [form, setForm] = useState({ name: '', email: '', mobile_phone: '', reason: '' });
  const [problem, setProblem] = useState<string>();
  const [isBusy, setBusy] = useState(false);
  const field = (key: keyof typeof form) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) => setForm((all) => ({ ...all, [key]: event.target.value })),
  });

  const submit = async () => {
    if (form.email.trim() === '' && form.mobile_phone.trim() === '') return setProblem(t('reachBy'));
    setBusy(true);
    setProblem(undefined);
    try {
      const response = await fetch(`${linkBase()}/delegate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signing-csrf': csrfToken },
        body: JSON.stringify({
          name: form.name.trim(),
          reason: form.reason.trim(),
          ...(form.email.trim() ? { email: form.email.trim() } : {}),
          ...(form.mobile_phone.trim() ? { mobile_phone: form.mobile_phone.trim() } : {}),
        }),
        credentials: 'same-origin',
      });
      const data = (await response.json().catch(() => ({}))) as { name?: string; detail?: string; errors?: string[] };
      if (!response.ok) return setProblem([data.detail, ...(data.errors ?? [])].filter(Boolean).join(' '));
      setOpen(false);
      onDelegated(data.name ?? form.name.trim());
    } catch {
      setProblem(t('noConnection'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className="secondary" disabled={isDisabled} onClick={() => setOpen(true)}>
        {t('open')}
      </button>
      <Modal isOpen={isOpen} onClose={() => setOpen(false)} labelledBy="delegate-title">
        <form
          method="dialog"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <h2 id="delegate-title">{t('title')}</h2>
          <p>{t('help')}</p>
          <label htmlFor="delegate-name">{t('name')}</label>
          <input id="delegate-name" required maxLength={200} autoComplete="off" {...field('name')} />
          <label htmlFor="delegate-email">{t('email')}</label>
          <input id="delegate-email" type="email" maxLength={200} autoComplete="off" {...field('email')} />
          <label htmlFor="delegate-phone">{t('phone')}</label>
          <input id="delegate-phone" type="tel" maxLength={40} autoComplete="off" {...field('mobile_phone')} />
          <label htmlFor="delegate-reason">{t('reason')}</label>
          <textarea id="delegate-reason" required maxLength={1000} rows={3} {...field('reason')} />
          {problem && (
            <p className="problem" role="alert">
              {problem}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="primary" disabled={isBusy}>
              {t('submit')}
            </button>
            <button type="button" className="secondary" onClick={() => setOpen(false)}>
              {t('cancel')}
            </button>
          </div>
        </form>
      </Modal>
    </>
  );
}

/** The whole page once handed over: the link is closed. */
export function DelegatedNotice({ language, name }: { language: Language; name: string }) {
  const t = textsOf(language);
  return <Notice title={t('doneTitle', { name })} body={t('doneBody')} />;
}
