import { z } from 'zod';
import { PERMISSION_TEMPLATES } from './enums';
import { SECRET_MASK } from './messaging-settings';

export const SSO_USER_MODES = ['create', 'existing'] as const;

const ZClaimMappingSchema = z
  .strictObject({
    value: z
      .string()
      .min(1)
      .max(200)
      .meta({ description: 'A value of the claim, e.g. a group name', example: 'signdesk-admins' }),
    permission_template: z.enum(PERMISSION_TEMPLATES),
  })
  .meta({ id: 'SsoClaimMapping' });

const fields = {
  is_enabled: z.boolean().meta({ description: 'The sign-in page offers single sign-on' }),
  provider_name: z
    .string()
    .max(100)
    .meta({ description: 'Shown on the sign-in button: "Sign in with <provider_name>"', example: 'Entra ID' }),
  issuer_url: z
    .url({ protocol: /^https?$/ })
    .max(1_000)
    .nullable()
    .meta({
      description: "The OpenID provider's issuer; its discovery document is read from it",
      example: 'https://login.example.com/office',
    }),
  client_id: z.string().min(1).max(500).nullable(),
  claim: z
    .string()
    .min(1)
    .max(100)
    .meta({ description: 'The ID token claim whose values decide access (a string or a list)', example: 'groups' }),
  claim_mapping: z
    .array(ZClaimMappingSchema)
    .max(100)
    .meta({ description: 'Claim values to permission templates; the first row the user holds wins; none: no access' }),
  user_mode: z.enum(SSO_USER_MODES).meta({
    description:
      'create: a user is made at the first sign-in (username and e-mail from the e-mail claim); existing: the e-mail claim must name an existing user',
  }),
  is_password_sign_in_off: z
    .boolean()
    .meta({ description: 'Password sign-in is refused for everyone except the break-glass administrator' }),
  break_glass_username: z
    .string()
    .max(1_000)
    .nullable()
    .meta({ description: 'The one administrator who may still sign in with a password', example: 'admin' }),
};

export const ZSsoSettingsSchema = z
  .object({
    ...fields,
    client_secret: z
      .string()
      .nullable()
      .meta({ description: `${SECRET_MASK} when a secret is saved (it is never shown), else null` }),
  })
  .meta({ id: 'SsoSettings' });

export const ZSsoSettingsUpdateSchema = z
  .strictObject({
    ...fields,
    client_secret: z
      .string()
      .min(1)
      .max(1_000)
      .nullable()
      .optional()
      .meta({
        description: `The client secret; leave it out (or send ${SECRET_MASK}) to keep the saved one, null to remove it`,
      }),
  })
  .partial()
  .meta({ id: 'SsoSettingsUpdate' });

export const ZSsoStatusSchema = z
  .object({
    is_enabled: z.boolean().meta({ description: 'The sign-in page offers single sign-on' }),
    provider_name: z.string(),
    is_password_sign_in_off: z.boolean(),
  })
  .meta({ id: 'SsoStatus' });

export const ZSsoStartSchema = z
  .object({
    authorization_url: z
      .string()
      .meta({ description: 'Send the browser there; the provider comes back to redirect_uri' }),
  })
  .meta({ id: 'SsoStart' });

export const ZSsoCallbackSchema = z
  .strictObject({
    callback_url: z
      .url({ protocol: /^https?$/ })
      .max(8_000)
      .meta({ description: 'The whole URL the provider sent the browser back to (code, state, iss)' }),
  })
  .meta({ id: 'SsoCallback' });

/** The admin UI's page the provider sends the browser back to. */
export const SSO_CALLBACK_PATH = '/admin/sso-callback';

export type TSsoSettings = z.infer<typeof ZSsoSettingsSchema>;
export type TSsoSettingsUpdate = z.infer<typeof ZSsoSettingsUpdateSchema>;
export type TSsoStatus = z.infer<typeof ZSsoStatusSchema>;
export type TSsoClaimMapping = z.infer<typeof ZClaimMappingSchema>;
