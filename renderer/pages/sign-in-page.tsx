import { useState } from 'react';
import type { TSession } from '../../shared/api/session';
import type { TSignInPending } from '../../shared/api/second-factor';
import { TextField } from '../components/fields';
import { Welcome } from '../components/layout';
import { Button, Notice, ProblemAlert } from '../components/ui';
import { sendJson } from '../lib/api';
import { useT } from '../lib/i18n';
import type { MessageKey } from '../i18n/en';
import { useSession } from '../lib/session';
import { useAction } from '../lib/use-action';
import { SecondStep } from './sign-in-second-step';
import { SsoButton, SsoFinishing, useSsoCallback, useSsoStatus } from './sso-sign-in';

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
  const [pending, setPending] = useState<TSignInPending>();
  const signIn = useAction();
  const sso = useSsoStatus();
  const callback = useSsoCallback(begin);
  const submit = signIn.submit('sign-in', async () => {
    try {
      const answer = await sendJson<TSession | TSignInPending>(
        'POST',
        '/api/session',
        { username, password },
        { isPublic: true },
      );
      // 202: the password was right and a second step is owed (a code, or setting up an app).
      if ('pending_token' in answer) setPending(answer);
      else begin(answer);
    } finally {
      setPassword('');
    }
  });

  if (pending) return <SecondStep pending={pending} onStartOver={() => setPending(undefined)} onSignedIn={begin} />;

  const reasonKey = reason ? REASONS[reason] : undefined;
  if (callback.isFinishing)
    return (
      <Welcome>
        <div className="welcome-card">
          <SsoFinishing />
        </div>
      </Welcome>
    );
  return (
    <Welcome>
      <form className="welcome-card" onSubmit={submit}>
        <h1>{t('signIn.title')}</h1>
        <p className="welcome-lead">
          {setup?.office_name ? t('signIn.leadOffice', { office: setup.office_name }) : t('signIn.lead')}
        </p>
        {reasonKey && !signIn.error && !callback.error ? (
          <Notice tone={reason === 'signed-out' || reason === 'restored' ? 'success' : 'warning'}>
            {t(reasonKey)}
          </Notice>
        ) : null}
        <ProblemAlert error={signIn.error ?? callback.error} />
        {sso?.is_enabled ? (
          <>
            <SsoButton status={sso} />
            <p className="muted small">{sso.is_password_sign_in_off ? t('sso.passwordOffNote') : t('sso.or')}</p>
          </>
        ) : null}
        <TextField
          label={t('field.username')}
          value={username}
          onValue={setUsername}
          autoComplete="username"
          required
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the page's one task starts here; nothing above it to read first
          autoFocus={!sso?.is_enabled}
        />
        <TextField
          label={t('field.password')}
          value={password}
          onValue={setPassword}
          type="password"
          autoComplete="current-password"
          required
        />
        <Button
          type="submit"
          variant={sso?.is_enabled ? 'secondary' : 'primary'}
          className="button-block"
          isBusy={signIn.busy === 'sign-in'}
        >
          {t('action.signIn')}
        </Button>
      </form>
    </Welcome>
  );
}
