import fs from 'node:fs';
import {
  BACKUP_CONTENT_TYPE,
  GENERAL_SETTINGS_READ_ONLY_FIELDS,
  MAX_RESTORE_BYTES,
  ZGeneralSettingsSchema,
  ZGeneralSettingsUpdateSchema,
  ZRestoreResultSchema,
  ZSigningCertificateImportSchema,
  ZSigningCertificateSchema,
  type TGeneralSettings,
} from '../../shared/api/settings';
import type { AppContext } from '../context';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { clearSessionCookie } from '../http/session-cookie';
import { makeBackupFile, restoreBackup } from '../services/settings/restore-backup';
import { describeSigningCertificate, importSigningCertificate } from '../services/settings/signing-certificate';
import { updateGeneralSettings } from '../services/settings/update-general-settings';
import { readGeneralSettings } from '../services/settings/apply-general-settings';

export function presentGeneralSettings(ctx: AppContext): TGeneralSettings {
  const office = ctx.repos.office.get(ctx.now());
  const stored = readGeneralSettings(ctx);
  return {
    office_name: office.name,
    office_email: office.email,
    public_base_url: stored.public_base_url ?? null,
    effective_public_base_url: ctx.baseUrl(),
    time_zone: stored.time_zone ?? null,
    effective_time_zone: ctx.config.timeZone,
  };
}

const tag = 'Settings';

export const settingsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/settings/general',
    operationId: 'getGeneralSettings',
    summary: "The office's name and e-mail, the public base URL and the time zone",
    tag,
    access: 'admin',
    responses: { 200: { description: 'The settings', schema: ZGeneralSettingsSchema } },
    handler: ({ res, ctx }) => sendJson(res, 200, presentGeneralSettings(ctx)),
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
    handler: ({ res, ctx, body }) => {
      updateGeneralSettings(ctx, body);
      sendJson(res, 200, presentGeneralSettings(ctx));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/settings/backup',
    operationId: 'downloadBackup',
    summary: 'Download a consistent copy of the whole database (SQLite online backup)',
    tag,
    access: 'admin',
    example: { output: 'signdesk-backup.sqlite' },
    responses: { 200: { description: 'The SQLite database file', contentType: BACKUP_CONTENT_TYPE } },
    handler: async ({ res, ctx }) => {
      const backup = await makeBackupFile(ctx);
      const stamp = ctx.timestamp(ctx.now()).replace(/[-: ]/g, '').replace(/^(\d{8})/, '$1-');
      res.status(200);
      res.setHeader('Content-Type', BACKUP_CONTENT_TYPE);
      res.setHeader('Content-Length', String(fs.statSync(backup.file).size));
      res.setHeader('Content-Disposition', `attachment; filename="signdesk-${stamp}.sqlite"`);
      const stream = fs.createReadStream(backup.file);
      res.once('close', () => {
        stream.destroy();
        backup.remove();
      });
      stream.pipe(res);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/restore',
    operationId: 'restoreBackup',
    summary: 'Replace all data with a backup made by downloadBackup',
    description:
      'The file is checked first (an SQLite database, undamaged, made by this or an older SignDesk); a file that fails changes nothing. Every admin session ends.',
    tag,
    access: 'admin',
    rawBody: {
      contentTypes: [BACKUP_CONTENT_TYPE, 'application/x-sqlite3', 'application/octet-stream'],
      maxBytes: MAX_RESTORE_BYTES,
      description: 'The backup file',
    },
    example: { file: { name: 'signdesk-backup.sqlite', contentType: 'application/vnd.sqlite3' } },
    responses: { 200: { description: 'Restored', schema: ZRestoreResultSchema } },
    handler: async ({ req, res, ctx, raw }) => {
      await restoreBackup(ctx, raw ?? Buffer.alloc(0));
      clearSessionCookie(req, res);
      sendJson(res, 200, { restored: true, detail: 'The backup was restored. Sign in again.' });
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
    handler: async ({ res, ctx }) => sendJson(res, 200, describeSigningCertificate(ctx)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/signing_certificate',
    operationId: 'importSigningCertificate',
    summary: "Use the office's own certificate (PKCS#12) to seal signed PDFs",
    tag,
    access: 'admin',
    body: ZSigningCertificateImportSchema,
    example: { body: { pkcs12: 'MIIKPAIBAzCCCfYGCSqGSIb3DQEHAaCCCecEggnjMIIJ3zCCBg8GCSqGSIb3DQEHAaCCBgAEggX8', passphrase: 'the file passphrase' } },
    responses: { 200: { description: 'The certificate now in use', schema: ZSigningCertificateSchema } },
    handler: async ({ res, ctx, body }) => {
      sendJson(res, 200, importSigningCertificate(ctx, Buffer.from(body.pkcs12, 'base64'), body.passphrase));
    },
  }),
];
