import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../constants';
import { PERMISSION_TEMPLATES } from './enums';
import { shortText, ZTimestampSchema } from './common';

/** The admin UI's session header: writes made with the session cookie must carry it. */
export const CSRF_HEADER = 'X-SignDesk-CSRF';

export const ZOfficeSummarySchema = z
  .object({
    name: z.string(),
    email: z.string(),
    is_set_up: z.boolean().meta({ description: 'The office name and e-mail have been given' }),
    time_zone: z
      .string()
      .meta({ description: "The office's time zone: every time shown is in it", example: 'Europe/Stockholm' }),
  })
  .meta({ id: 'OfficeSummary' });

export const ZSessionSchema = z
  .object({
    user: z.object({
      self: z.string(),
      username: z.string(),
      firstname: z.string(),
      lastname: z.string(),
      email: z.string(),
      permission_template: z.enum(PERMISSION_TEMPLATES),
    }),
    is_admin: z.boolean(),
    csrf_token: z
      .string()
      .meta({ description: `Send it as ${CSRF_HEADER} on every POST, PUT and DELETE made with the session` }),
    created_time: ZTimestampSchema,
    idle_expire_time: ZTimestampSchema.meta({ description: 'The session ends when unused until then' }),
    expire_time: ZTimestampSchema.meta({ description: 'The session ends then at the latest' }),
    office: ZOfficeSummarySchema,
    channels: z
      .object({
        email: z.boolean().meta({ description: 'An SMTP server is configured: e-mail goes out' }),
        sms: z
          .boolean()
          .meta({ description: 'An SMS gateway is configured: SMS go out (else they wait in the outbox)' }),
      })
      .meta({ description: 'Which ways of sending messages work now' }),
  })
  .meta({ id: 'AdminSession' });

export const ZSignInSchema = z
  .strictObject({
    username: z.string().min(1).max(1_000),
    password: z.string().min(1).max(1_000),
  })
  .meta({ id: 'AdminSignIn' });

export const ZSetupStatusSchema = z
  .object({
    needs_setup: z.boolean().meta({ description: 'No administrator exists yet: the first-run setup is open' }),
    office_name: z.string(),
  })
  .meta({ id: 'SetupStatus' });

export const ZSetupSchema = z
  .strictObject({
    office_name: shortText().min(1),
    office_email: z.email().max(1_000),
    username: z
      .string()
      .min(1)
      .max(1_000)
      .regex(/^[^\s]+$/, 'must not contain spaces'),
    password: z.string().min(MIN_PASSWORD_LENGTH).max(1_000),
    email: z.email().max(1_000),
    firstname: shortText().optional(),
    lastname: shortText().optional(),
  })
  .meta({ id: 'FirstRunSetup' });

export type TSession = z.infer<typeof ZSessionSchema>;
export type TSignIn = z.infer<typeof ZSignInSchema>;
export type TSetupStatus = z.infer<typeof ZSetupStatusSchema>;
export type TSetup = z.infer<typeof ZSetupSchema>;
