import { details as enDetails, events as enEvents } from './i18n/catalogues/en.json';
import { details as svDetails, events as svEvents } from './i18n/catalogues/sv.json';

type Labels = { en: string; sv: string };

/** The office log's own entries (users, keys, settings, the seal certificate): the admin UI's alone. */
const OFFICE_EVENTS: Record<string, Labels> = {
  'user.created': { en: 'User created', sv: 'Användare skapad' },
  'user.changed': { en: 'User changed', sv: 'Användare ändrad' },
  'user.deleted': { en: 'User deleted', sv: 'Användare borttagen' },
  'token.created': { en: 'API key created', sv: 'API-nyckel skapad' },
  'token.revoked': { en: 'API key revoked', sv: 'API-nyckel återkallad' },
  'second_factor.enrolled': { en: 'Authenticator app set up', sv: 'Autentiseringsapp konfigurerad' },
  'second_factor.removed': { en: 'Authenticator app turned off', sv: 'Autentiseringsapp avstängd' },
  'second_factor.reset': { en: 'Second factor reset', sv: 'Andra faktor återställd' },
  'second_factor.recovery_code_used': { en: 'Recovery code used', sv: 'Återställningskod använd' },
  'settings.changed': { en: 'Settings changed', sv: 'Inställningar ändrade' },
  'seal_certificate.changed': { en: 'Seal certificate changed', sv: 'Sigillcertifikat bytt' },
  'seal_certificate.renewed': { en: 'Seal certificate renewed', sv: 'Sigillcertifikat förnyat' },
  'subscription.changed': { en: 'Subscription changed', sv: 'Abonnemang ändrat' },
  'webhook.created': { en: 'Webhook created', sv: 'Webhook skapad' },
  'webhook.changed': { en: 'Webhook changed', sv: 'Webhook ändrad' },
  'webhook.deleted': { en: 'Webhook deleted', sv: 'Webhook borttagen' },
  'contract.deleted': { en: 'Draft contract deleted', sv: 'Utkast till avtal borttaget' },
  'sso.settings_changed': { en: 'Single sign-on settings changed', sv: 'Inställningar för enkel inloggning ändrade' },
  'sso.user_created': { en: 'User created at single sign-on', sv: 'Användare skapad vid enkel inloggning' },
  'identities.recorded': {
    en: 'E-mail addresses and webhook keys recorded',
    sv: 'E-postadresser och webhooknycklar registrerade',
  },
};

const pair = (en: Record<string, string>, sv: Record<string, string>): Record<string, Labels> =>
  Object.fromEntries(Object.keys(en).map((key) => [key, { en: en[key]!, sv: sv[key] ?? en[key]! }]));

/**
 * The one table of activity-log events and their readable names in the admin UI's languages:
 * a contract's events from the parties' catalogues (`events`, the names the sealed audit page
 * prints in every language), the office log's own here. The admin UI's activity card reads it.
 * A new kind of event needs its line in the catalogues; an event missing shows as its code.
 */
export const ACTIVITY_EVENTS: Record<string, Labels> = { ...pair(enEvents, svEvents), ...OFFICE_EVENTS };

/** The readable name of an event in the language, or undefined for an event the table does not know. */
export function activityEventLabel(event: string, language: string): string | undefined {
  return Object.hasOwn(ACTIVITY_EVENTS, event) ? ACTIVITY_EVENTS[event]![language === 'sv' ? 'sv' : 'en'] : undefined;
}

/** The readable names of the details entries carry (keys of ApiActivityLogEntry.details), from the catalogues. */
export const ACTIVITY_DETAILS: Record<string, Labels> = pair(enDetails, svDetails);

export function activityDetailLabel(key: string, language: string): string {
  return Object.hasOwn(ACTIVITY_DETAILS, key) ? ACTIVITY_DETAILS[key]![language === 'sv' ? 'sv' : 'en'] : key;
}
