import { useState } from 'react';
import type { TTotpEnrolment } from '../../shared/api/second-factor';
import { CopyButton } from './copy-button';
import { TextField } from './fields';
import { Button, Notice, ProblemAlert } from './ui';
import { useT } from '../lib/i18n';
import { useAction } from '../lib/use-action';

/**
 * Setting up an authenticator app: the QR code (an SVG the server drew, shown as an image, so
 * none of it runs), the key for typing by hand, and the app's first code to turn it on.
 */
export function TotpEnrolmentForm({
  enrolment,
  onConfirm,
}: {
  enrolment: TTotpEnrolment;
  onConfirm: (code: string) => Promise<void>;
}) {
  const t = useT();
  const [code, setCode] = useState('');
  const action = useAction();
  const submit = action.submit('confirm', async () => {
    try {
      await onConfirm(code.trim());
    } finally {
      setCode('');
    }
  });
  return (
    <form className="stack totp-enrolment" onSubmit={submit}>
      <p>{t('twoFactor.scan')}</p>
      <img
        className="totp-qr"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_code_svg)}`}
        alt={t('twoFactor.qrAlt')}
        width={200}
        height={200}
      />
      <p className="field-hint">
        {t('twoFactor.secret')} <code data-testid="totp-secret">{enrolment.secret}</code>
      </p>
      <ProblemAlert error={action.error} />
      <TextField
        label={t('twoFactor.code')}
        value={code}
        onValue={setCode}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={10}
        required
      />
      <Button type="submit" variant="primary" isBusy={action.busy === 'confirm'}>
        {t('twoFactor.turnOn')}
      </Button>
    </form>
  );
}

/** The ten recovery codes, shown once, until the user says they have kept them. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const t = useT();
  return (
    <div className="stack" data-testid="recovery-codes">
      <Notice tone="warning" title={t('twoFactor.codesTitle')}>
        {t('twoFactor.codesLead')}
      </Notice>
      <ul className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="form-actions">
        <CopyButton value={codes.join('\n')} label={t('twoFactor.copyCodes')} />
        <Button variant="primary" onClick={onDone}>
          {t('twoFactor.codesSaved')}
        </Button>
      </div>
    </div>
  );
}
