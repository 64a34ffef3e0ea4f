import type { PermissionTemplate } from '../../shared/api/enums';
import type { AppContext } from '../context/app-context';
import { AppError, forbidden } from '../core/errors';
import type { UserRow } from '../db/repos/users';
import { fingerprintOf, logOfficeEvent } from '../activity/office-log';
import { createUser } from '../users/create-user';
import type { SsoSettings } from '../sessions/sso-settings';

export type SsoClaims = Record<string, unknown>;

/** The values of a claim as strings: a single value or a list (groups, roles). */
function claimValues(claims: SsoClaims, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((each): each is string => typeof each === 'string');
  return [];
}

/** The permission the office's map gives these claims: the first row whose value the user holds. */
export function mappedTemplate(settings: SsoSettings, claims: SsoClaims): PermissionTemplate | undefined {
  const held = new Set(claimValues(claims, settings.claim));
  return settings.claimMapping.find((row) => held.has(row.value))?.permission_template;
}

const name = (value: unknown): string => (typeof value === 'string' ? value.slice(0, 100) : '');

/**
 * The SignDesk user the provider vouched for, found by the e-mail claim (without case). A
 * claim value the map does not name gets no access, even for an existing user, so removing
 * someone from the provider's group locks them out here too. An office that makes users on
 * first sign-in gets one with the e-mail as its username, the mapped permission and no
 * password, recorded in the office log.
 */
export async function userForClaims(ctx: AppContext, settings: SsoSettings, claims: SsoClaims): Promise<UserRow> {
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (email === '' || !email.includes('@')) {
    throw forbidden('The sign-in provider sent no e-mail address; ask its administrator to release the e-mail claim.');
  }
  if (claims.email_verified === false) {
    throw forbidden('The sign-in provider says this e-mail address is not verified; no access.');
  }
  const template = mappedTemplate(settings, claims);
  if (template === undefined) {
    throw forbidden(
      `Your account at the sign-in provider has no ${settings.claim} value this office has given access to SignDesk; ask your administrator.`,
    );
  }
  const found = await ctx.repos.users.listByEmail(email);
  if (found.length > 1) {
    throw new AppError(
      'conflict',
      'Several SignDesk users have this e-mail address; an administrator must make it unique.',
    );
  }
  const [existing] = found;
  if (existing) {
    if (!existing.active) throw forbidden('Your SignDesk account is not active; ask your administrator.');
    return existing;
  }
  if (settings.userMode === 'existing') {
    throw forbidden(
      'No SignDesk user has this e-mail address, and this office does not make users at sign-in; ask your administrator.',
    );
  }
  const username = email.toLowerCase();
  if (await ctx.repos.users.findByUsername(username)) {
    throw new AppError(
      'conflict',
      `The username ${username} is taken by a user with another e-mail address; ask your administrator.`,
    );
  }
  const user = await createUser(ctx, {
    username,
    email,
    firstname: name(claims.given_name),
    lastname: name(claims.family_name),
    permission_template: template,
  });
  await logOfficeEvent(ctx, {
    event: 'sso.user_created',
    subject: `/api/users/${user.id}`,
    userId: user.id,
    details: {
      permission_template: template,
      email_sha256: fingerprintOf(email),
      issuer: settings.issuerUrl ?? '',
    },
  });
  return user;
}
