import { useState, type FormEvent } from 'react';
import type { TSession } from '../../shared/api/session';
import { Welcome } from '../components/layout';
import { Button, Field, Notice, ProblemAlert } from '../components/ui';
import { sendJson, type ApiError } from '../lib/api';
import { asApiError } from '../lib/forms';
import { useT } from '../lib/i18n';
import type { MessageKey } from '../i18n/en';
import { useSession } from '../lib/session';

const REASONS: Record<string, MessageKey> = {
  expired: 'signIn.expired',
  'signed-out': 'signIn.signedOut',
  restored: 'signIn.restored',
  'link-expired': 'signIn.linkExpired',
};

export function SignInPage() {
  const t = useT();
  const { begin, reason, setup } = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError>();
  const [isBusy, setIsBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setIsBusy(true);
    setError(undefined);
    try {
      begin(await sendJson<TSession>('POST', '/api/session', { username, password }, { isPublic: true }));
    } catch (err) {
      setError(asApiError(err));
      setPassword('');
    } finally {
      setIsBusy(false);
    }
  };

  const reasonKey = reason ? REASONS[reason] : undefined;
  return (
    <Welcome>
      <form className="welcome-card" onSubmit={(event) => void submit(event)}>
        <h1>{t('signIn.title')}</h1>
        <p className="welcome-lead">{setup?.office_name ? t('signIn.leadOffice', { office: setup.office_name }) : t('signIn.lead')}</p>
        {reasonKey && !error ? <Notice tone={reason === 'signed-out' || reason === 'restored' ? 'success' : 'warning'}>{t(reasonKey)}</Notice> : null}
        <ProblemAlert error={error} />
        <Field label={t('field.username')}>
          {(id) => <input id={id} className="input" value={username} onChange={(event) => setUsername(event.target.value)} autoComplete="username" required autoFocus />}
        </Field>
        <Field label={t('field.password')}>
          {(id) => <input id={id} className="input" type="password" value={password} onChange={(event) => setPassword(event.target.value)} autoComplete="current-password" required />}
        </Field>
        <Button type="submit" variant="primary" className="button-block" isBusy={isBusy}>
          {t('action.signIn')}
        </Button>
      </form>
    </Welcome>
  );
}
