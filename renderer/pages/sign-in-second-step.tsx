import { useEffect, useState } from 'react';
import type { TEnrolledSession, TSignInPending, TTotpEnrolment } from '../../shared/api/second-factor';
import type { TSession } from '../../shared/api/session';
import { TextField } from '../components/fields';
import { Welcome } from '../components/layout';
import { RecoveryCodes, TotpEnrolmentForm } from '../components/two-factor';
import { Button, Loading, ProblemAlert } from '../components/ui';
import { sendJson } from '../lib/api';
import { useT } from '../lib/i18n';
import { useAction } from '../lib/use-action';

type Props = { pending: TSignInPending; onStartOver: () => void; onSignedIn: (session: TSession) => void };

/** After the right password: the authenticator code, or (where the office requires it) setting up the app first. */
export function SecondStep(props: Props) {
  return (
    <Welcome>
      <div className="welcome-card">
        {props.pending.second_factor === 'totp' ? <CodeStep {...props} /> : <EnrolStep {...props} />}
      </div>
    </Welcome>
  );
}

function CodeStep({ pending, onStartOver, onSignedIn }: Props) {
  const t = useT();
  const [code, setCode] = useState('');
  const action = useAction();
  const submit = action.submit('code', async () => {
    try {
      const body = { pending_token: pending.pending_token, code: code.trim() };
      onSignedIn(await sendJson<TSession>('POST', '/api/session/second-factor', body, { isPublic: true }));
    } finally {
      setCode('');
    }
  });
  return (
    <form className="stack" onSubmit={submit}>
      <h1>{t('signIn.codeTitle')}</h1>
      <p className="welcome-lead">{t('signIn.codeLead')}</p>
      <ProblemAlert error={action.error} />
      <TextField
        label={t('signIn.codeField')}
        value={code}
        onValue={setCode}
        autoComplete="one-time-code"
        maxLength={20}
        required
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the step's one task; the password field had the focus before
        autoFocus
      />
      <Button type="submit" variant="primary" className="button-block" isBusy={action.busy === 'code'}>
        {t('action.signIn')}
      </Button>
      <Button variant="ghost" onClick={onStartOver}>
        {t('signIn.startOver')}
      </Button>
    </form>
  );
}

function EnrolStep({ pending, onStartOver, onSignedIn }: Props) {
  const t = useT();
  const [enrolment, setEnrolment] = useState<TTotpEnrolment>();
  const [done, setDone] = useState<TEnrolledSession>();
  const action = useAction();
  const { run } = action;
  useEffect(() => {
    void run('start', async () =>
      setEnrolment(
        await sendJson<TTotpEnrolment>(
          'POST',
          '/api/session/enrolment',
          { pending_token: pending.pending_token },
          { isPublic: true },
        ),
      ),
    );
  }, [run, pending.pending_token]);
  const confirm = async (code: string) => {
    const body = { pending_token: pending.pending_token, code };
    setDone(await sendJson<TEnrolledSession>('POST', '/api/session/enrolment/confirm', body, { isPublic: true }));
  };
  if (done) return <RecoveryCodes codes={done.recovery_codes} onDone={() => onSignedIn(done)} />;
  return (
    <div className="stack">
      <h1>{t('signIn.enrolTitle')}</h1>
      <p className="welcome-lead">{t('signIn.enrolLead')}</p>
      <ProblemAlert error={action.error} />
      {enrolment ? <TotpEnrolmentForm enrolment={enrolment} onConfirm={confirm} /> : action.error ? null : <Loading />}
      <Button variant="ghost" onClick={onStartOver}>
        {t('signIn.startOver')}
      </Button>
    </div>
  );
}
