import { useState } from 'react';
import type { TSignInSettings } from '../../../shared/api/second-factor';
import { CheckboxField } from '../../components/fields';
import { Card, Loading, ProblemAlert } from '../../components/ui';
import { getJson, sendJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

/** Whether every staff user must sign in with two factors; saved as soon as it is ticked. */
export function SignInSettings() {
  const t = useT();
  const loaded = useLoad((signal) => getJson<TSignInSettings>('/api/settings/sign-in', signal), []);
  const action = useAction();
  // The box shows the new value while it is being saved, and the saved one after.
  const [saving, setSaving] = useState<boolean>();
  const change = (isRequired: boolean) => {
    setSaving(isRequired);
    void action
      .run('save', async () => {
        await sendJson('PUT', '/api/settings/sign-in', { require_two_factors: isRequired });
        await loaded.reload();
      })
      .finally(() => setSaving(undefined));
  };
  return (
    <Card title={t('settings.signIn')} description={t('settings.signInDescription')}>
      <ProblemAlert error={action.error ?? loaded.error} />
      {loaded.data ? (
        <CheckboxField
          label={t('settings.requireTwoFactors')}
          hint={t('settings.requireTwoFactorsHint')}
          checked={saving ?? loaded.data.require_two_factors}
          onChecked={change}
          disabled={action.busy === 'save'}
        />
      ) : (
        <Loading />
      )}
    </Card>
  );
}
