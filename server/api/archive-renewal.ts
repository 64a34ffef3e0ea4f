import { ZArchiveRenewalSchema } from '../../shared/api/archive-renewal';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { presentArchiveRenewal, startArchiveRenewal } from '../evidence/ltv/archive-renewal';

const tag = 'Settings';

export const archiveRenewalRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/settings/timestamps/archive_renewal',
    operationId: 'getArchiveRenewal',
    summary: 'The renewal of archive timestamps: the last run and its progress, and the next daily check',
    description:
      "Every signed PDF with a trusted timestamp carries validation data and an archive timestamp (PAdES B-LTA). A daily check renews each archive timestamp `renew_before_days` before its authority's certificate expires.",
    tag,
    access: 'admin',
    responses: { 200: { description: 'The renewal', schema: ZArchiveRenewalSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, await presentArchiveRenewal(ctx)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/timestamps/archive_renewal',
    operationId: 'startArchiveRenewal',
    summary: 'Renew the archive timestamp of every timestamped contract now',
    description:
      'Puts every contract with a trusted timestamp in line for fresh validation data and a new archive timestamp (for instance when an algorithm or an authority is no longer trusted). The work goes on in the background; GET shows its progress.',
    tag,
    access: 'admin',
    responses: { 202: { description: 'Begun', schema: ZArchiveRenewalSchema } },
    handler: async ({ res, ctx, act }) => {
      await act(startArchiveRenewal, 'admin');
      sendJson(res, 202, await presentArchiveRenewal(ctx));
    },
  }),
];
