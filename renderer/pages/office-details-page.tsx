import { Welcome } from '../components/layout';
import { OfficeFields } from '../components/office-fields';
import { Button, ProblemAlert } from '../components/ui';
import { sendJson } from '../lib/api';
import { useFormState } from '../lib/forms';
import { useT } from '../lib/i18n';
import { useSession } from '../lib/session';
import { useAction } from '../lib/use-action';
import { readableErrors } from '../lib/problem-lines';

/** An administrator made with the CLI gives the office's details after the first sign-in. */
export function OfficeDetailsPage() {
  const t = useT();
  const { refresh, signOut } = useSession();
  const { form, bind } = useFormState({ office_name: '', office_email: '' });
  const save = useAction();
  const labels = { fields: { office_name: t('field.officeName'), office_email: t('field.officeEmail') } };
  const submit = save.submit('save', async () => {
    await sendJson('PUT', '/api/settings/general', form);
    await refresh();
  });
  return (
    <Welcome>
      <form className="welcome-card" onSubmit={submit} noValidate>
        <h1>{t('office.title')}</h1>
        <p className="welcome-lead">{t('office.lead')}</p>
        <ProblemAlert error={save.error} labels={labels} />
        <OfficeFields
          name={bind('office_name')}
          email={bind('office_email')}
          errors={readableErrors(save.errors, labels)}
          isRequired
        />
        <div className="form-actions form-actions-split">
          <Button variant="ghost" onClick={() => void signOut()}>
            {t('action.signOut')}
          </Button>
          <Button type="submit" variant="primary" isBusy={save.busy === 'save'}>
            {t('action.continue')}
          </Button>
        </div>
      </form>
    </Welcome>
  );
}
