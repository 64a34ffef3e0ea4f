import {
  REACH_SETTINGS_READ_ONLY_FIELDS,
  ZReachCheckSchema,
  ZReachSettingsSchema,
  ZReachSettingsUpdateSchema,
} from '../../shared/api/reach';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { presentReach, saveReach } from '../reach/reach-settings';
import { checkReach } from '../reach/self-check';

const tag = 'Settings';

export const reachSettingsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/settings/reach',
    operationId: 'getReachSettings',
    summary: 'How parties reach SignDesk: the public address, the mode, the certificate and the party listener',
    description:
      'The party surface (PUBLIC_PORT) serves only the signing and verify pages; see docs/reach.md for the ways to put it on the internet.',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The reach settings', schema: ZReachSettingsSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, await presentReach(ctx)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/reach',
    operationId: 'updateReachSettings',
    summary: "Save the party listener's port and address; they take effect when SignDesk next starts",
    description:
      'A saved value wins over PUBLIC_PORT / PUBLIC_HOST (as saved SMTP and TSA settings win over theirs); null returns to the environment.',
    tag,
    access: 'admin',
    body: ZReachSettingsUpdateSchema,
    readOnlyFields: REACH_SETTINGS_READ_ONLY_FIELDS,
    example: { body: { public_port: 8443, public_host: '0.0.0.0' } },
    responses: { 200: { description: 'The reach settings', schema: ZReachSettingsSchema } },
    handler: async ({ res, ctx, body, act }) => {
      await act(saveReach, body);
      sendJson(res, 200, await presentReach(ctx));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/reach/check',
    operationId: 'checkReach',
    summary: 'Fetch the public health address from here and say what failed: DNS, port, certificate or answer',
    description:
      'Answers 200 whether or not the address was reached (see `ok` and `failed_stage`). A router without hairpin NAT fails this check although parties outside can connect: the error says so.',
    tag,
    access: 'admin',
    responses: { 200: { description: 'What the check found', schema: ZReachCheckSchema } },
    handler: async ({ res, act }) => sendJson(res, 200, await act(checkReach)),
  }),
];
