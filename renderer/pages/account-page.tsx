import { PageHeader } from '../components/ui';
import { useT } from '../lib/i18n';
import { TwoFactorCard } from './account/two-factor-card';

/** What every staff user sets for themselves: how they sign in. */
export function AccountPage() {
  const t = useT();
  return (
    <>
      <PageHeader title={t('account.title')} description={t('account.description')} />
      <div className="stack">
        <TwoFactorCard />
      </div>
    </>
  );
}
