import { DELIVERY_METHODS, SIGN_TYPES } from '../../../shared/api/enums';
import { CheckboxField, SelectField, TextField } from '../../components/fields';
import { Button, ProblemAlert } from '../../components/ui';
import { sendJson } from '../../lib/api';
import { useFormState } from '../../lib/forms';
import { useT } from '../../lib/i18n';
import { useSignedIn } from '../../lib/session';
import { useAction } from '../../lib/use-action';
import { readableErrors } from '../../lib/problem-lines';
import { usePartyLabels } from './edit-party-dialog';

const EMPTY = {
  name: '',
  email: '',
  mobile_phone: '',
  identity_number: '',
  delivery_method: 'EMAIL',
  sign_type: 'DEFAULT',
  user: '',
};

/** A draft's new party; "this party is me" links it to the signed-in user, for auto-sign at send. */
export function AddPartyForm({ contractPath, onAdded }: { contractPath: string; onAdded: () => void }) {
  const t = useT();
  const session = useSignedIn();
  const { form, setForm, bind } = useFormState(EMPTY);
  const add = useAction();
  const labels = usePartyLabels();
  const errors = readableErrors(add.errors, labels);
  const me = session.user;
  const myName = [me.firstname, me.lastname].filter(Boolean).join(' ') || me.username;
  const submit = add.submit('add', async () => {
    const body = Object.fromEntries(Object.entries(form).filter(([, value]) => value !== ''));
    await sendJson('POST', `${contractPath}/parties`, body);
    setForm({ ...form, name: '', email: '', mobile_phone: '', identity_number: '', user: '' });
    onAdded();
  });
  const setIsMe = (isMe: boolean) =>
    setForm(
      isMe
        ? { ...form, user: me.self, name: form.name || myName, email: form.email || me.email }
        : { ...form, user: '' },
    );
  return (
    <form className="add-party" onSubmit={submit} noValidate aria-label={t('contract.addParty')}>
      <h3>{t('contract.addParty')}</h3>
      <ProblemAlert error={add.error} labels={labels} />
      <div className="form-grid form-grid-3">
        <TextField label={t('field.name')} error={errors.name} {...bind('name')} />
        <TextField label={t('field.email')} error={errors.email} {...bind('email')} type="email" />
        <TextField label={t('field.mobilePhone')} error={errors.mobile_phone} {...bind('mobile_phone')} type="tel" />
        <TextField
          label={t('field.identityNumber')}
          hint={t('field.identityNumberHint')}
          error={errors.identity_number}
          {...bind('identity_number')}
        />
        <SelectField
          label={t('field.deliveryMethod')}
          error={errors.delivery_method}
          options={DELIVERY_METHODS.map((value) => ({ value, label: t(`delivery.${value}`) }))}
          {...bind('delivery_method')}
        />
        <SelectField
          label={t('field.signType')}
          error={errors.sign_type}
          options={SIGN_TYPES.map((value) => ({ value, label: t(`signType.${value}`) }))}
          {...bind('sign_type')}
        />
        <div className="field field-button">
          <Button type="submit" isBusy={add.busy === 'add'}>
            {t('contract.addPartyButton')}
          </Button>
        </div>
      </div>
      <CheckboxField
        label={t('contract.partyIsMe', { name: myName })}
        hint={t('contract.partyIsMeHint')}
        checked={form.user === me.self}
        onChecked={setIsMe}
      />
    </form>
  );
}
