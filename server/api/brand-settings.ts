import {
  LOGO_TYPES,
  MAX_LOGO_BYTES,
  ZBrandSchema,
  ZBrandUpdateSchema,
  ZMailPreviewSchema,
  ZMailWordsPreviewSchema,
  ZMailWordsSettingsSchema,
  ZMailWordsTestResultSchema,
  ZMailWordsTestSchema,
  ZMailWordsUpdateSchema,
  type TBrand,
} from '../../shared/api/brand';
import { ZDkimSettingsSchema, ZDkimSettingsUpdateSchema } from '../../shared/api/dkim-settings';
import { DEFAULT_ACCENT } from '../../shared/brand';
import { notFound } from '../core/errors';
import type { RouteContext } from '../http/route';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { logoPath, readBrand } from '../brand/read-brand';
import { readMailWords } from '../brand/mail-words';
import { removeLogo, setLogo, updateBrand } from '../settings/update-brand';
import { updateMailWords } from '../settings/update-mail-words';
import { presentDkim, updateDkim } from '../settings/update-dkim';
import { previewMailWords, testMailWords } from '../signing/mail-words-preview';
import { presentOutboxMessage } from './outbox';

const tag = 'Settings';

async function presentBrand(ctx: RouteContext): Promise<TBrand> {
  const brand = await readBrand(ctx);
  return {
    office_name: brand.officeName,
    accent_color: brand.accentColor,
    effective_accent_color: brand.accentColor ?? DEFAULT_ACCENT,
    logo: brand.logo
      ? {
          url: `${ctx.partyBaseUrl()}${logoPath(brand.logo)}`,
          width: brand.logo.width,
          height: brand.logo.height,
          sha256: brand.logo.sha256,
          uploaded_type: brand.logo.uploadedType,
        }
      : null,
  };
}

const brandResponse = { 200: { description: 'The brand in force', schema: ZBrandSchema } };

export const brandSettingsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/settings/brand',
    operationId: 'getBrand',
    summary: "The office's name, accent colour and logo, as parties see them",
    description:
      'On the signing page, the verify page, the mails and the sealed PDF’s audit page. The logo is served to parties as a PNG SignDesk made from the upload.',
    tag,
    access: 'admin',
    responses: brandResponse,
    handler: async ({ res, ctx }) => sendJson(res, 200, await presentBrand(ctx)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/brand',
    operationId: 'updateBrand',
    summary: "Change the office's name or accent colour; only the fields sent change",
    description:
      'An accent on which white text (or which as text on white) has a contrast below 4.5:1 (WCAG AA) is refused with the ratio it has.',
    tag,
    access: 'admin',
    body: ZBrandUpdateSchema,
    readOnlyFields: ['effective_accent_color', 'logo'],
    example: { body: { office_name: 'Office AB', accent_color: '#0b6e4f' } },
    responses: brandResponse,
    handler: async ({ res, ctx, body, act }) => {
      await act(updateBrand, body);
      sendJson(res, 200, await presentBrand(ctx));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/brand/logo',
    operationId: 'setBrandLogo',
    summary: "Set the office's logo from a PNG or an SVG",
    description: `At most ${MAX_LOGO_BYTES / 1024} KiB and 4096 pixels on a side (4 megapixels for a PNG), judged from the file's header before anything is decoded. It is drawn afresh into a PNG of at most 800x320, the only form ever served or embedded. An SVG holding a script, event handlers, foreign content, entities or references to other files is refused.`,
    tag,
    access: 'admin',
    rawBody: {
      contentTypes: LOGO_TYPES,
      maxBytes: MAX_LOGO_BYTES,
      noun: 'logo',
      description: 'The PNG or SVG file',
    },
    example: { file: { name: 'logo.svg', contentType: 'image/svg+xml' } },
    responses: brandResponse,
    handler: async ({ res, ctx, raw, act }) => {
      await act(setLogo, raw ?? Buffer.alloc(0));
      sendJson(res, 200, await presentBrand(ctx));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/settings/brand/logo',
    operationId: 'removeBrandLogo',
    summary: "Remove the office's logo (the pages show its name)",
    tag,
    access: 'admin',
    responses: brandResponse,
    handler: async ({ res, ctx, act }) => {
      await act(removeLogo);
      sendJson(res, 200, await presentBrand(ctx));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/settings/brand/logo',
    operationId: 'getBrandLogo',
    summary: 'The logo as parties get it (PNG)',
    tag,
    access: 'admin',
    example: { output: 'logo.png' },
    responses: { 200: { description: 'The PNG', contentType: 'image/png' } },
    problemStatuses: [404],
    handler: async ({ res, ctx }) => {
      const brand = await readBrand(ctx);
      if (!brand.logo) throw notFound('logo');
      res.setHeader('Cache-Control', 'no-store');
      res.type('image/png').send(brand.logo.png);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/settings/mail_words',
    operationId: 'getMailWords',
    summary: "The office's own words of the invitation, reminder and signed mails, per language",
    tag,
    access: 'admin',
    responses: { 200: { description: 'The words saved', schema: ZMailWordsSettingsSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, await readMailWords(ctx)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/mail_words',
    operationId: 'updateMailWords',
    summary: "Set or remove the office's own words of a mail in a language",
    description:
      'Placeholders: {party_name}, {contract_name}, {link}, {expiry}, {office_name}; another is refused. Values go in as plain text: a party’s name never becomes HTML or a header. A viewer’s invitation, the one-time code, the expiry warning and the withdrawal keep SignDesk’s words.',
    tag,
    access: 'admin',
    body: ZMailWordsUpdateSchema,
    example: {
      body: {
        invitation: {
          en: {
            subject: '{office_name}: please sign {contract_name}',
            body: 'Dear {party_name},\n\nPlease read and sign {contract_name} by {expiry}.\n\nKind regards,\n{office_name}',
          },
        },
      },
    },
    responses: { 200: { description: 'The words saved', schema: ZMailWordsSettingsSchema } },
    handler: async ({ res, body, act }) => sendJson(res, 200, await act(updateMailWords, body)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/mail_words/preview',
    operationId: 'previewMailWords',
    summary: 'The mail as a party would get it, with example values',
    tag,
    access: 'admin',
    body: ZMailWordsPreviewSchema,
    example: { body: { kind: 'invitation', language: 'de' } },
    responses: { 200: { description: 'The mail', schema: ZMailPreviewSchema } },
    handler: async ({ res, ctx, body }) => sendJson(res, 200, await previewMailWords(ctx, body)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/mail_words/test',
    operationId: 'testMailWords',
    summary: 'Send the previewed mail now to an address, and answer with what the SMTP server said',
    tag,
    access: 'admin',
    body: ZMailWordsTestSchema,
    example: { body: { kind: 'reminder', language: 'sv', to: 'admin@office.example' } },
    responses: { 200: { description: 'The SMTP result', schema: ZMailWordsTestResultSchema } },
    handler: async ({ res, ctx, body, act }) => {
      const outcome = await act(testMailWords, body);
      sendJson(res, 200, {
        ok: outcome.isAccepted,
        response: outcome.result.recipients[0]?.response ?? outcome.result.response,
        error: outcome.result.error,
        message: presentOutboxMessage(ctx, outcome.row),
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/settings/dkim',
    operationId: 'getDkim',
    summary: 'The DKIM key mails are signed with, and the DNS record to publish',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The DKIM settings', schema: ZDkimSettingsSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, await presentDkim(ctx)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/dkim',
    operationId: 'updateDkim',
    summary: 'Sign every mail with DKIM (domain, selector, private key); null removes a field',
    tag,
    access: 'admin',
    body: ZDkimSettingsUpdateSchema,
    readOnlyFields: ['dns_record'],
    example: {
      body: { domain: 'office.example', selector: 'signdesk', private_key: '-----BEGIN PRIVATE KEY-----\n…' },
    },
    responses: { 200: { description: 'The DKIM settings', schema: ZDkimSettingsSchema } },
    handler: async ({ res, ctx, body, act }) => {
      await act(updateDkim, body);
      sendJson(res, 200, await presentDkim(ctx));
    },
  }),
];
