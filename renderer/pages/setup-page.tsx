import { useState, type FormEvent } from 'react';
import type { TSession } from '../../shared/api/session';
import { Welcome } from '../components/layout';
import { Button, Field, ProblemAlert } from '../components/ui';
import { sendJson, type ApiError } from '../lib/api';
import { asApiError, fieldErrors } from '../lib/forms';
import { useT } from '../lib/i18n';
import { useSession } from '../lib/session';

/** First run: the office and its first administrator. Only shown while no administrator exists. */
export function SetupPage() {
  const t = useT();
  const { begin } = useSession();
  const [form, setForm] = useState({ office_name: '', office_email: '', firstname: '', lastname: '', username: '', email: '', password: '', confirm: '' });
  const [error, setError] = useState<ApiError>();
  const [mismatch, setMismatch] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  const errors = fieldErrors(error);
  const set = (name: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMismatch(form.password !== form.confirm);
    if (form.password !== form.confirm) return;
    setIsBusy(true);
    try {
      const { confirm: _confirm, firstname, lastname, ...rest } = form;
      const body = { ...rest, ...(firstname ? { firstname } : {}), ...(lastname ? { lastname } : {}) };
      begin(await sendJson<TSession>('POST', '/api/setup', body, { isPublic: true }));
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <Welcome>
      <form className="welcome-card welcome-card-wide" onSubmit={(event) => void submit(event)} noValidate>
        <h1>{t('setup.title')}</h1>
        <p className="welcome-lead">{t('setup.lead')}</p>
        <ProblemAlert error={error} />
        <fieldset className="form-section">
          <legend>{t('setup.office')}</legend>
          <div className="form-grid">
            <Field label={t('field.officeName')} error={errors.office_name}>
              {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" value={form.office_name} onChange={set('office_name')} required autoComplete="organization" />}
            </Field>
            <Field label={t('field.officeEmail')} hint={t('setup.officeEmailHint')} error={errors.office_email}>
              {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="email" value={form.office_email} onChange={set('office_email')} required autoComplete="email" />}
            </Field>
          </div>
        </fieldset>
        <fieldset className="form-section">
          <legend>{t('setup.admin')}</legend>
          <div className="form-grid">
            <Field label={t('field.firstname')} error={errors.firstname}>
              {(id) => <input id={id} className="input" value={form.firstname} onChange={set('firstname')} autoComplete="given-name" />}
            </Field>
            <Field label={t('field.lastname')} error={errors.lastname}>
              {(id) => <input id={id} className="input" value={form.lastname} onChange={set('lastname')} autoComplete="family-name" />}
            </Field>
            <Field label={t('field.username')} error={errors.username}>
              {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" value={form.username} onChange={set('username')} required autoComplete="username" />}
            </Field>
            <Field label={t('field.email')} error={errors.email}>
              {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="email" value={form.email} onChange={set('email')} required autoComplete="email" />}
            </Field>
            <Field label={t('field.password')} hint={t('field.passwordHint')} error={errors.password}>
              {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="password" value={form.password} onChange={set('password')} required autoComplete="new-password" />}
            </Field>
            <Field label={t('field.passwordConfirm')} error={mismatch ? t('setup.mismatch') : undefined}>
              {(id, describedBy) => <input id={id} aria-describedby={describedBy} className="input" type="password" value={form.confirm} onChange={set('confirm')} required autoComplete="new-password" />}
            </Field>
          </div>
        </fieldset>
        <div className="form-actions">
          <Button type="submit" variant="primary" isBusy={isBusy}>
            {t('setup.submit')}
          </Button>
        </div>
      </form>
    </Welcome>
  );
}
