import {
  GENERAL_SETTINGS_READ_ONLY_FIELDS,
  ZGeneralSettingsSchema,
  ZGeneralSettingsUpdateSchema,
  ZSigningCertificateImportSchema,
  ZSigningCertificateSchema,
  type TGeneralSettings,
} from '../../shared/api/settings';
import type { RouteContext } from '../http/route';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { describeSigningCertificate, importSigningCertificate } from '../settings/signing-certificate';
import { updateGeneralSettings } from '../settings/update-general-settings';
import { readGeneralSettings } from '../settings/apply-general-settings';
import { readFrameOrigins } from '../settings/frame-origins';
import { readDiskSpace } from '../settings/disk-space';
import { ZStorageSchema } from '../../shared/api/storage';

export async function presentGeneralSettings(ctx: RouteContext): Promise<TGeneralSettings> {
  const office = await ctx.repos.office.get(ctx.now());
  const stored = await readGeneralSettings(ctx);
  return {
    office_name: office.name,
    office_email: office.email,
    public_base_url: stored.public_base_url ?? null,
    effective_public_base_url: ctx.partyBaseUrl(),
    time_zone: stored.time_zone ?? null,
    effective_time_zone: ctx.config.timeZone,
    signing_frame_origins: await readFrameOrigins(ctx),
  };
}

const tag = 'Settings';

export const settingsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/settings/general',
    operationId: 'getGeneralSettings',
    summary:
      "The office's name and e-mail, the public base URL, the time zone and the origins that may frame the signing page",
    tag,
    access: 'admin',
    responses: { 200: { description: 'The settings', schema: ZGeneralSettingsSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, await presentGeneralSettings(ctx)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/general',
    operationId: 'updateGeneralSettings',
    summary: 'Change general settings; only the fields sent change, null returns a setting to its default',
    tag,
    access: 'admin',
    body: ZGeneralSettingsUpdateSchema,
    readOnlyFields: GENERAL_SETTINGS_READ_ONLY_FIELDS,
    example: { body: { public_base_url: 'https://sign.office.example', time_zone: 'Europe/Stockholm' } },
    responses: { 200: { description: 'The settings', schema: ZGeneralSettingsSchema } },
    handler: async ({ res, ctx, body, act }) => {
      await act(updateGeneralSettings, body);
      sendJson(res, 200, await presentGeneralSettings(ctx));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/settings/signing_certificate',
    operationId: 'getSigningCertificate',
    summary: 'The certificate that seals signed PDFs',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The certificate', schema: ZSigningCertificateSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, await describeSigningCertificate(ctx)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/signing_certificate',
    operationId: 'importSigningCertificate',
    summary: "Use the office's own certificate (PKCS#12) to seal signed PDFs",
    tag,
    access: 'admin',
    body: ZSigningCertificateImportSchema,
    example: {
      body: {
        pkcs12: 'MIIKPAIBAzCCCfYGCSqGSIb3DQEHAaCCCecEggnjMIIJ3zCCBg8GCSqGSIb3DQEHAaCCBgAEggX8',
        passphrase: 'the file passphrase',
      },
    },
    responses: { 200: { description: 'The certificate now in use', schema: ZSigningCertificateSchema } },
    handler: async ({ res, body, act }) => {
      sendJson(res, 200, await act(importSigningCertificate, Buffer.from(body.pkcs12, 'base64'), body.passphrase));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/settings/storage',
    operationId: 'getStorage',
    summary: "Free space on the data folder's disk, and whether it is low",
    description:
      'The admin UI warns on every page while `is_low`. Once the disk is full, changes are refused with 507 until space is freed; reads go on working.',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The disk of the data folder', schema: ZStorageSchema } },
    handler: async ({ res, ctx }) =>
      sendJson(res, 200, await readDiskSpace(ctx.config.dataDir, ctx.config.lowDiskBytes)),
  }),
];
