import type { TParty } from '../../../shared/api/parties';
import { CheckboxField, TextField } from '../../components/fields';
import { FormDialog } from '../../components/form-dialog';
import { sendJson } from '../../lib/api';
import { useFormState } from '../../lib/forms';
import { useT } from '../../lib/i18n';
import { readableErrors } from '../../lib/problem-lines';
import { PartyFields, usePartyLabels } from './party-fields';
import { useSignedIn } from '../../lib/session';
import { useAction } from '../../lib/use-action';
import { displayName } from '../../lib/use-user-names';

const formOf = (party: TParty) => ({
  name: party.name,
  email: party.email,
  mobile_phone: party.mobile_phone,
  identity_number: party.identity_number,
  delivery_method: party.delivery_method as string,
  sign_type: party.sign_type as string,
  sign_order: String(party.sign_order),
  user: party.user ?? '',
});

type Props = { party: TParty; isOrdered: boolean; onClose: () => void; onSaved: () => void };

/** Changes a draft's party: only what was changed is sent (PUT takes every field as optional). */
export function EditPartyDialog({ party, isOrdered, onClose, onSaved }: Props) {
  const t = useT();
  const session = useSignedIn();
  const labels = usePartyLabels();
  const { form, setForm, bind } = useFormState(() => formOf(party));
  const save = useAction();
  const errors = readableErrors(save.errors, labels);
  const me = session.user;
  const submit = save.submit('save', async () => {
    const saved = formOf(party);
    const changes: Record<string, unknown> = {};
    for (const key of Object.keys(form) as (keyof typeof form)[]) {
      if (form[key] === saved[key]) continue;
      if (key === 'sign_order') {
        if (form.sign_order.trim() !== '') changes[key] = Number(form.sign_order);
      } else if (key === 'user') changes[key] = form.user || null;
      else changes[key] = form[key];
    }
    if (Object.keys(changes).length > 0) await sendJson('PUT', party.self, changes);
    onSaved();
  });
  return (
    <FormDialog
      title={t('party.editTitle', { name: party.name })}
      onClose={onClose}
      onSubmit={submit}
      error={save.error}
      isBusy={save.busy === 'save'}
      submitLabel={t('action.save')}
      labels={labels}
    >
      <div className="form-grid">
        <PartyFields bind={bind} errors={errors} />
        {isOrdered ? (
          <TextField
            label={t('field.signOrder')}
            hint={t('field.signOrderHint')}
            error={errors.sign_order}
            {...bind('sign_order')}
            type="number"
            min={0}
            max={10000}
            inputMode="numeric"
          />
        ) : null}
      </div>
      <CheckboxField
        label={t('contract.partyIsMe', { name: displayName(me) })}
        hint={t('contract.partyIsMeHint')}
        checked={form.user === me.self}
        onChecked={(isMe) => setForm({ ...form, user: isMe ? me.self : '' })}
      />
    </FormDialog>
  );
}
