import { ZTrustedRootCreateSchema, ZTrustedRootSchema, ZTrustedRootsSchema } from '../../shared/api/trusted-roots';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { addTrustedRoot, presentTrustedRoots, removeTrustedRoot } from '../evidence/ltv/trusted-roots';

const tag = 'Settings';

export const trustedRootRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/settings/timestamps/trusted_roots',
    operationId: 'listTrustedRoots',
    summary: 'The certificate authorities the office trusts to complete timestamp chains',
    description:
      "Long-term validation needs every certificate of a timestamp authority's chain. Many authorities' tokens carry only their own certificate: the missing issuers are then taken from these certificates, or fetched from the CA Issuers address each certificate names.",
    tag,
    access: 'admin',
    responses: { 200: { description: 'The trusted roots', schema: ZTrustedRootsSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, await presentTrustedRoots(ctx)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/timestamps/trusted_roots',
    operationId: 'addTrustedRoot',
    summary: 'Trust a certificate authority (a root or an intermediate, PEM)',
    description:
      'One CA certificate (basicConstraints CA:TRUE), valid today; get it from the authority itself. Contracts whose validation data waits are tried again at once. 409 when it is already trusted, or when 50 are.',
    tag,
    access: 'admin',
    body: ZTrustedRootCreateSchema,
    example: { body: { certificate: '-----BEGIN CERTIFICATE-----\nMIIB…\n-----END CERTIFICATE-----\n' } },
    problemStatuses: [409],
    responses: { 201: { description: 'The trusted root', schema: ZTrustedRootSchema } },
    handler: async ({ res, act, body }) => sendJson(res, 201, await act(addTrustedRoot, body.certificate)),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/settings/timestamps/trusted_roots/:root_id',
    operationId: 'removeTrustedRoot',
    summary: 'Stop trusting a certificate authority',
    description: 'PDFs already extended keep the certificates their DSS holds.',
    tag,
    access: 'admin',
    responses: { 204: { description: 'Removed' } },
    handler: async ({ res, act, ids }) => {
      await act(removeTrustedRoot, ids.root_id);
      res.status(204).end();
    },
  }),
];
