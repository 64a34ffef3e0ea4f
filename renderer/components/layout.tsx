import { type ReactNode } from 'react';
import { LANGUAGES, useI18n, type Language } from '../lib/i18n';
import type { MessageKey } from '../i18n/en';
import type { TBackupSchedule } from '../../shared/api/backup';
import type { TStorage } from '../../shared/api/storage';
import { formatDiskSpace } from '../../shared/sizes';
import type { TWebhookConsumer } from '../../shared/api/webhooks';
import type { TTimestampSettings } from '../../shared/api/timestamps';
import { getJson, getPage } from '../lib/api';
import { Notice } from './ui';
import { PlanBanner } from './plan-banner';
import { Link, useRouter } from '../lib/router';
import { useSession, useSignedIn } from '../lib/session';
import { useLoad } from '../lib/use-load';

type NavItem = { to: string; label: MessageKey; isAdminOnly?: boolean };

const NAV: NavItem[] = [
  { to: '/contracts', label: 'nav.contracts' },
  { to: '/templates', label: 'nav.templates' },
  { to: '/users', label: 'nav.users', isAdminOnly: true },
  { to: '/tokens', label: 'nav.tokens', isAdminOnly: true },
  { to: '/webhooks', label: 'nav.webhooks', isAdminOnly: true },
  { to: '/outbox', label: 'nav.outbox', isAdminOnly: true },
  { to: '/settings', label: 'nav.settings', isAdminOnly: true },
];

export function LanguageSelect({ className = '' }: { className?: string }) {
  const { language, setLanguage, t } = useI18n();
  return (
    <label className={`language-select ${className}`}>
      <span className="visually-hidden">{t('language.label')}</span>
      <select
        value={language}
        onChange={(event) => setLanguage(event.target.value as Language)}
        aria-label={t('language.label')}
      >
        {LANGUAGES.map((option) => (
          <option key={option.code} value={option.code}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export function Logo() {
  return (
    <span className="logo">
      <span className="logo-mark" aria-hidden="true">
        <svg viewBox="0 0 24 24" width="20" height="20" focusable="false">
          <path
            d="M4 17.5c3-1 4.5-6 6.5-6s1 4.5 3 4.5 2.5-3 4-3 1.5 2 2.5 2"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
          <path d="M4 21h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </span>
      <span className="logo-text">SignDesk</span>
    </span>
  );
}

/** The signed-in frame: navigation, office, user and language; the page in the middle. */
export function Shell({ children }: { children: ReactNode }) {
  const { t, language } = useI18n();
  const session = useSignedIn();
  const { signOut } = useSession();
  const { path } = useRouter();
  const items = NAV.filter((item) => !item.isAdminOnly || session.is_admin);
  // A disabled webhook consumer is marked wherever the admin is, not only on its own page.
  const consumers = useLoad(
    (signal) =>
      session.is_admin ? getPage<TWebhookConsumer>('/api/webhooks?per_page=100', signal) : Promise.resolve(undefined),
    [session.is_admin],
    { pollMs: 15_000 },
  );
  // A PC clock off the authority's makes every time recorded now wrong: said on every page at once.
  const timestamps = useLoad(
    (signal) =>
      session.is_admin ? getJson<TTimestampSettings>('/api/settings/timestamps', signal) : Promise.resolve(undefined),
    [session.is_admin],
    { pollMs: 60_000 },
  );
  const clock = timestamps.data;
  // A restored copy says so on every page until an admin confirms it (its backups wait meanwhile).
  const backups = useLoad(
    (signal) =>
      session.is_admin ? getJson<TBackupSchedule>('/api/settings/backup_schedule', signal) : Promise.resolve(undefined),
    [session.is_admin],
    { pollMs: 60_000 },
  );
  const restoredCopy = backups.data?.restored_copy ?? null;
  // A filling disk is said on every page before it is full (when nothing new can be saved).
  const storage = useLoad(
    (signal) => (session.is_admin ? getJson<TStorage>('/api/settings/storage', signal) : Promise.resolve(undefined)),
    [session.is_admin],
    { pollMs: 60_000 },
  );
  const lowDisk = storage.data?.is_low ? storage.data : undefined;
  const lowDiskText = lowDisk && t('storage.lowBanner', { free: formatDiskSpace(lowDisk.free_bytes, language) });
  const disabledCount = consumers.data?.items.filter((consumer) => consumer.disabled_time !== null).length ?? 0;
  const displayName =
    [session.user.firstname, session.user.lastname].filter(Boolean).join(' ') || session.user.username;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <aside className="sidebar">
        <div className="sidebar-brand">
          <Logo />
          {session.office.name ? <span className="sidebar-office">{session.office.name}</span> : null}
        </div>
        <nav aria-label={t('nav.label')} className="sidebar-nav">
          <ul>
            {items.map((item) => {
              const isCurrent = path === item.to || path.startsWith(`${item.to}/`);
              return (
                <li key={item.to}>
                  <Link
                    to={item.to}
                    className={`nav-link ${isCurrent ? 'nav-link-current' : ''}`}
                    aria-current={isCurrent ? 'page' : undefined}
                  >
                    <span className={`nav-icon nav-icon-${item.to.slice(1)}`} aria-hidden="true" />
                    {t(item.label)}
                    {item.to === '/webhooks' && disabledCount > 0 ? (
                      <span className="nav-badge" data-testid="disabled-webhooks-badge">
                        <span aria-hidden="true">{disabledCount}</span>
                        <span className="visually-hidden">
                          {t('webhooks.navDisabled', { n: String(disabledCount) })}
                        </span>
                      </span>
                    ) : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="sidebar-footer">
          {/* The integrators' reference, served by this same server. */}
          <a className="nav-link sidebar-docs-link" href="/apidoc/v1/" target="_blank" rel="noopener">
            <span className="nav-icon" aria-hidden="true" />
            {t('nav.apiDocs')}
            <span className="visually-hidden"> {t('nav.newWindow')}</span>
            <span className="external-mark" aria-hidden="true">
              ↗
            </span>
          </a>
          <div className="sidebar-user">
            <span className="avatar" aria-hidden="true">
              {displayName.slice(0, 1).toUpperCase()}
            </span>
            <span className="sidebar-user-text">
              <span className="sidebar-user-name">{displayName}</span>
              <span className="sidebar-user-role">{session.is_admin ? t('role.admin') : t('role.user')}</span>
              {/* Every user's own page (two-factor sign-in): beside their name, not among the office's pages. */}
              <Link
                to="/account"
                className="sidebar-account-link"
                aria-current={path === '/account' ? 'page' : undefined}
              >
                {t('nav.account')}
              </Link>
            </span>
          </div>
          <div className="sidebar-controls">
            <LanguageSelect />
            <button
              type="button"
              className="button button-ghost button-small sidebar-signout"
              onClick={() => void signOut()}
            >
              {t('action.signOut')}
            </button>
          </div>
        </div>
      </aside>
      <main id="main" className="main" tabIndex={-1}>
        {clock?.is_clock_off ? (
          <div data-testid="clock-off" className="clock-off-notice">
            <Notice tone="warning">
              {t('clock.offBanner', {
                seconds: String(Math.abs(clock.last_clock_offset_seconds ?? 0)),
                time: clock.last_timestamp_time ?? '',
              })}{' '}
              <Link to="/settings">{t('clock.offLink')}</Link>
            </Notice>
          </div>
        ) : null}
        {lowDisk ? (
          <div data-testid="low-disk-banner">
            <Notice tone="warning" title={t('storage.lowTitle')}>
              {path === '/settings' ? lowDiskText : <Link to="/settings">{lowDiskText}</Link>}
            </Notice>
          </div>
        ) : null}
        <PlanBanner isAdmin={session.is_admin} path={path} />
        {restoredCopy && path !== '/settings' ? (
          <div data-testid="restored-copy-banner">
            <Notice tone="warning" title={t('backup.restoredCopyTitle')}>
              <Link to="/settings">{t('backup.restoredCopyBanner', { restored: restoredCopy.restored_time })}</Link>
            </Notice>
          </div>
        ) : null}
        {children}
      </main>
    </div>
  );
}

/** The frame of the pages before sign-in: a centred card. */
export function Welcome({ children }: { children: ReactNode }) {
  return (
    <div className="welcome">
      <div className="welcome-top">
        <Logo />
        <LanguageSelect />
      </div>
      <main id="main" className="welcome-main">
        {children}
      </main>
    </div>
  );
}
