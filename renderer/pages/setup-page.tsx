import { useState } from 'react';
import type { TSession } from '../../shared/api/session';
import { TextField } from '../components/fields';
import { Welcome } from '../components/layout';
import { OfficeFields } from '../components/office-fields';
import { Button, ProblemAlert } from '../components/ui';
import { sendJson } from '../lib/api';
import { useFormState } from '../lib/forms';
import { useT } from '../lib/i18n';
import { useSession } from '../lib/session';
import { useAction } from '../lib/use-action';
import { readableErrors } from '../lib/problem-lines';

/** First run: the office and its first administrator. Only shown while no administrator exists. */
export function SetupPage() {
  const t = useT();
  const { begin } = useSession();
  const { form, bind } = useFormState({
    office_name: '',
    office_email: '',
    firstname: '',
    lastname: '',
    username: '',
    email: '',
    password: '',
    confirm: '',
  });
  const [isMismatch, setIsMismatch] = useState(false);
  const save = useAction();
  const labels = {
    fields: {
      office_name: t('field.officeName'),
      office_email: t('field.officeEmail'),
      firstname: t('field.firstname'),
      lastname: t('field.lastname'),
      username: t('field.username'),
      email: t('field.email'),
      password: t('field.password'),
    },
  };
  const errors = readableErrors(save.errors, labels);
  const submit = save.submit('setup', async () => {
    setIsMismatch(form.password !== form.confirm);
    if (form.password !== form.confirm) return;
    const { confirm: _confirm, firstname, lastname, ...rest } = form;
    const body = { ...rest, ...(firstname ? { firstname } : {}), ...(lastname ? { lastname } : {}) };
    begin(await sendJson<TSession>('POST', '/api/setup', body, { isPublic: true }));
  });

  return (
    <Welcome>
      <form className="welcome-card welcome-card-wide" onSubmit={submit} noValidate>
        <h1>{t('setup.title')}</h1>
        <p className="welcome-lead">{t('setup.lead')}</p>
        <ProblemAlert error={save.error} labels={labels} />
        <fieldset className="form-section">
          <legend>{t('setup.office')}</legend>
          <div className="form-grid">
            <OfficeFields name={bind('office_name')} email={bind('office_email')} errors={errors} isRequired />
          </div>
        </fieldset>
        <fieldset className="form-section">
          <legend>{t('setup.admin')}</legend>
          <div className="form-grid">
            <TextField
              label={t('field.firstname')}
              error={errors.firstname}
              {...bind('firstname')}
              autoComplete="given-name"
            />
            <TextField
              label={t('field.lastname')}
              error={errors.lastname}
              {...bind('lastname')}
              autoComplete="family-name"
            />
            <TextField
              label={t('field.username')}
              error={errors.username}
              {...bind('username')}
              required
              autoComplete="username"
            />
            <TextField
              label={t('field.email')}
              error={errors.email}
              {...bind('email')}
              type="email"
              required
              autoComplete="email"
            />
            <TextField
              label={t('field.password')}
              hint={t('field.passwordHint')}
              error={errors.password}
              {...bind('password')}
              type="password"
              required
              autoComplete="new-password"
            />
            <TextField
              label={t('field.passwordConfirm')}
              error={isMismatch ? t('setup.mismatch') : undefined}
              {...bind('confirm')}
              type="password"
              required
              autoComplete="new-password"
            />
          </div>
        </fieldset>
        <div className="form-actions">
          <Button type="submit" variant="primary" isBusy={save.busy === 'setup'}>
            {t('setup.submit')}
          </Button>
        </div>
      </form>
    </Welcome>
  );
}
