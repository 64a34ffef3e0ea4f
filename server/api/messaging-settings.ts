import {
  MESSAGING_SETTINGS_READ_ONLY_FIELDS,
  ZMessagingSettingsSchema,
  ZMessagingSettingsUpdateSchema,
  ZMessagingTestResultSchema,
  ZMessagingTestSchema,
  type TMessagingTestResult,
} from '../../shared/api/messaging-settings';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { presentMessagingSettings, readMessagingSettings } from '../messages/messaging-settings';
import { sendTestMail } from '../messages/send-test-mail';
import { updateMessagingSettings } from '../settings/update-messaging-settings';
import { presentOutboxMessage } from './outbox';

const tag = 'Settings';

export const messagingSettingsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/settings/messaging',
    operationId: 'getMessagingSettings',
    summary: 'Get the mail and SMS settings in force',
    description:
      'Saved values win over the environment (SMTP_URL, MAIL_FROM, SMS_GATEWAY_URL). Passwords in URLs are shown as ********.',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The settings', schema: ZMessagingSettingsSchema } },
    handler: async ({ res, ctx }) => {
      sendJson(res, 200, presentMessagingSettings(await readMessagingSettings(ctx)));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/messaging',
    operationId: 'updateMessagingSettings',
    summary: 'Change the mail and SMS settings; only the fields sent change',
    description:
      'null removes a saved value (the environment value applies again). A URL sent back with the password ******** keeps the saved password. Messages waiting for a channel are sent once it is configured.',
    tag,
    access: 'admin',
    body: ZMessagingSettingsUpdateSchema,
    readOnlyFields: MESSAGING_SETTINGS_READ_ONLY_FIELDS,
    example: {
      body: {
        smtp_url: 'smtps://signdesk:secret@mail.office.example:465',
        mail_from: 'Office AB <office@office.example>',
      },
    },
    responses: { 200: { description: 'The settings', schema: ZMessagingSettingsSchema } },
    handler: async ({ res, body, act }) => {
      sendJson(res, 200, presentMessagingSettings(await act(updateMessagingSettings, body)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/messaging/test',
    operationId: 'testMessagingSettings',
    summary: 'Send a test e-mail now and answer with what the SMTP server said',
    description:
      'Through `smtp_url` and `mail_from` when sent (the form as it is, saved or not), else the settings in force. Answers 200 whether or not the server accepted it (see `ok`); 409 when no SMTP server is configured.',
    tag,
    access: 'admin',
    body: ZMessagingTestSchema,
    example: { body: { to: 'admin@office.example' } },
    responses: { 200: { description: 'The SMTP result', schema: ZMessagingTestResultSchema } },
    handler: async ({ res, ctx, body, act }) => {
      const outcome = await act(sendTestMail, body.to, body);
      const answer: TMessagingTestResult = {
        ok: outcome.isAccepted,
        response: outcome.result.recipients[0]?.response ?? outcome.result.response,
        error: outcome.result.error,
        message: presentOutboxMessage(ctx, outcome.row),
      };
      sendJson(res, 200, answer);
    },
  }),
];
