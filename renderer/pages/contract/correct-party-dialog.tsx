import type { TParty } from '../../../shared/api/parties';
import { DELIVERY_METHODS } from '../../../shared/api/enums';
import { SelectField, TextField } from '../../components/fields';
import { FormDialog } from '../../components/form-dialog';
import { sendJson } from '../../lib/api';
import { useFormState } from '../../lib/forms';
import { useT } from '../../lib/i18n';
import { readableErrors } from '../../lib/problem-lines';
import { useAction } from '../../lib/use-action';
import { usePartyLabels } from './party-fields';

const formOf = (party: TParty) => ({
  name: party.name,
  email: party.email,
  mobile_phone: party.mobile_phone,
  delivery_method: party.delivery_method as string,
  reason: '',
});

type Props = { party: TParty; onClose: () => void; onSaved: () => void };

/**
 * Corrects a party of a sent contract that has not answered (POST …/correction): only the
 * changed details are sent, with the reason the audit trail shows. The party's old link stops
 * working and, if it was invited, it is invited again with a new one.
 */
export function CorrectPartyDialog({ party, onClose, onSaved }: Props) {
  const t = useT();
  const partyLabels = usePartyLabels();
  const labels = { ...partyLabels, fields: { ...partyLabels.fields, reason: t('party.correctReason') } };
  const { form, bind } = useFormState(() => formOf(party));
  const save = useAction();
  const errors = readableErrors(save.errors, labels);
  const submit = save.submit('save', async () => {
    const saved = formOf(party);
    const changes: Record<string, string> = { reason: form.reason };
    for (const key of ['name', 'email', 'mobile_phone', 'delivery_method'] as const) {
      if (form[key] !== saved[key]) changes[key] = form[key];
    }
    await sendJson('POST', `${party.self}/correction`, changes);
    onSaved();
  });
  return (
    <FormDialog
      title={t('party.correctTitle', { name: party.name })}
      onClose={onClose}
      onSubmit={submit}
      error={save.error}
      isBusy={save.busy === 'save'}
      submitLabel={t('party.correctSubmit')}
      labels={labels}
    >
      <p className="small muted">{t('party.correctHint')}</p>
      <div className="form-grid">
        <TextField label={t('field.name')} error={errors.name} {...bind('name')} />
        <TextField label={t('field.email')} error={errors.email} {...bind('email')} type="email" />
        <TextField label={t('field.mobilePhone')} error={errors.mobile_phone} {...bind('mobile_phone')} type="tel" />
        <SelectField
          label={t('field.deliveryMethod')}
          error={errors.delivery_method}
          options={DELIVERY_METHODS.map((value) => ({ value, label: t(`delivery.${value}`) }))}
          {...bind('delivery_method')}
        />
      </div>
      <TextField label={t('party.correctReason')} error={errors.reason} {...bind('reason')} required />
    </FormDialog>
  );
}
