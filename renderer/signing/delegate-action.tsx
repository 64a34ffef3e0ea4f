import { useState } from 'react';
import type { SigningTranslate } from './i18n';
import { Modal } from './answer-dialogs';
import { linkBase } from './bootstrap';
import { Notice } from './notice';

type Props = { t: SigningTranslate; csrfToken: string; isDisabled: boolean; onDelegated: (name: string) => void };

/**
 * "Someone else should sign": on a contract that allows delegation, the party names another
 * person (name, e-mail or mobile number) and says why; the server closes this link and invites
 * that person (POST /sign/<token>/delegate).
 */
export function DelegateAction({ t, csrfToken, isDisabled, onDelegated }: Props) {
  const [isOpen, setOpen] = useState(false);
  const [form, setForm] = useState({ name: '', email: '', mobile_phone: '', reason: '' });
  const [problem, setProblem] = useState<string>();
  const [isBusy, setBusy] = useState(false);
  const field = (key: keyof typeof form) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) => setForm((all) => ({ ...all, [key]: event.target.value })),
  });

  const submit = async () => {
    if (form.email.trim() === '' && form.mobile_phone.trim() === '') return setProblem(t('delegate.reachBy'));
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
        {t('delegate.open')}
      </button>
      <Modal isOpen={isOpen} onClose={() => setOpen(false)} labelledBy="delegate-title">
        <form
          method="dialog"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <h2 id="delegate-title">{t('delegate.title')}</h2>
          <p>{t('delegate.help')}</p>
          <label htmlFor="delegate-name">{t('delegate.name')}</label>
          <input id="delegate-name" required maxLength={200} autoComplete="off" {...field('name')} />
          <label htmlFor="delegate-email">{t('delegate.email')}</label>
          <input id="delegate-email" type="email" maxLength={200} autoComplete="off" {...field('email')} />
          <label htmlFor="delegate-phone">{t('delegate.phone')}</label>
          <input id="delegate-phone" type="tel" maxLength={40} autoComplete="off" {...field('mobile_phone')} />
          <label htmlFor="delegate-reason">{t('delegate.reason')}</label>
          <textarea id="delegate-reason" required maxLength={1000} rows={3} {...field('reason')} />
          {problem && (
            <p className="problem" role="alert">
              {problem}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="primary" disabled={isBusy}>
              {t('delegate.submit')}
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
export function DelegatedNotice({ t, name }: { t: SigningTranslate; name: string }) {
  return <Notice title={t('delegate.doneTitle', { name })} body={t('delegate.doneBody')} />;
}
