import type { TSsoClaimMapping } from '../../shared/api/sso';
import type { ReadContext } from '../context/read-context';
import { AppError } from '../core/errors';

/** The settings table's keys: the settings as one JSON value, the client secret sealed on its own. */
export const SSO_SETTINGS_KEY = 'sso.settings';
export const SSO_SECRET_KEY = 'sso.client_secret';
/** The seal's purpose (associated data): a secret sealed for another setting does not open here. */
export const SSO_SECRET_PURPOSE = 'setting:sso.client_secret';

export type SsoSettings = {
  isEnabled: boolean;
  providerName: string;
  issuerUrl: string | null;
  clientId: string | null;
  /** Undefined when none is saved, or it is sealed under another installation's key. */
  clientSecret: string | undefined;
  claim: string;
  claimMapping: TSsoClaimMapping[];
  userMode: 'create' | 'existing';
  isPasswordSignInOff: boolean;
  breakGlassUsername: string | null;
};

export type StoredSsoSettings = Omit<SsoSettings, 'clientSecret'>;

export const SSO_DEFAULTS: StoredSsoSettings = {
  isEnabled: false,
  providerName: '',
  issuerUrl: null,
  clientId: null,
  claim: 'groups',
  claimMapping: [],
  userMode: 'existing',
  isPasswordSignInOff: false,
  breakGlassUsername: null,
};

export async function readSsoSettings(ctx: Pick<ReadContext, 'repos' | 'secret'>): Promise<SsoSettings> {
  const saved = await ctx.repos.settings.getMany([SSO_SETTINGS_KEY, SSO_SECRET_KEY]);
  const json = saved.get(SSO_SETTINGS_KEY);
  const stored = json === undefined ? {} : (JSON.parse(json) as Partial<StoredSsoSettings>);
  const sealed = saved.get(SSO_SECRET_KEY);
  return {
    ...SSO_DEFAULTS,
    ...stored,
    clientSecret: sealed === undefined ? undefined : ctx.secret.open(SSO_SECRET_PURPOSE, sealed),
  };
}

/** Whether the sign-in page offers single sign-on: turned on and complete. */
export const isSsoReady = (settings: SsoSettings): boolean =>
  settings.isEnabled && settings.issuerUrl !== null && settings.clientId !== null;

/**
 * Refuses a password sign-in while the office has turned password sign-in off, except for the
 * break-glass administrator. Decided on the username alone, before the password is checked,
 * so the answer says nothing about the password and costs no scrypt.
 */
export async function assertPasswordSignInAllowed(
  ctx: Pick<ReadContext, 'repos' | 'secret'>,
  username: string,
): Promise<void> {
  const settings = await readSsoSettings(ctx);
  if (!settings.isPasswordSignInOff || !isSsoReady(settings)) return;
  if (settings.breakGlassUsername !== null && username === settings.breakGlassUsername) return;
  throw new AppError(
    'forbidden',
    `Password sign-in is turned off for this office; sign in with ${settings.providerName || 'single sign-on'}.`,
  );
}
