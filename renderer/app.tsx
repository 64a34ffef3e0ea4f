import { useEffect } from 'react';
import { ConfirmProvider } from './components/confirm';
import { Shell, Welcome } from './components/layout';
import { Loading, ProblemAlert } from './components/ui';
import { I18nProvider, useT } from './lib/i18n';
import { matchPath, RouterProvider, useRouter } from './lib/router';
import { SessionProvider, useSession } from './lib/session';
import { AccountPage } from './pages/account-page';
import { BulkSendPage } from './pages/bulk-send-page';
import { ContractPage } from './pages/contract-page';
import { ContractsPage } from './pages/contracts-page';
import { NotFoundPage, ForbiddenPage } from './pages/not-found-page';
import { OfficeDetailsPage } from './pages/office-details-page';
import { OutboxPage } from './pages/outbox-page';
import { SettingsPage } from './pages/settings-page';
import { SetupPage } from './pages/setup-page';
import { SignInPage } from './pages/sign-in-page';
import { TemplatePage } from './pages/template-page';
import { TemplatesPage } from './pages/templates-page';
import { TokensPage } from './pages/tokens-page';
import { UsersPage } from './pages/users-page';
import { WebhookPage } from './pages/webhook-page';
import { WebhooksPage } from './pages/webhooks-page';

type Route = { pattern: string; isAdminOnly?: boolean; render: (params: Record<string, string>) => React.ReactNode };

const ROUTES: Route[] = [
  { pattern: '/contracts', render: () => <ContractsPage /> },
  { pattern: '/contracts/:id', render: (p) => <ContractPage id={p.id ?? ''} /> },
  { pattern: '/templates', render: () => <TemplatesPage /> },
  { pattern: '/templates/:id', render: (p) => <TemplatePage id={p.id ?? ''} /> },
  { pattern: '/templates/:id/bulk', render: (p) => <BulkSendPage id={p.id ?? ''} /> },
  { pattern: '/users', isAdminOnly: true, render: () => <UsersPage /> },
  { pattern: '/tokens', isAdminOnly: true, render: () => <TokensPage /> },
  { pattern: '/webhooks', isAdminOnly: true, render: () => <WebhooksPage /> },
  { pattern: '/webhooks/:id', isAdminOnly: true, render: (p) => <WebhookPage id={p.id ?? ''} /> },
  { pattern: '/outbox', isAdminOnly: true, render: () => <OutboxPage /> },
  { pattern: '/settings', isAdminOnly: true, render: () => <SettingsPage /> },
  { pattern: '/account', render: () => <AccountPage /> },
];

function Routes({ isAdmin }: { isAdmin: boolean }) {
  const { path, navigate } = useRouter();
  useEffect(() => {
    if (path === '/' || path === '') navigate('/contracts', { replace: true });
  }, [path, navigate]);
  for (const route of ROUTES) {
    const params = matchPath(route.pattern, path);
    if (!params) continue;
    if (route.isAdminOnly && !isAdmin) return <ForbiddenPage />;
    return <>{route.render(params)}</>;
  }
  return path === '/' ? null : <NotFoundPage />;
}

function Gate() {
  const t = useT();
  const { session, setup, isBooting, bootError } = useSession();
  useEffect(() => {
    document.title = session?.office.name ? `SignDesk · ${session.office.name}` : 'SignDesk';
  }, [session]);
  if (isBooting) {
    return (
      <Welcome>
        <Loading label={t('state.starting')} />
      </Welcome>
    );
  }
  if (bootError) {
    return (
      <Welcome>
        <ProblemAlert error={bootError} />
      </Welcome>
    );
  }
  if (setup?.needs_setup) return <SetupPage />;
  if (!session) return <SignInPage />;
  if (session.is_admin && !session.office.is_set_up) return <OfficeDetailsPage />;
  return (
    <Shell>
      <Routes isAdmin={session.is_admin} />
    </Shell>
  );
}

export function App() {
  return (
    <I18nProvider>
      <RouterProvider>
        <SessionProvider>
          <ConfirmProvider>
            <Gate />
          </ConfirmProvider>
        </SessionProvider>
      </RouterProvider>
    </I18nProvider>
  );
}
