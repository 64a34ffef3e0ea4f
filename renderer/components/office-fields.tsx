import { useT } from '../lib/i18n';
import { TextField } from './fields';

type Bound = { value: string; onValue: (value: string) => void };

/** The office's name and registered e-mail: asked at setup, after a CLI-made admin's sign-in, and in settings. */
export function OfficeFields({
  name,
  email,
  errors,
  isRequired = false,
}: {
  name: Bound;
  email: Bound;
  errors: Record<string, string>;
  isRequired?: boolean;
}) {
  const t = useT();
  return (
    <>
      <TextField
        label={t('field.officeName')}
        error={errors.office_name}
        {...name}
        required={isRequired}
        autoComplete="organization"
      />
      <TextField
        label={t('field.officeEmail')}
        hint={t('setup.officeEmailHint')}
        error={errors.office_email}
        {...email}
        type="email"
        required={isRequired}
        autoComplete="email"
      />
    </>
  );
}
