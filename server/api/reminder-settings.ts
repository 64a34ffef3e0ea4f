import { ZReminderSettingsSchema, ZReminderSettingsUpdateSchema } from '../../shared/api/reminders';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { readReminderDefaults, updateReminderDefaults } from '../settings/reminder-defaults';

const tag = 'Settings';

/** The office's default reminders, given to every contract made from now on. */
export const reminderSettingsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/settings/reminders',
    operationId: 'getReminderSettings',
    summary: "The office's default automatic reminders and expiry warning",
    description:
      'Every new contract gets these; each contract may change its own (`PUT /api/contracts/{contract_id}/reminders`).',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The defaults', schema: ZReminderSettingsSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, await readReminderDefaults(ctx)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/reminders',
    operationId: 'updateReminderSettings',
    summary: "Change the office's default reminders; contracts already made keep theirs",
    tag,
    access: 'admin',
    body: ZReminderSettingsUpdateSchema,
    example: { body: { reminder_interval_days: 7, reminder_max_count: 2 } },
    responses: { 200: { description: 'The defaults', schema: ZReminderSettingsSchema } },
    handler: async ({ res, body, act }) => sendJson(res, 200, await act(updateReminderDefaults, body)),
  }),
];
