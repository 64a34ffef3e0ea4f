import { createHash } from 'node:crypto';
import type { TBrandUpdate } from '../../shared/api/brand';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import { validationFailed } from '../core/errors';
import { logOfficeEvent } from '../activity/office-log';
import { BRAND_KEYS, type StoredLogo } from '../brand/read-brand';
import { checkLogo, LogoImageError } from '../pdf/logo-check';
import { updateGeneralSettings } from './update-general-settings';

const SUBJECT = '/api/settings/brand';

/** The office's name and accent; null returns the accent to SignDesk's own. Only the fields sent change. */
export async function updateBrand(ctx: AppContext, input: TBrandUpdate): Promise<void> {
  if (input.office_name !== undefined) await updateGeneralSettings(ctx, { office_name: input.office_name });
  if (input.accent_color === undefined) return;
  await inTransaction(ctx.db, async () => {
    await ctx.repos.settings.write(BRAND_KEYS.accent, input.accent_color ?? null, ctx.now());
    await logOfficeEvent(ctx, {
      event: 'settings.changed',
      subject: SUBJECT,
      details: { fields: 'accent_color', accent_color: input.accent_color ?? 'default' },
    });
  });
}

/**
 * The office's logo from an uploaded PNG or SVG: judged by its header here, then drawn afresh
 * into a PNG in the PDF sandbox (prepare-logo.ts); only that PNG is kept and ever served. A
 * file that cannot be a logo (a script in an SVG, too many pixels, not an image) is a
 * validation problem saying why, and the logo in force stays.
 */
export async function setLogo(ctx: AppContext, bytes: Uint8Array): Promise<void> {
  let prepared;
  try {
    checkLogo(bytes);
    prepared = await ctx.pdf.run('prepare-logo', { bytes }, { source: 'office' });
  } catch (error) {
    const isOurs = error instanceof LogoImageError || (error instanceof Error && error.name === 'LogoImageError');
    if (!isOurs) throw error;
    throw validationFailed([`body: ${error.message}`]);
  }
  const stored: StoredLogo = {
    png: Buffer.from(prepared.png).toString('base64'),
    width: prepared.width,
    height: prepared.height,
    uploadedType: prepared.kind === 'svg' ? 'image/svg+xml' : 'image/png',
  };
  await inTransaction(ctx.db, async () => {
    await ctx.repos.settings.write(BRAND_KEYS.logo, JSON.stringify(stored), ctx.now());
    await logOfficeEvent(ctx, {
      event: 'settings.changed',
      subject: `${SUBJECT}/logo`,
      details: {
        fields: 'logo',
        uploaded_type: stored.uploadedType,
        sha256: createHash('sha256').update(prepared.png).digest('hex'),
      },
    });
  });
}

/** No logo: the pages show the office's name alone again. */
export async function removeLogo(ctx: AppContext): Promise<void> {
  await inTransaction(ctx.db, async () => {
    await ctx.repos.settings.remove(BRAND_KEYS.logo);
    await logOfficeEvent(ctx, { event: 'settings.changed', subject: `${SUBJECT}/logo`, details: { fields: 'logo' } });
  });
}
