import { useState } from 'react';
import type { PermissionTemplate } from '../../../shared/api/enums';
import { SSO_CALLBACK_PATH, type TSsoClaimMapping, type TSsoSettings } from '../../../shared/api/sso';
import { CopyButton } from '../../components/copy-button';
import { CheckboxField, SelectField, TextField } from '../../components/fields';
import { Button, Card, Loading, Notice, ProblemAlert } from '../../components/ui';
import { getJson, sendJson } from '../../lib/api';
import { useHasChanged } from '../../lib/forms';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

type Form = Omit<TSsoSettings, 'client_secret' | 'issuer_url' | 'client_id' | 'break_glass_username'> & {
  issuer_url: string;
  client_id: string;
  client_secret: string;
  break_glass_username: string;
};

const formOf = (settings: TSsoSettings): Form => ({
  ...settings,
  issuer_url: settings.issuer_url ?? '',
  client_id: settings.client_id ?? '',
  client_secret: '',
  break_glass_username: settings.break_glass_username ?? '',
});

/**
 * Single sign-on: the provider, the claim and its map to permissions, how users are found or
 * made, and password sign-in for the break-glass administrator only. The saved client secret
 * never comes back (the API masks it); the field is for a new one.
 */
export function SsoSettings() {
  const t = useT();
  const loaded = useLoad((signal) => getJson<TSsoSettings>('/api/settings/sso', signal), []);
  const [form, setForm] = useState<Form>();
  const [isSaved, setIsSaved] = useState(false);
  const action = useAction<'save'>();
  if (useHasChanged(loaded.data) && loaded.data) setForm(formOf(loaded.data));
  if (!loaded.data || !form)
    return <Card title={t('sso.title')}>{loaded.error ? <ProblemAlert error={loaded.error} /> : <Loading />}</Card>;
  const saved = loaded.data;
  const change = (changes: Partial<Form>) => {
    setIsSaved(false);
    setForm({ ...form, ...changes });
  };
  const text = (
    name: 'provider_name' | 'issuer_url' | 'client_id' | 'client_secret' | 'claim' | 'break_glass_username',
  ) => ({
    value: form[name],
    onValue: (value: string) => change({ [name]: value }),
    error: action.errors[name],
    autoComplete: 'off',
  });
  const setRow = (index: number, row: Partial<TSsoClaimMapping>) =>
    change({ claim_mapping: form.claim_mapping.map((each, at) => (at === index ? { ...each, ...row } : each)) });
  const redirectUri = `${window.location.origin}${SSO_CALLBACK_PATH}`;
  const submit = action.submit('save', async () => {
    await sendJson('PUT', '/api/settings/sso', {
      is_enabled: form.is_enabled,
      provider_name: form.provider_name.trim(),
      issuer_url: form.issuer_url.trim() || null,
      client_id: form.client_id.trim() || null,
      // Empty: the saved secret stays.
      ...(form.client_secret ? { client_secret: form.client_secret } : {}),
      claim: form.claim.trim() || 'groups',
      claim_mapping: form.claim_mapping.filter((row) => row.value.trim() !== ''),
      user_mode: form.user_mode,
      is_password_sign_in_off: form.is_password_sign_in_off,
      break_glass_username: form.break_glass_username.trim() || null,
    });
    setIsSaved(true);
    await loaded.reload();
  });
  const permissions = [
    { value: 'CUSTOMER_USER', label: t('role.user') },
    { value: 'CUSTOMER_ADMIN_USER', label: t('role.admin') },
  ];
  return (
    <form onSubmit={submit} noValidate>
      <Card title={t('sso.title')} description={t('sso.description')} className="panel-sso">
        <ProblemAlert error={action.error} />
        {isSaved && !action.error ? <Notice tone="success">{t('state.saved')}</Notice> : null}
        <p className="small">
          {t('sso.redirectUri')}: <code className="mono wrap">{redirectUri}</code>{' '}
          <CopyButton value={redirectUri} label={t('action.copy')} />
        </p>
        <CheckboxField
          label={t('sso.enabled')}
          checked={form.is_enabled}
          onChecked={(is_enabled) => change({ is_enabled })}
        />
        <div className="form-grid">
          <TextField label={t('sso.providerName')} hint={t('sso.providerNameHint')} {...text('provider_name')} />
          <TextField
            label={t('sso.issuerUrl')}
            hint={t('sso.issuerUrlHint')}
            placeholder="https://login.example.com/office"
            {...text('issuer_url')}
          />
          <TextField label={t('sso.clientId')} {...text('client_id')} />
          <TextField
            label={t('sso.clientSecret')}
            hint={saved.client_secret ? t('sso.clientSecretSaved') : t('sso.clientSecretHint')}
            type="password"
            {...text('client_secret')}
          />
          <TextField label={t('sso.claim')} hint={t('sso.claimHint')} {...text('claim')} />
          <SelectField
            label={t('sso.userMode')}
            hint={t('sso.userModeHint')}
            value={form.user_mode}
            onValue={(value) => change({ user_mode: value as Form['user_mode'] })}
            options={[
              { value: 'existing', label: t('sso.userModeExisting') },
              { value: 'create', label: t('sso.userModeCreate') },
            ]}
          />
        </div>
        <fieldset className="form-section">
          <legend>{t('sso.mapping')}</legend>
          <p className="field-hint">{t('sso.mappingHint')}</p>
          {form.claim_mapping.map((row, index) => (
            <div
              className="form-grid form-grid-3"
              key={index}
              role="group"
              aria-label={`${t('sso.mappingValue')} ${index + 1}`}
            >
              <TextField
                label={t('sso.mappingValue')}
                value={row.value}
                onValue={(value) => setRow(index, { value })}
                autoComplete="off"
              />
              <SelectField
                label={t('sso.mappingPermission')}
                value={row.permission_template}
                onValue={(value) => setRow(index, { permission_template: value as PermissionTemplate })}
                options={permissions}
              />
              <div className="form-actions">
                <Button
                  onClick={() => change({ claim_mapping: form.claim_mapping.filter((_row, at) => at !== index) })}
                >
                  {t('sso.mappingRemove')}
                </Button>
              </div>
            </div>
          ))}
          {action.errors.claim_mapping ? <p className="field-error">{action.errors.claim_mapping}</p> : null}
          <Button
            onClick={() =>
              change({ claim_mapping: [...form.claim_mapping, { value: '', permission_template: 'CUSTOMER_USER' }] })
            }
          >
            {t('sso.mappingAdd')}
          </Button>
        </fieldset>
        <CheckboxField
          label={t('sso.passwordOff')}
          checked={form.is_password_sign_in_off}
          onChecked={(is_password_sign_in_off) => change({ is_password_sign_in_off })}
        />
        <TextField label={t('sso.breakGlass')} hint={t('sso.breakGlassHint')} {...text('break_glass_username')} />
        {(action.errors.is_enabled ?? action.errors.is_password_sign_in_off) ? (
          <p className="field-error">{action.errors.is_enabled ?? action.errors.is_password_sign_in_off}</p>
        ) : null}
        <div className="form-actions">
          <Button type="submit" variant="primary" isBusy={action.busy === 'save'}>
            {t('action.save')}
          </Button>
        </div>
      </Card>
    </form>
  );
}
