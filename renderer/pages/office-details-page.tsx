import { useState, type FormEvent } from 'react';
import { Welcome } from '../components/layout';
import { Button, Field, ProblemAlert } from '../components/ui';
import { sendJson, type ApiError } from '../lib/api';
import { asApiError, fieldErrors } from '../lib/forms';
import { useT } from '../lib/i18n';
import { useSession } from '../lib/session';

/** An administrator made with the CLI gives the office's details after the first sign-in. */
export function OfficeDetailsPage() {
  const t = useT();
  const { refresh, signOut } = useSession();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<ApiError>();
  const [isBusy, setIsBusy] = useState(false);
  const errors = fieldErrors(error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setIsBusy(true);
    try {
      await sendJson('PUT', '/api/settings/general', { office_name: name, office_email: email });
      await refresh();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <Welcome>
      <form className="welcome-card" onSubmit={(event) => void submit(event)} noValidate>
        <h1>{t('office.title')}</h1>
        <p className="welcome-lead">{t('office.lead')}</p>
        <ProblemAlert error={error} />
        <Field label={t('field.officeName')} error={errors.office_name}>
          {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" value={name} onChange={(event) => setName(event.target.value)} required autoComplete="organization" />}
        </Field>
        <Field label={t('field.officeEmail')} hint={t('setup.officeEmailHint')} error={errors.office_email}>
          {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="email" value={email} onChange={(event) => setEmail(event.target.value)} required autoComplete="email" />}
        </Field>
        <div className="form-actions form-actions-split">
          <Button variant="ghost" onClick={() => void signOut()}>
            {t('action.signOut')}
          </Button>
          <Button type="submit" variant="primary" isBusy={isBusy}>
            {t('action.continue')}
          </Button>
        </div>
      </form>
    </Welcome>
  );
}
