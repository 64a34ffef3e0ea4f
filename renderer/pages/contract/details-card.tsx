import { useEffect } from 'react';
import type { TContract } from '../../../shared/api/contracts';
import { LANGUAGES, REQUIRE_AUTH_VALUES } from '../../../shared/api/enums';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/fields';
import { Button, Card, DescriptionList, ProblemAlert } from '../../components/ui';
import { sendJson } from '../../lib/api';
import { useFormState } from '../../lib/forms';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useSignedIn } from '../../lib/session';

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', sv: 'Svenska' };

type Draft = { name: string; language: string; require_auth: string; expire_time: string; email_invite_content: string; party_order_defined: boolean };

/**
 * The office's own format, YYYY-MM-DD HH:MM (24 h) in its time zone, typed as text: a browser's
 * date control would speak the browser's locale (mm/dd/yyyy, 12 h) and its zone. A date alone
 * means the end of that day.
 */
const toLocalInput = (timestamp: string | null) => (timestamp ? timestamp.slice(0, 16) : '');
function fromLocalInput(value: string): string | null {
  const text = value.trim().replace('T', ' ');
  if (text === '') return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text} 23:59:00`;
  return /^\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}$/.test(text) ? `${text.replace(/ (\d):/, ' 0$1:')}:00` : text;
}

const draftOf = (contract: TContract): Draft => ({
  name: contract.name,
  language: contract.language,
  require_auth: contract.require_auth,
  expire_time: toLocalInput(contract.expire_time),
  email_invite_content: contract.email_invite_content,
  party_order_defined: contract.party_order_defined,
});

/** The changed fields only, in the API's shapes. */
function changesOf(draft: Draft, contract: TContract): Record<string, unknown> {
  const saved = draftOf(contract);
  const changed = (Object.keys(draft) as (keyof Draft)[]).filter((key) => draft[key] !== saved[key]);
  return Object.fromEntries(changed.map((key) => [key, key === 'expire_time' ? fromLocalInput(draft.expire_time) : draft[key]]));
}

function DraftSettings({ contract, onSaved }: { contract: TContract; onSaved: () => Promise<void> }) {
  const t = useT();
  const session = useSignedIn();
  const { form, setForm, bind } = useFormState(() => draftOf(contract));
  const save = useAction();
  const { errors } = save;
  useEffect(() => setForm(draftOf(contract)), [contract.self]);
  const changes = changesOf(form, contract);
  const submit = save.submit('save', async () => {
    await sendJson('PUT', contract.self, changes);
    await onSaved();
  });
  return (
    <form onSubmit={submit} noValidate aria-label={t('contract.details')}>
      <ProblemAlert error={save.error} />
      <TextField label={t('field.name')} error={errors.name} {...bind('name')} />
      <div className="form-grid">
        <SelectField label={t('field.language')} error={errors.language} options={LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] ?? value }))} {...bind('language')} />
        <SelectField label={t('field.requireAuth')} hint={t('field.requireAuthHint')} error={errors.require_auth} options={REQUIRE_AUTH_VALUES.map((value) => ({ value, label: t(`auth.${value}`) }))} {...bind('require_auth')} />
        <TextField
          label={t('field.expireTime')}
          hint={t('field.expireTimeHint', { zone: session.office.time_zone })}
          error={errors.expire_time}
          {...bind('expire_time')}
          placeholder="YYYY-MM-DD HH:MM"
          inputMode="numeric"
          autoComplete="off"
        />
        <div className="field field-checkbox">
          <CheckboxField label={t('field.signInOrder')} hint={t('field.signInOrderHint')} checked={form.party_order_defined} onChecked={(checked) => setForm({ ...form, party_order_defined: checked })} />
        </div>
      </div>
      <TextAreaField label={t('field.inviteMessage')} hint={t('field.inviteMessageHint')} error={errors.email_invite_content} {...bind('email_invite_content')} rows={3} />
      <div className="form-actions">
        <Button type="submit" isBusy={save.busy === 'save'} disabled={Object.keys(changes).length === 0}>
          {t('action.save')}
        </Button>
      </div>
    </form>
  );
}

/** The contract's settings: editable while a draft, then shown as they were sent. */
export function DetailsCard({ contract, isDraft, onSaved }: { contract: TContract; isDraft: boolean; onSaved: () => Promise<void> }) {
  const t = useT();
  return (
    <Card title={t('contract.details')} description={t('contract.settingsDescription')}>
      {isDraft ? (
        <DraftSettings contract={contract} onSaved={onSaved} />
      ) : (
        <DescriptionList
          items={[
            { term: t('field.language'), value: LANGUAGE_NAMES[contract.language] ?? contract.language },
            { term: t('field.order'), value: contract.party_order_defined ? t('order.inOrder') : t('order.sideBySide') },
            { term: t('field.requireAuth'), value: t(`auth.${contract.require_auth}`) },
            ...(contract.email_invite_content ? [{ term: t('field.inviteMessage'), value: <span className="pre-line">{contract.email_invite_content}</span> }] : []),
          ]}
        />
      )}
    </Card>
  );
}
