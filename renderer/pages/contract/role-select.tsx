import type { TContractRole } from '../../../shared/api/contract-roles';
import { SelectField } from '../../components/fields';
import { useT } from '../../lib/i18n';

type Props = {
  roles: readonly TContractRole[];
  error?: string;
  value: string;
  onValue: (value: string) => void;
};

/**
 * Which template role a new party takes, by name: the named roles no party has taken yet, or
 * the next role in order (what happens without a choice). Shown only when a role has a name.
 */
export function RoleSelect({ roles, error, value, onValue }: Props) {
  const t = useT();
  const free = roles.filter((role) => role.name !== null && role.party === null);
  if (free.length === 0) return null;
  return (
    <SelectField
      label={t('roles.partyRole')}
      error={error}
      value={value}
      onValue={onValue}
      options={[
        { value: '', label: t('roles.nextInOrder') },
        ...free.map((role) => ({ value: role.name ?? '', label: role.name ?? '' })),
      ]}
    />
  );
}
