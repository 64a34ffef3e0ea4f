import { ACME_STATUS_READ_ONLY_FIELDS, ZAcmeSettingsUpdateSchema, ZAcmeStatusSchema } from '../../shared/api/acme';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { saveAcme } from '../reach/acme-settings';
import { askAcmeRenewal, presentAcmeStatus } from '../reach/acme-status';

const tag = 'Settings';

export const acmeSettingsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/settings/acme',
    operationId: 'getAcmeCertificate',
    summary: "The public listener's certificate from the ACME CA and its renewal",
    description:
      'Set by the environment (ACME_DOMAIN, ACME_EMAIL, ACME_DIRECTORY_URL, ACME_HTTP_PORT). A certificate is ordered at start when there is none and renewed when a third of its lifetime is left; a failed order is tried again with a back-off while the certificate in force is still served.',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The certificate and its renewal', schema: ZAcmeStatusSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, await presentAcmeStatus(ctx)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/acme',
    operationId: 'updateAcmeSettings',
    summary: 'Save the ACME domain and contact e-mail; null returns to ACME_DOMAIN and ACME_EMAIL',
    description:
      "For the desktop app, which has no environment. The domain takes effect when SignDesk next starts (`is_restart_needed` says so), with a party listener (PUBLIC_PORT); the e-mail at the next order. Saving it agrees to the CA's terms of service.",
    tag,
    access: 'admin',
    body: ZAcmeSettingsUpdateSchema,
    example: { body: { domain: 'sign.office.example', email: 'it@office.example' } },
    readOnlyFields: ACME_STATUS_READ_ONLY_FIELDS,
    responses: { 200: { description: 'The certificate and its renewal', schema: ZAcmeStatusSchema } },
    handler: async ({ res, ctx, body, act }) => {
      await act(saveAcme, body);
      sendJson(res, 200, await presentAcmeStatus(ctx));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/acme/renew',
    operationId: 'renewAcmeCertificate',
    summary: 'Order a new certificate now',
    description:
      'Answers at once (202) with the state; the order runs in the background and the new certificate is served without a restart (watch `last_renewal_time` and `last_error`). 409 when ACME is not configured or an order is under way.',
    tag,
    access: 'admin',
    responses: { 202: { description: 'The renewal is under way', schema: ZAcmeStatusSchema } },
    problemStatuses: [409],
    handler: async ({ res, ctx, act }) => {
      await act(askAcmeRenewal);
      sendJson(res, 202, await presentAcmeStatus(ctx));
    },
  }),
];
