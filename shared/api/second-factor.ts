import { z } from 'zod';
import { ZSessionSchema } from './session';
import { ZTimestampSchema } from './common';

/** Two-factor sign-in with an authenticator app (TOTP): the pending step, enrolment, the office's rule. */

const code = z
  .string()
  .min(1)
  .max(100)
  .meta({ description: 'The six digits the authenticator app shows now, or one of the recovery codes' });
const pendingToken = z.string().min(1).max(1_000).meta({ description: 'The pending_token of the sign-in' });

export const ZSignInPendingSchema = z
  .object({
    second_factor: z.enum(['totp', 'enrol']).meta({
      description:
        'totp: send a code to POST /api/session/second-factor. enrol: the office requires two factors; set up an authenticator app with POST /api/session/enrolment first',
    }),
    pending_token: z.string().meta({ description: 'Names this sign-in in the next step; no session by itself' }),
    expire_time: ZTimestampSchema.meta({ description: 'Sign in with the password again after this' }),
  })
  .meta({ id: 'AdminSignInPending' });

export const ZSecondFactorSchema = z
  .strictObject({ pending_token: pendingToken, code })
  .meta({ id: 'AdminSecondFactor' });

export const ZPendingEnrolmentSchema = z
  .strictObject({ pending_token: pendingToken })
  .meta({ id: 'AdminPendingEnrolment' });

export const ZTotpEnrolmentSchema = z
  .object({
    secret: z.string().meta({ description: 'The shared secret in base32, for typing into an app that cannot scan' }),
    otpauth_uri: z.string().meta({ example: 'otpauth://totp/Office%20AB:admin?secret=…&issuer=Office%20AB' }),
    qr_code_svg: z.string().meta({ description: 'The otpauth URI as a QR code, an SVG document' }),
  })
  .meta({ id: 'TotpEnrolment' });

export const ZTotpConfirmSchema = z.strictObject({ code }).meta({ id: 'TotpConfirm' });

export const ZRecoveryCodesSchema = z
  .object({
    recovery_codes: z
      .array(z.string())
      .meta({ description: 'Ten one-time codes, each good for one sign-in without the app. Shown this once' }),
  })
  .meta({ id: 'RecoveryCodes' });

export const ZEnrolledSessionSchema = ZSessionSchema.extend(ZRecoveryCodesSchema.shape).meta({
  id: 'AdminEnrolledSession',
});

export const ZTotpStatusSchema = z
  .object({
    is_enabled: z.boolean().meta({ description: 'An authenticator app is set up and confirmed' }),
    enabled_time: ZTimestampSchema.nullable(),
    recovery_codes_left: z.number().int(),
    is_required: z.boolean().meta({ description: 'The office requires two factors of everyone' }),
  })
  .meta({ id: 'TotpStatus' });

export const ZTotpRemoveSchema = z
  .strictObject({
    code: code.optional(),
    password: z.string().min(1).max(1_000).optional(),
  })
  .refine((value) => value.code !== undefined || value.password !== undefined, 'give a code or the password')
  .meta({ id: 'TotpRemove' });

export const ZSignInSettingsSchema = z
  .object({
    require_two_factors: z.boolean().meta({
      description: 'Every staff user signs in with a second factor; those without one set it up at their next sign-in',
    }),
  })
  .meta({ id: 'SignInSettings' });

export const ZSignInSettingsUpdateSchema = z
  .strictObject({ require_two_factors: z.boolean() })
  .meta({ id: 'SignInSettingsUpdate' });

export type TSignInPending = z.infer<typeof ZSignInPendingSchema>;
export type TTotpEnrolment = z.infer<typeof ZTotpEnrolmentSchema>;
export type TTotpStatus = z.infer<typeof ZTotpStatusSchema>;
export type TEnrolledSession = z.infer<typeof ZEnrolledSessionSchema>;
export type TSignInSettings = z.infer<typeof ZSignInSettingsSchema>;
export type TRecoveryCodes = z.infer<typeof ZRecoveryCodesSchema>;
