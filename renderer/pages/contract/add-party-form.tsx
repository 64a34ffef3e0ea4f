import { CheckboxField } from '../../components/fields';
import { Button, ProblemAlert } from '../../components/ui';
import { sendJson } from '../../lib/api';
import { useFormState } from '../../lib/forms';
import { useT } from '../../lib/i18n';
import { useSignedIn } from '../../lib/session';
import { useAction } from '../../lib/use-action';
import { readableErrors } from '../../lib/problem-lines';
import { PartyFields, usePartyLabels } from './party-fields';
import { RoleSelect } from './role-select';
import type { TContractRole } from '../../../shared/api/contract-roles';

const EMPTY = {
  name: '',
  email: '',
  mobile_phone: '',
  identity_number: '',
  delivery_method: 'EMAIL',
  sign_type: 'DEFAULT',
  user: '',
  role: '',
};

/** A draft's new party; "this party is me" links it to the signed-in user, for auto-sign at send. */
export function AddPartyForm({
  contractPath,
  roles,
  onAdded,
}: {
  contractPath: string;
  roles: readonly TContractRole[];
  onAdded: () => void;
}) {
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
    setForm({ ...form, name: '', email: '', mobile_phone: '', identity_number: '', user: '', role: '' });
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
        <PartyFields bind={bind} errors={errors} />
        <RoleSelect roles={roles} error={errors.role} {...bind('role')} />
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
