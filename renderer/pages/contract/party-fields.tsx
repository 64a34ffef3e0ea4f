import { DELIVERY_METHODS, SIGN_TYPES } from '../../../shared/api/enums';
import { SelectField, TextField } from '../../components/fields';
import { useT } from '../../lib/i18n';
import type { FormLabels } from '../../lib/problem-lines';

/** A party form's labels, for problems in the office's words (delivery_method EMAIL -> Delivery E-mail). */
export function usePartyLabels(): FormLabels {
  const t = useT();
  return {
    fields: {
      name: t('field.name'),
      email: t('field.email'),
      mobile_phone: t('field.mobilePhone'),
      identity_number: t('field.identityNumber'),
      delivery_method: t('field.deliveryMethod'),
      sign_type: t('field.signType'),
      sign_order: t('field.signOrder'),
      role: t('roles.partyRole'),
    },
    values: Object.fromEntries([
      ...DELIVERY_METHODS.map((value) => [value, t(`delivery.${value}`)]),
      ...SIGN_TYPES.map((value) => [value, t(`signType.${value}`)]),
    ]),
  };
}

type PartyFieldName = 'name' | 'email' | 'mobile_phone' | 'identity_number' | 'delivery_method' | 'sign_type';

type Props = {
  bind: (name: PartyFieldName) => { value: string; onValue: (value: string) => void };
  errors: Partial<Record<string, string>>;
};

/** Who a party is and how it answers: the fields the add form and the edit dialog share. */
export function PartyFields({ bind, errors }: Props) {
  const t = useT();
  return (
    <>
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
    </>
  );
}
