import { EmptyState } from '../components/ui';
import { useT } from '../lib/i18n';
import { Link } from '../lib/router';

export function NotFoundPage() {
  const t = useT();
  return (
    <EmptyState
      title={t('notFound.title')}
      body={t('notFound.body')}
      action={
        <Link to="/contracts" className="button button-secondary">
          {t('nav.contracts')}
        </Link>
      }
    />
  );
}

export function ForbiddenPage() {
  const t = useT();
  return (
    <EmptyState
      title={t('forbidden.title')}
      body={t('forbidden.body')}
      action={
        <Link to="/contracts" className="button button-secondary">
          {t('nav.contracts')}
        </Link>
      }
    />
  );
}
