import { useState } from 'react';
import type { TRecoveryCodes, TTotpEnrolment, TTotpStatus } from '../../../shared/api/second-factor';
import { TextField } from '../../components/fields';
import { RecoveryCodes, TotpEnrolmentForm } from '../../components/two-factor';
import { Button, Card, Loading, Notice, ProblemAlert } from '../../components/ui';
import { getJson, sendJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

// A wrong code or password answers 401: sent as public calls, so that it is not read as the session ending.
const asPublic = { isPublic: true };

/** The signed-in user's own second factor: set up with a QR code, shown on or off, turned off with the password. */
export function TwoFactorCard() {
  const t = useT();
  const status = useLoad((signal) => getJson<TTotpStatus>('/api/session/totp', signal), []);
  const [enrolment, setEnrolment] = useState<TTotpEnrolment>();
  const [codes, setCodes] = useState<string[]>();
  const [password, setPassword] = useState('');
  const action = useAction();

  const start = () =>
    void action.run('start', async () => setEnrolment(await sendJson<TTotpEnrolment>('POST', '/api/session/totp')));
  const confirm = async (code: string) => {
    const answer = await sendJson<TRecoveryCodes>('POST', '/api/session/totp/confirm', { code }, asPublic);
    setEnrolment(undefined);
    setCodes(answer.recovery_codes);
  };
  const turnOff = action.submit('off', async () => {
    try {
      await sendJson('POST', '/api/session/totp/remove', { password }, asPublic);
    } finally {
      setPassword('');
    }
    await status.reload();
  });

  const data = status.data;
  let body;
  if (codes) {
    body = (
      <RecoveryCodes
        codes={codes}
        onDone={() => {
          setCodes(undefined);
          void status.reload();
        }}
      />
    );
  } else if (!data) {
    body = status.error ? <ProblemAlert error={status.error} /> : <Loading />;
  } else if (enrolment) {
    body = <TotpEnrolmentForm enrolment={enrolment} onConfirm={confirm} />;
  } else if (data.is_enabled) {
    body = (
      <form className="stack" onSubmit={turnOff}>
        <Notice tone="success">
          {t('twoFactor.on', { time: data.enabled_time ?? '', n: String(data.recovery_codes_left) })}
        </Notice>
        <ProblemAlert error={action.error} />
        <TextField
          label={t('field.password')}
          hint={t('twoFactor.turnOffHint')}
          value={password}
          onValue={setPassword}
          type="password"
          autoComplete="current-password"
          required
        />
        <div className="form-actions">
          <Button type="submit" variant="danger" isBusy={action.busy === 'off'}>
            {t('twoFactor.turnOff')}
          </Button>
        </div>
      </form>
    );
  } else {
    body = (
      <div className="stack">
        <Notice tone={data.is_required ? 'warning' : 'info'}>
          {data.is_required ? t('twoFactor.required') : t('twoFactor.off')}
        </Notice>
        <ProblemAlert error={action.error} />
        <div>
          <Button variant="primary" onClick={start} isBusy={action.busy === 'start'}>
            {t('twoFactor.setUp')}
          </Button>
        </div>
      </div>
    );
  }
  return (
    <Card title={t('twoFactor.title')} description={t('twoFactor.description')}>
      {body}
    </Card>
  );
}
