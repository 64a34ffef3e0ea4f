import { SECRET_MASK } from '../../shared/api/messaging-settings';
import type { TSsoSettings, TSsoSettingsUpdate } from '../../shared/api/sso';
import type { AppContext } from '../context/app-context';
import type { ReadContext } from '../context/read-context';
import { validationFailed } from '../core/errors';
import { inTransaction } from '../db/open-database';
import { logOfficeEvent } from '../activity/office-log';
import { isAdminTemplate } from '../policies/actors';
import {
  readSsoSettings,
  SSO_SECRET_KEY,
  SSO_SECRET_PURPOSE,
  SSO_SETTINGS_KEY,
  type SsoSettings,
  type StoredSsoSettings,
} from '../sessions/sso-settings';
import { isIssuerSchemeAllowed } from './sso-client';

export function presentSsoSettings(settings: SsoSettings): TSsoSettings {
  return {
    is_enabled: settings.isEnabled,
    provider_name: settings.providerName,
    issuer_url: settings.issuerUrl,
    client_id: settings.clientId,
    client_secret: settings.clientSecret === undefined ? null : SECRET_MASK,
    claim: settings.claim,
    claim_mapping: settings.claimMapping,
    user_mode: settings.userMode,
    is_password_sign_in_off: settings.isPasswordSignInOff,
    break_glass_username: settings.breakGlassUsername,
  };
}

export const readSsoSettingsView = async (ctx: ReadContext): Promise<TSsoSettings> =>
  presentSsoSettings(await readSsoSettings(ctx));

const BODY_FIELDS = {
  is_enabled: 'isEnabled',
  provider_name: 'providerName',
  issuer_url: 'issuerUrl',
  client_id: 'clientId',
  claim: 'claim',
  claim_mapping: 'claimMapping',
  user_mode: 'userMode',
  is_password_sign_in_off: 'isPasswordSignInOff',
  break_glass_username: 'breakGlassUsername',
} as const satisfies Record<Exclude<keyof TSsoSettingsUpdate, 'client_secret'>, keyof StoredSsoSettings>;

async function checkSettings(ctx: AppContext, next: StoredSsoSettings): Promise<string[]> {
  const errors: string[] = [];
  if (next.issuerUrl !== null) {
    const issuer = new URL(next.issuerUrl);
    if (!isIssuerSchemeAllowed(issuer)) errors.push('issuer_url: must be https (plain http only on this machine)');
    const refusal = ctx.outbound.checkUrl(next.issuerUrl);
    if (refusal) errors.push(`issuer_url: ${refusal}`);
  }
  if (next.isEnabled && (next.issuerUrl === null || next.clientId === null)) {
    errors.push('is_enabled: single sign-on needs issuer_url and client_id');
  }
  if (next.isPasswordSignInOff) {
    const breakGlass =
      next.breakGlassUsername === null ? undefined : await ctx.repos.users.findByUsername(next.breakGlassUsername);
    if (!breakGlass || !breakGlass.active || !isAdminTemplate(breakGlass.permissionTemplate)) {
      errors.push('break_glass_username: turning password sign-in off needs an active administrator who keeps it');
    }
    if (!next.isEnabled) errors.push('is_password_sign_in_off: turn single sign-on on first');
  }
  return errors;
}

/**
 * Saves the single sign-on settings: the plain ones as one JSON value, the client secret
 * sealed under the app secret (as the SMTP password is). The office log records which fields
 * changed, never the secret.
 */
export async function updateSsoSettings(
  ctx: AppContext,
  body: TSsoSettingsUpdate,
  userId: number,
): Promise<TSsoSettings> {
  const before = await readSsoSettings(ctx);
  const { clientSecret: _secret, ...stored } = before;
  const next: StoredSsoSettings = { ...stored };
  const changed: string[] = [];
  for (const [field, key] of Object.entries(BODY_FIELDS) as Array<
    [keyof typeof BODY_FIELDS, keyof StoredSsoSettings]
  >) {
    const value = body[field];
    if (value === undefined) continue;
    if (JSON.stringify(value) !== JSON.stringify(next[key])) changed.push(field);
    (next as Record<string, unknown>)[key] = value;
  }
  const secret = body.client_secret;
  const isSecretChanged = secret !== undefined && secret !== SECRET_MASK && secret !== before.clientSecret;
  if (isSecretChanged) changed.push('client_secret');
  const errors = await checkSettings(ctx, next);
  if (errors.length > 0) throw validationFailed(errors);
  if (changed.length === 0) return presentSsoSettings(before);
  await inTransaction(ctx.db, async () => {
    const now = ctx.now();
    await ctx.repos.settings.set(SSO_SETTINGS_KEY, JSON.stringify(next), now);
    if (isSecretChanged) {
      await ctx.repos.settings.write(
        SSO_SECRET_KEY,
        secret === null ? null : ctx.secret.seal(SSO_SECRET_PURPOSE, secret),
        now,
      );
    }
    await logOfficeEvent(ctx, {
      event: 'sso.settings_changed',
      subject: '/api/settings/sso',
      userId,
      details: {
        fields: changed.join(','),
        enabled: next.isEnabled,
        password_sign_in: next.isPasswordSignInOff ? 'off' : 'on',
      },
    });
  });
  return presentSsoSettings(await readSsoSettings(ctx));
}
